// `npm run contract [-- --baseline NAME|FILE.json] [--strict] [--contract-from NAME|FILE.json] [playwright args…]`:
// the contract suite, its drift report compared with a baseline, its answers held to a baseline's learned document. The baseline is checked before any test runs; other arguments go to
// `playwright test` unchanged, and its exit code is ours (2 for a bad switch, configuration or baseline).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ArgsError, parseContractArgs } from '../report/drift-args.ts';
import { ConfigError } from '../config/suite-config.ts';
import { loadDotenvOnce, loadSuiteConfig } from '../contract/env.ts';
import { withSimulatorDefaults } from '../simulator/suite-env.ts';
import { BaselineError, readBaseline } from '../contract/reporters/baselines.ts';

const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

function argsOrExit() {
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
