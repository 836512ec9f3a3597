import { cpus } from 'node:os';
import { defineConfig } from '@playwright/test';
import { ConfigError } from './config/suite-config.ts';
import { loadDotenvOnce, loadSuiteConfig, PROJECT_ROOT, REPORTS_DIR } from './contract/env.ts';
import { withSimulatorDefaults } from './simulator/suite-env.ts';

function configOrExit() {
  try {
    loadDotenvOnce();
    // Without a target the suite starts the simulator: its values stand in for the user's (set ones win).
    withSimulatorDefaults(process.env);
    return loadSuiteConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`dialog-contract: ${err.message}`);
    process.exit(2);
  }
}

const config = configOrExit();

export default defineConfig({
  testDir: 'contract',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // A retry would hide exactly the intermittent drift QA needs to see.
  retries: 0,
  // The simulator needs a core of its own: on 2 cores one worker is fastest (measured: 8.4 s vs 12.9 s with 4).
  workers: config.workers ?? Math.max(1, cpus().length - 1),
  timeout: 20_000,
  globalSetup: './contract/global-setup.ts',
  reporter: [
    ['list'],
    ['html', { outputFolder: `${REPORTS_DIR}/html`, open: 'never' }],
    ['junit', { outputFile: `${REPORTS_DIR}/junit.xml` }],
    // reports/fingerprint.json, the drift report (reports/drift.*), failures.json, tickets/ and summary.md.
    ['./contract/reporters/run-reports.ts'],
    // Last, so it sees every file the other reporters wrote.
    ['./contract/reporters/secret-guard.ts'],
  ],
  use: {
    // Traces and API logs would carry the Authorization header: the suite's own evidence is redacted instead.
    trace: 'off',
  },
  projects: [
    // First: the send and command body shapes of the run; last, whatever happened in between: the run's end.
    { name: 'setup', testDir: 'contract/setup', testMatch: '*.setup.ts', teardown: 'run-end' },
    // V1, V2 and vertex in one project: a project is a worker of its own, and each worker started cost about a
    // second of a run (bench/contract.ts). One version alone: `npx playwright test contract/v2` (setup still runs).
    { name: 'api', testDir: 'contract', testMatch: ['v1/*.spec.ts', 'v2/*.spec.ts', 'vertex/*.spec.ts'], dependencies: ['setup'] },
    // One worker: the probes share one request budget and are gentle with staging by running one at a time.
    { name: 'probes', testDir: 'contract/probes', testMatch: '*.spec.ts', workers: 1, dependencies: ['setup'] },
    // The rate limit the run met, every "not shown" item observed, and the coverage of (operation, status) pairs.
    { name: 'run-end', testDir: 'contract/run-end' },
  ],
  webServer: config.usesSimulator
    ? {
        cwd: PROJECT_ROOT,
        command: `node --import tsx simulator/main.ts --port ${config.simulatorPort} --callback-url ${config.callbackPublicUrl}${config.simulatorProfile ? ` --profile ${config.simulatorProfile}` : ''}`,
        url: `${config.baseUrl}/api/v2/conversations`,
        reuseExistingServer: false,
        timeout: 30_000,
        stdout: 'ignore',
        stderr: 'pipe',
      }
    : undefined,
});
