// `npm run contract [-- --baseline NAME|FILE.json] [--strict] [--contract-from NAME|FILE.json] [--checks A,B]
// [--exclude-checks C] [--list-checks] [playwright args…]`: the contract suite, its drift report compared with a
// baseline, its answers held to a baseline's learned document, the checks it makes chosen by name (checks/).
// Other arguments go to `playwright test` unchanged (checked first by Playwright's own list pass when there are any).
// The run ends as one verdict (report/verdict.ts) with its exit code and its one line. It writes into a folder of its
// own that replaces the last run's reports as a whole at its end (contract/run/run-files.ts); a caller's mistake, a
// local port in use or a target that cannot be judged stops it before a verdict with one line, first and last, the
// last run's reports left as they were and no tickets; a cancel replaces them with its own, which say so.
// Playwright runs in a process group of its own: a cancel (CI's SIGTERM, Ctrl-C) interrupts it so its workers stop
// their dialogs and its reporters write the cancelled reports, then the group is killed if it lingers, and the
// dialogs still running are stopped here (contract/target/leftover-dialogs.ts). Nothing outlives the command.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { asksForHelp, commandLineOrExit, helpPointer } from '../config/command-line.ts';
import { ArgsError, parseContractArgs } from '../report/drift-args.ts';
import { ConfigError, type SuiteConfig } from '../config/suite-config.ts';
import {
  loadDotenvOnce,
  loadSuiteConfig,
  PROJECT_ROOT,
  REPORTS_DIR,
  REPORTS_HOME_ENV,
  SIMULATOR_STARTED_ENV,
  shareCompileCache,
  SUITE_ENVIRONMENT,
} from '../contract/core/env.ts';
import { embeddedSimulatorArgs, LISTENING_LINE, withSimulatorDefaults } from '../simulator/suite-env.ts';
import { BaselineError, readBaseline } from '../contract/core/baselines.ts';
import { MAIN_COMMAND_ENV } from '../contract/core/run-report-files.ts';
import { keepStoppedRun, replaceRunReports, startRunReports } from '../contract/run/run-files.ts';
import { listedTests, selectionProblem, type ListReport } from '../contract/core/run-scope.ts';
import { readVerdict, writeVerdictReports, type UnjudgedVerdict } from '../contract/core/verdict-reports.ts';
import { localPortsProblem } from '../contract/core/local-ports.ts';
import { markCancelled, readNoVerdict, stopRun } from '../contract/target/run-health.ts';
import { stopLeftOverDialogs } from '../contract/target/leftover-dialogs.ts';
import { exitCode, verdictLine, type RunVerdict } from '../report/verdict.ts';
import { CheckRegistryError, listChecks } from '../checks/check.ts';
import { registryOf } from '../contract/judging/run-checks.ts';
import { COMMAND_TIMING_ENV } from '../contract/core/run-timing.ts';
import { AcknowledgementsError, readAcknowledgements } from '../contract/fixtures/acknowledgements.ts';
import { runSeed, seedLine } from '../contract/core/run-seed.ts';

/** How long an interrupted Playwright gets to stop its tests' dialogs and write its reports before its group is killed. */
const INTERRUPT_GRACE_MS = 10_000;
/** How long the embedded simulator gets to close its port when the run ends before it is killed. */
const SIMULATOR_STOP_MS = 2_000;
/** How often the run's no-verdict marker is looked for: a down target ends the run within about this. */
const WATCH_MS = 300;

const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

// The help of our switches; the parsing is report/drift-args.ts's, since every other argument goes to Playwright.
const COMMAND = {
  script: 'contract',
  usage: [
    '[--baseline NAME|FILE.json [--strict]] [--contract-from NAME|FILE.json] [--checks A,B] [--exclude-checks C] [playwright test options and filters...]',
    '--list-checks [--checks A,B] [--exclude-checks C]',
  ],
  summary:
    'The contract suite (Playwright Test, projects api and probes) against API_BASE_URL or, without one, the embedded\n' +
    'simulator it starts. Writes reports/: the HTML report, junit.xml, the fingerprint and drift report (drift.md,\n' +
    'drift.html), failures.json, tickets/, coverage, exchanges.har and the learned document (observed.overlay.yaml).',
  options: {
    baseline: {
      type: 'string',
      value: 'NAME|FILE',
      description: 'compare the fingerprint with baselines/NAME.json (or a fingerprint file): changes listed in the drift report',
      env: 'BASELINE',
    },
    strict: { type: 'boolean', description: 'with a baseline: any change fails the run (exit 1)', env: 'STRICT_BASELINE=1' },
    'contract-from': {
      type: 'string',
      value: 'NAME|FILE',
      description: "hold every answer to that baseline's learned document as well (severity learned)",
      env: 'CONTRACT_FROM',
    },
    'list-checks': { type: 'boolean', description: 'print every check (name, spec sections, severity, statement, evidence) and run nothing' },
    checks: {
      type: 'string',
      value: 'A,B',
      description: 'make only these checks, by name or family (pagination_conformance is all its checks); the others are reported as not run',
      env: 'CHECKS',
    },
    'exclude-checks': { type: 'string', value: 'C,D', description: 'leave these checks out, reported as not run', env: 'EXCLUDE_CHECKS' },
  },
  // The suite's: what its processes require is what this help names.
  environment: SUITE_ENVIRONMENT,
  exit:
    '0 pass; 1 drift (a test failed: the vendor drifted, a secret reached a report, or --strict saw a change: tickets in\n' +
    'reports/tickets/); 2 a setting, argument or local port is wrong (nothing ran); 3 no verdict (the target unreachable,\n' +
    'down, or refusing the credentials, or not this API: the line says what to fix; no tickets); 130/143 cancelled\n' +
    '(SIGINT/SIGTERM: the dialogs the run created are stopped; no tickets).',
  notes: [
    'Every other argument goes to `playwright test` unchanged: test files or folders (contract/v2), -g PATTERN,\n' +
      '--project api|probes, --workers N, --reporter, ... Their list: npx playwright test --help.',
  ],
  examples: [
    'npm run contract',
    'npm run contract -- --baseline staging --strict',
    'npm run contract -- contract/v2 -g "send"',
    'npm run contract -- --exclude-checks meaning_conformance.ip',
  ],
} as const;

/**
 * Ends before Playwright starts: the last run's reports as they were, this one's verdict reports in reports/stopped/
 * (what CI publishes of a run that stopped), its line, its exit code.
 */
function endRun(verdict: UnjudgedVerdict): never {
  writeVerdictReports(keepStoppedRun(REPORTS_DIR), verdict);
  console.error(verdictLine(verdict));
  process.exit(exitCode(verdict));
}

/** `--list`: Playwright lists the tests and runs none; the run's reports are no business of it. */
function listOnly(playwrightArgs: readonly string[]): never {
  const listed = spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'test', ...playwrightArgs], {
    stdio: 'inherit',
    env: { ...process.env, REPORTS_DIR: mkdtempSync(join(tmpdir(), 'dialog-contract-list-')) },
  });
  process.exit(listed.status ?? 1);
}

/** A caller's mistake: one line that ends in the pointer to the help. */
const mistake = (what: string): UnjudgedVerdict => ({ kind: 'config', reason: `contract: ${what}; ${helpPointer(COMMAND)}` });

/**
 * Playwright's own list pass over the arguments it gets: what it refuses (an option it does not know, a project, a
 * shard or a file filter that names nothing, a selection of no test) is the caller's mistake, said in one line before
 * anything is sent or any report touched. Only when there are such arguments: the whole suite needs no pass (0.8 s).
 */
async function checkSelection(playwrightArgs: readonly string[]): Promise<void> {
  if (playwrightArgs.length === 0 || playwrightArgs.includes('--pass-with-no-tests')) return;
  const list = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', ...playwrightArgs, '--list', '--reporter=json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', PLAYWRIGHT_JSON_OUTPUT_NAME: '' },
  });
  let out = '';
  let err = '';
  list.stdout.on('data', (c: Buffer) => (out += c.toString()));
  list.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(list, 'close')) as [number | null];
  let report: ListReport | undefined;
  try {
    report = JSON.parse(out) as ListReport;
  } catch {
    report = undefined;
  }
  const problem = selectionProblem(code, report, err);
  if (problem) endRun(mistake(problem));
  const selected = report ? listedTests(report).tests.length : 0;
  if (selected === 0) endRun(mistake('the selection matches no test: nothing to run'));
}

async function argsOrExit(): Promise<{ args: ReturnType<typeof parseContractArgs>; config: SuiteConfig }> {
  if (asksForHelp(process.argv.slice(2))) commandLineOrExit(COMMAND, ['--help']);
  try {
    loadDotenvOnce();
    withSimulatorDefaults(process.env);
    const config = loadSuiteConfig();
    const args = parseContractArgs(process.argv.slice(2), {
      baseline: config.baseline,
      strict: config.strictBaseline,
      contractFrom: config.contractFrom,
      ...(config.checks ? { checks: config.checks } : {}),
      ...(config.excludeChecks ? { excludeChecks: config.excludeChecks } : {}),
    });
    if (args.baseline) readBaseline(args.baseline);
    if (args.contractFrom) readBaseline(args.contractFrom);
    // The team's known drifts are read at the run's end: one that cannot be read is said now, before anything is sent.
    readAcknowledgements();
    // The checks named and the team's module are known good before anything runs: a wrong one is one line, exit 2.
    const checks = await registryOf({ ...config, checks: args.checks, excludeChecks: args.excludeChecks });
    const left = checks.notRun().map((c) => c.name);
    // Said first, as the reporter says it last: a check left out is never silently absent.
    if (left.length && !args.listChecks)
      console.error(`dialog-contract: ${left.length} check${left.length === 1 ? '' : 's'} not run (left out by --checks/--exclude-checks): ${left.join(', ')}`);
    if (args.listChecks) {
      // Synchronously: exit must not cut a list still queued for a pipe.
      writeSync(1, `${listChecks(checks)}\n`);
      process.exit(0);
    }
    return { args, config };
  } catch (err) {
    if (
      !(
        err instanceof ArgsError ||
        err instanceof BaselineError ||
        err instanceof ConfigError ||
        err instanceof CheckRegistryError ||
        err instanceof AcknowledgementsError
      )
    )
      throw err;
    endRun(mistake(err.message));
  }
}

// The parent as it was before anything is awaited: one that dies meanwhile must still be seen gone (below).
const parent = process.ppid;
const { args, config } = await argsOrExit();
await checkSelection(args.playwright);
if (args.playwright.includes('--list')) listOnly(args.playwright);
// The run's first line: the seed that replays its generated inputs (drawn here when SEED is unset, for every process).
console.log(seedLine(runSeed(process.env).seed, config.generatedCases));
if (config.usesSimulator) {
  const ports = [
    { setting: 'SIMULATOR_PORT', port: config.simulatorPort, host: '127.0.0.1' },
    { setting: 'CALLBACK_PORT', port: config.callbackPort, host: config.callbackHost },
  ];
  const problem = await localPortsProblem(ports);
  if (problem) endRun({ kind: 'config', reason: `contract: ${problem}` });
}

/**
 * The embedded simulator, started here beside Playwright instead of by its webServer after Playwright's own start
 * (a third of a second of every run); global setup waits until it listens. Its own group: the signals it gets are ours.
 */
function startEmbeddedSimulator(): { process: ChildProcess; listening: () => boolean } {
  const sim = spawn(process.execPath, embeddedSimulatorArgs(config), { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let listening = false;
  const onOut = (chunk: Buffer) => {
    out += chunk.toString();
    listening = out.includes(LISTENING_LINE);
    if (listening) sim.stdout!.off('data', onOut).resume();
  };
  sim.stdout!.on('data', onOut);
  sim.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return { process: sim, listening: () => listening };
}

/** Stops the embedded simulator and waits until it is gone, so its port is free when the command ends. */
async function stopSimulator(sim: ChildProcess | undefined): Promise<void> {
  if (!sim || sim.exitCode !== null || sim.signalCode !== null) return;
  const gone = once(sim, 'exit');
  sim.kill('SIGTERM');
  const kill = setTimeout(() => sim.kill('SIGKILL'), SIMULATOR_STOP_MS);
  await gone;
  clearTimeout(kill);
}

// Playwright, its workers and the simulator start with Node's compile cache on: their bundles compiled once, not per run.
shareCompileCache();
// The run's own folder, in place of the last run's reports only at its end.
const NEXT = startRunReports(REPORTS_DIR);
const embedded = config.usesSimulator ? startEmbeddedSimulator() : undefined;
const simulator = embedded?.process;
const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', ...args.playwright], {
  stdio: 'inherit',
  // A group of its own: a signal to ours reaches only this command, which decides what Playwright gets.
  detached: true,
  env: {
    ...process.env,
    BASELINE: args.baseline ?? '',
    STRICT_BASELINE: args.strict ? '1' : '',
    CONTRACT_FROM: args.contractFrom ?? '',
    CHECKS: args.checks?.join(',') ?? '',
    EXCLUDE_CHECKS: args.excludeChecks?.join(',') ?? '',
    [MAIN_COMMAND_ENV]: '1',
    REPORTS_DIR: NEXT,
    [REPORTS_HOME_ENV]: REPORTS_DIR,
    ...(simulator ? { [SIMULATOR_STARTED_ENV]: '1' } : {}),
    // This command's own start, for the run's timing (contract/core/run-timing.ts).
    [COMMAND_TIMING_ENV]: `${Math.round(performance.timeOrigin)},${Date.now()}`,
  },
});
const group = child.pid!;
const signalGroup = (signal: NodeJS.Signals) => {
  try {
    process.kill(-group, signal);
  } catch {
    // already gone
  }
};
let cancelled: 'SIGINT' | 'SIGTERM' | undefined;
let stopped: string | undefined;
/** The embedded simulator could not start: a local problem, said by its own line above, not the target's. */
let simulatorFailed: string | undefined;
let killTimer: NodeJS.Timeout | undefined;
/** Playwright's own SIGINT handling: running tests stop, fixtures tear down (dialogs stopped), reporters write. */
const interrupt = () => {
  try {
    process.kill(group, 'SIGINT');
  } catch {
    // already gone
  }
  killTimer ??= setTimeout(() => signalGroup('SIGKILL'), INTERRUPT_GRACE_MS);
};
const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
  if (cancelled) return signalGroup('SIGKILL'); // a second signal: stop now
  cancelled = signal;
  markCancelled(NEXT, signal);
  console.error(`dialog-contract: ${signal}: stopping the run (its dialogs are stopped; no tickets)`);
  interrupt();
};
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGHUP', () => onSignal('SIGTERM'));
// npm forwards CI's SIGTERM to the shell that runs this script, which dies without passing it on: an orphaned
// command is a cancelled one.
const orphaned = setInterval(() => process.ppid !== parent && onSignal('SIGTERM'), WATCH_MS);
// A worker that finds the target down writes the run's end; the rest of the run is not worth its time.
const watch = setInterval(() => {
  const end = readNoVerdict(NEXT);
  if (!end || end.atEnd || stopped || cancelled) return;
  stopped = end.reason;
  console.error(verdictLine({ kind: 'no-verdict', reason: stopped }));
  interrupt();
}, WATCH_MS);
// A simulator that cannot start is a local problem; one gone later leaves nothing to judge, as a target gone down.
let playwrightEnded = false;
simulator?.once('exit', (code, signal) => {
  if (playwrightEnded || stopped || cancelled) return;
  const how = signal ?? `code ${code}`;
  if (embedded!.listening()) {
    // Recorded as a worker records a target gone down, so the run's reporter writes this verdict too.
    stopped = stopRun(NEXT, `the embedded simulator exited (${how}) during the run (its own lines, if any, are above)`).reason;
    console.error(verdictLine({ kind: 'no-verdict', reason: stopped }));
  } else {
    simulatorFailed = `contract: the embedded simulator did not start (${how}): its line above says why`;
  }
  interrupt();
});

/**
 * How the run ended, from what its processes recorded and Playwright's exit code: cancelled, a local problem, a target
 * that could not be judged (a worker or the run's reporter said so, or global setup ended it: 2 and 3 are its own
 * verdict's codes), else pass or drift; a Playwright that ended without the run's reports is no verdict either.
 */
function verdictOf(code: number | null, signal: NodeJS.Signals | null): RunVerdict {
  if (cancelled) return { kind: 'cancelled', signal: cancelled };
  if (simulatorFailed) return { kind: 'config', reason: simulatorFailed };
  const marked = stopped ?? readNoVerdict(NEXT)?.reason;
  if (marked) return { kind: 'no-verdict', reason: marked };
  if (code === 2 || code === 3) return readVerdict(NEXT) ?? { kind: code === 2 ? 'config' : 'no-verdict', reason: `global setup ended the run (code ${code})` };
  if (!existsSync(join(NEXT, 'fingerprint.json')))
    return { kind: 'no-verdict', reason: `Playwright ended (${signal ?? `code ${code}`}) before the run's reports were written: its output above says why` };
  return code === 0 ? { kind: 'pass' } : { kind: 'drift' };
}

child.once('exit', async (code, signal) => {
  playwrightEnded = true;
  clearInterval(watch);
  clearInterval(orphaned);
  clearTimeout(killTimer);
  signalGroup('SIGKILL'); // any worker left behind
  const verdict = verdictOf(code, signal);
  if (verdict.kind !== 'pass' && verdict.kind !== 'drift') {
    // Playwright's reporter writes them with the tests not run; killed, or stopped before its reporters began, it did
    // not. A simulator that never started is this command's verdict, whatever an interrupted reporter wrote.
    if (simulatorFailed || !existsSync(join(NEXT, 'drift.json'))) writeVerdictReports(NEXT, verdict);
    const { left, stopped: stoppedNow } = await stopLeftOverDialogs(config, NEXT).catch(() => ({ left: 0, stopped: 0 }));
    if (left > 0) console.error(`dialog-contract: ${stoppedNow} of ${left} dialogs the run left running were stopped now (created-dialogs.jsonl)`);
  }
  await stopSimulator(simulator);
  // A run with a verdict, or a cancelled one, replaces the last run's reports; one that stopped before keeps them.
  if (verdict.kind === 'pass' || verdict.kind === 'drift' || verdict.kind === 'cancelled') replaceRunReports(REPORTS_DIR, NEXT);
  else {
    const kept = keepStoppedRun(REPORTS_DIR, NEXT);
    console.error(`dialog-contract: the last run's reports are as they were; this run's are in ${relative(process.cwd(), kept) || kept}`);
  }
  console.error(verdictLine(verdict));
  process.exit(exitCode(verdict));
});
