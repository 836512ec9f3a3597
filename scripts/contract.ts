// `npm run contract [-- --baseline NAME|FILE.json] [--strict] [--contract-from NAME|FILE.json] [playwright args…]`:
// the contract suite, its drift report compared with a baseline, its answers held to a baseline's learned document. The baseline is checked before any test runs; other arguments go to
// `playwright test` unchanged, and its exit code is ours (2 for a bad switch, configuration or baseline).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { asksForHelp, commandLineOrExit, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { ArgsError, parseContractArgs } from '../report/drift-args.ts';
import { ConfigError } from '../config/suite-config.ts';
import { loadDotenvOnce, loadSuiteConfig } from '../contract/env.ts';
import { withSimulatorDefaults } from '../simulator/suite-env.ts';
import { BaselineError, readBaseline } from '../contract/reporters/baselines.ts';

const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

// The help of our switches; the parsing is report/drift-args.ts's, since every other argument goes to Playwright.
const COMMAND = {
  script: 'contract',
  usage: ['[--baseline NAME|FILE.json [--strict]] [--contract-from NAME|FILE.json] [playwright test options and filters...]'],
  summary:
    'The contract suite (Playwright Test, projects api and probes) against API_BASE_URL or, without one, the embedded\n' +
    'simulator it starts. Writes reports/: the HTML report, junit.xml, the fingerprint and drift report (drift.md,\n' +
    'drift.html), failures.json, tickets/, coverage, exchanges.har and the learned document (observed.overlay.yaml).',
  options: {
    baseline: { type: 'string', value: 'NAME|FILE', description: 'compare the fingerprint with baselines/NAME.json (or a fingerprint file): changes listed in the drift report', env: 'BASELINE' },
    strict: { type: 'boolean', description: 'with a baseline: any change fails the run (exit 1)', env: 'STRICT_BASELINE=1' },
    'contract-from': { type: 'string', value: 'NAME|FILE', description: "hold every answer to that baseline's learned document as well (severity learned)", env: 'CONTRACT_FROM' },
  },
  environment: [
    ['API_BASE_URL', 'the target without /api; unset: the embedded simulator'],
    ['SIMULATOR_PROFILE', 'the embedded simulator\'s vendor profile (npm run simulator -- --list-profiles); only without API_BASE_URL'],
    ['API_LOGIN, API_PASSWORD', 'Basic credentials (unset with the simulator: its own)'],
    ['BOT_ID, GOTO_BOT_ID, CUSTOM_BLOCK_BOT_ID', 'the bots (unset with the simulator: its own)'],
    ['SEND_BODY, COMMAND_BODY', 'JSON templates of the send and command bodies; unset: discovered per run'],
    ['CALLBACK_HOST, CALLBACK_PORT, CALLBACK_PUBLIC_URL', "where the custom block's call is received"],
    ['SIMULATOR_PORT', 'port of the embedded simulator (default: 4010)'],
    ['MAX_RPS, WORKERS', 'pace of the whole run, Playwright workers'],
    REPORTS_DIR_ENV,
  ],
  exit: "0 green; 1 a test failed, the vendor drifted, a secret reached a report, or --strict saw a change; 2 bad input.",
  notes: [
    "Every other argument goes to `playwright test` unchanged: test files or folders (contract/v2), -g PATTERN,\n" +
      '--project api|probes, --workers N, --reporter, ... Their list: npx playwright test --help.',
  ],
  examples: ['npm run contract', 'npm run contract -- --baseline staging --strict', 'npm run contract -- contract/v2 -g "send"'],
} as const;

function argsOrExit() {
  if (asksForHelp(process.argv.slice(2))) commandLineOrExit(COMMAND, ['--help']);
  try {
    loadDotenvOnce();
    withSimulatorDefaults(process.env);
    const config = loadSuiteConfig();
    const args = parseContractArgs(process.argv.slice(2), { baseline: config.baseline, strict: config.strictBaseline, contractFrom: config.contractFrom });
    if (args.baseline) readBaseline(args.baseline);
    if (args.contractFrom) readBaseline(args.contractFrom);
    return args;
  } catch (err) {
    if (!(err instanceof ArgsError || err instanceof BaselineError || err instanceof ConfigError)) throw err;
    console.error(`contract: ${err.message}`);
    process.exit(2);
  }
}

const args = argsOrExit();
const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', ...args.playwright], {
  stdio: 'inherit',
  env: { ...process.env, BASELINE: args.baseline ?? '', STRICT_BASELINE: args.strict ? '1' : '', CONTRACT_FROM: args.contractFrom ?? '' },
});
// Ctrl-C reaches Playwright too (same process group); wait for it to finish its reports.
process.on('SIGINT', () => {});
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
