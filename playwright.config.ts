import { cpus } from 'node:os';
import { defineConfig } from '@playwright/test';
import {
  configOrExit,
  laneTag,
  PROJECT_ROOT,
  REPORTS_DIR,
  runSpecs,
  SIMULATOR_STARTED_ENV,
  shareCompileCache,
  SUITE_ENVIRONMENT,
} from './contract/core/env.ts';
import { embeddedSimulatorArgs, LISTENING_LINE, withSimulatorDefaults } from './simulator/suite-env.ts';
import { PLAYWRIGHT_REPORTS } from './contract/core/verdict-reports.ts';

// Without a target the suite starts the simulator: its values stand in for the user's (set ones win).
const config = configOrExit('dialog-contract', SUITE_ENVIRONMENT, withSimulatorDefaults);
// The workers start with the compile cache on (the main command starts this process with it on already).
shareCompileCache();
// Against the embedded simulator the run is CPU-bound: two workers at least, the probes' one beside the API tests'
// (on 2 cores: 5.2 s against 5.9 s with one; four were slower, 12.9 s against 8.4 s, when each project needed its
// own worker). A target a network away makes it I/O-bound: its tests wait on the network, on lists that settle and
// on `updated` to move, so more workers than cores keep the run's pace (the target's limit) filled. Four, 80–140 ms
// from a limit of 20/s (npm run bench:staging, interleaved, load 1.5): 40.2–43.0 s, against 40.6–44.1 s with five and
// 42.4–44.9 s with six, each worker more 2 s of CPU to start; with three the run never reached the limit.
const REMOTE_WORKERS = 4;
const workers = config.workers ?? (config.usesSimulator ? Math.max(2, cpus().length - 1) : REMOTE_WORKERS);
const PROBES = 'probes/*.spec.ts';
const API_TESTS = ['v1/*.spec.ts', 'v2/*.spec.ts', 'vertex/*.spec.ts'];
const runs = runSpecs();

export default defineConfig({
  testDir: 'contract',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // A retry would hide exactly the intermittent drift QA needs to see.
  retries: 0,
  workers,
  timeout: 20_000,
  globalSetup: './contract/run/global-setup.ts',
  reporter: [
    // First: when the tests were loaded, and each worker's stretch of tests, for npm run bench.
    ['./contract/reporters/run-timing.ts'],
    ['list'],
    ['html', { outputFolder: `${REPORTS_DIR}/${PLAYWRIGHT_REPORTS.html}`, open: 'never' }],
    // reports/fingerprint.json, the drift report (reports/drift.*), failures.json, tickets/, summary.md and junit.xml
    // (its own: Playwright's JUnit reporter calls every contract failure an <error>, a crash to CI).
    ['./contract/reporters/run-reports.ts'],
    // Last, so it sees every file the other reporters wrote.
    ['./contract/reporters/secret-guard.ts'],
  ],
  use: {
    // Traces and API logs would carry the Authorization header: the suite's own evidence is redacted instead.
    trace: 'off',
  },
  projects: runs
    ? // Several runs in one invocation (RUNS_ENV): a project per lane of runs, the whole suite of each of them in the
      // lane's workers (contract/fixtures/api-test.ts eachRun tags each run's tests with its lane).
      [...new Set(runs.map((run) => run.lane))].map((lane) => ({
        name: `lane-${lane}`,
        testDir: 'contract',
        testMatch: [PROBES, ...API_TESTS],
        grep: new RegExp(`${laneTag(lane)}(?!\\d)`),
        workers: config.workers ?? 1,
        // Its workers (WORKERS, scripts/suite-run.ts laneShape) take each file's tests of its runs as one group, so a
        // run's tests go side by side as in a run alone. One group per test made Playwright bind
        // the whole file (every run's tests of it) for each test: a cost per test that grows with the runs, 3 ms a
        // test at 12 runs, 7 ms at 48, most of the mutation run's CPU at 99.
        fullyParallel: false,
      }))
    : [
        // One worker: the probes share one request budget and are gentle with staging by running one at a time.
        // First, so their worker starts beside the API tests' instead of after them.
        { name: 'probes', testDir: 'contract', testMatch: PROBES, workers: 1 },
        // The run's body shapes are settled in global setup and its whole-run checks made by the run reporter
        // (contract/run/run-setup.ts, contract/run/run-end.ts). V1, V2 and vertex in one project; one version alone:
        // `npx playwright test contract/v2`. Against the simulator, every worker: when the probes' ends (a second into
        // the run), a worker of the API tests takes its place, so the API tests, two thirds of the run's CPU and its
        // longest waits (the lifecycle's second, each write's settle), run on both cores for the rest of it. (When a
        // request cost a Playwright step, a second API worker cost more than it saved: 4.7 s against 4.4 s.) Against
        // a target a network away, the workers the probes leave, whose pace the target's limit sets. Against the
        // simulator each worker takes a whole file at a time (as a lane of the mutation run does): one dispatch per file
        // instead of per test, where the run is CPU-bound (7 pairs: 5.04 s against 5.14 s, 2% less CPU); against a
        // target every test apart, so that four workers waiting on the network stay balanced.
        {
          name: 'api',
          testDir: 'contract',
          testMatch: API_TESTS,
          fullyParallel: !config.usesSimulator,
          workers: config.usesSimulator ? workers : Math.max(1, workers - 1),
        },
      ],
  // The main command starts the simulator itself, beside Playwright's own start (a third of a second sooner).
  webServer:
    config.usesSimulator && process.env[SIMULATOR_STARTED_ENV] !== '1'
      ? {
          cwd: PROJECT_ROOT,
          command: `node ${embeddedSimulatorArgs(config).join(' ')}`,
          url: `${config.baseUrl}/api/v2/conversations`,
          // Its first line says it listens: taken at once, where polling the URL waits up to half a second more.
          wait: { stdout: new RegExp(`^${LISTENING_LINE}`) },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        }
      : undefined,
});
