// Runs the whole contract suite against a simulator started on its own ports, exactly as a user points the suite
// at staging (API_BASE_URL), and reads Playwright's JSON report. Shared by the mutation run and the Prism check.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { commandLineOrExit, exitWithUsage, type CommandSpec, type OptionSpec } from '../config/command-line.ts';
import { suiteVersion } from '../config/suite-version.ts';
import { errorHeadline } from '../contract/reporters/error-headline.ts';
import { RUNS_ENV, type RunSpec } from '../contract/core/env.ts';
import { freePort } from '../config/free-port.ts';
import { MAX_SEED } from '../config/suite-config.ts';
import type { RunMeta } from '../lib/fingerprint.ts';
import type { SimulatorConfig } from '../simulator/config.ts';
import { profileConfig } from '../simulator/profiles.ts';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../simulator/server.ts';
import { suiteEnvFor } from '../simulator/suite-env.ts';
import type { SuiteRun } from '../power/mutation-score.ts';

const require = createRequire(import.meta.url);

const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');

interface JsonSuite {
  title: string;
  file?: string;
  specs?: Array<{
    title: string;
    file: string;
    tests: Array<{ projectName: string; status: string; results: Array<{ duration?: number; errors?: Array<{ message?: string }> }> }>;
  }>;
  suites?: JsonSuite[];
}

type JsonReport = { suites: JsonSuite[]; errors?: Array<{ message?: string }> };

/**
 * Failed tests and the first failure line of a JSON report's tests: of one run of several in one invocation (those
 * contract/fixtures/api-test.ts eachRun registered under its name, right under their file), or of all; `testSeconds` their
 * durations added (a lane runs a run's tests one at a time, between other runs' tests).
 */
function summarize(report: JsonReport, run?: string): Omit<SuiteRun, 'seconds'> & { testSeconds: number } {
  const failed: string[] = [];
  let passed = 0;
  let skipped = 0;
  let firstMessage: string | undefined;
  let testMs = 0;
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        for (const r of t.results) testMs += r.duration ?? 0;
        if (t.status === 'skipped') skipped++;
        else if (t.status === 'expected') passed++;
        else {
          failed.push(`[${run ?? t.projectName}] ${spec.file} › ${spec.title}`);
          firstMessage ??= errorHeadline(t.results.flatMap((r) => r.errors ?? [])[0]?.message);
        }
      }
    }
    suite.suites?.forEach(walk);
  };
  for (const file of report.suites) {
    if (run === undefined) walk(file);
    else file.suites?.filter((s) => s.title === run).forEach(walk);
  }
  const globalError = errorHeadline(report.errors?.[0]?.message);
  return {
    failed,
    passed,
    skipped,
    testSeconds: testMs / 1000,
    ...(firstMessage ? { firstMessage } : {}),
    ...(globalError && !failed.length ? { error: globalError } : {}),
  };
}

/** The run block of a script's own report (mutation, profiles, crosscheck): it has no single target URL. */
/**
 * The seed of the generated inputs of every run a mutation or profiles run starts: SEED, else this one. The same
 * seed sends the same inputs, so two runs of the same code score alike, with the same shrunk inputs; every class a
 * drift trips on is met under any seed (fixtures/input-space.test.ts).
 */
export const PINNED_SEED = 47;

/** SEED in a runs command's help. */
export const PINNED_SEED_ENV = ['SEED', `the seed of every run's generated inputs (default ${PINNED_SEED}), written in the JSON report`] as const;

/** Sets the runs' SEED (SEED, else PINNED_SEED) and returns it; one that is no seed ends the script (exit 2) with why. */
export function pinSeedOrExit(script: string, env: NodeJS.ProcessEnv = process.env): number {
  const seed = env.SEED?.trim() ? Number(env.SEED) : PINNED_SEED;
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    console.error(`${script}: SEED must be a whole number from 0 to ${MAX_SEED} (unset: ${PINNED_SEED}), got "${env.SEED}"`);
    process.exit(2);
  }
  env.SEED = String(seed);
  return seed;
}

export function scriptRun(target: string, startedAt: number): RunMeta {
  return { runId: randomUUID(), startedAt: new Date(startedAt).toISOString(), target, suiteVersion: suiteVersion(), vendorVersion: null };
}

/**
 * The environment of a run against a simulator started elsewhere, exactly as a user points the suite at staging:
 * the simulator's credentials and bots stand in for the user's .env, nothing of its other choices.
 */
export function simulatorTargetEnv(baseUrl: string, callbackPort: number, simulator: SimulatorConfig = profileConfig('default')): NodeJS.ProcessEnv {
  return { ...process.env, ...simulatorTargetVariables(baseUrl, callbackPort, simulator) };
}

/** What simulatorTargetEnv sets over the environment. */
export function simulatorTargetVariables(baseUrl: string, callbackPort: number, simulator: SimulatorConfig): Record<string, string> {
  return {
    BLOCKED_BOT_ID: '',
    ...suiteEnvFor(simulator),
    API_BASE_URL: baseUrl,
    // The simulator here plays a target: a profile the user set for the embedded one does not apply to it.
    SIMULATOR_PROFILE: '',
    FILE_ID: '',
    SEND_BODY: '',
    COMMAND_BODY: '',
    CALLBACK_PORT: String(callbackPort),
    CALLBACK_PUBLIC_URL: `http://127.0.0.1:${callbackPort}/callback`,
    FORCE_COLOR: '0',
  };
}

export interface SuiteRunOptions {
  /** Base URL of the target, without /api. */
  baseUrl: string;
  callbackPort: number;
  reportsDir: string;
  workers: number;
  /** The simulator the target plays: its credentials and bots stand in for the user's (default: the default profile). */
  simulator?: SimulatorConfig;
  /** Variables a user would set besides (SEND_BODY, COMMAND_BODY, MAX_RPS...). */
  env?: Record<string, string>;
  /** A fingerprint file the run's drift report compares with (BASELINE); none by default. */
  baseline?: string;
  extraArgs?: string[];
  /** The run's drift reports (fingerprint, drift report, learned document) besides Playwright's JSON: on by default. */
  driftReports?: boolean;
  /** Keep what reportsDir holds (a test of what a run does with an earlier run's reports); emptied by default. */
  keepReports?: boolean;
}

/** What a run sets over the environment: its target as a user would give it, its variables, reports folder and baseline. */
function runVariables(run: Omit<SuiteRunOptions, 'workers'>): Record<string, string> {
  return {
    ...simulatorTargetVariables(run.baseUrl, run.callbackPort, run.simulator ?? profileConfig('default')),
    ...run.env,
    REPORTS_DIR: run.reportsDir,
    BASELINE: run.baseline ?? '',
  };
}

/** Why a run has no JSON report: Playwright's first line on stderr. */
const noReport = (stderr: string) => `no Playwright report: ${stderr.trim().split('\n')[0] ?? 'no output'}`;

/** Playwright with `args` and `env`: how it ended, everything it printed, and its stderr apart. */
async function playwright(args: string[], env: NodeJS.ProcessEnv): Promise<{ exitCode: number | null; output: string; stderr: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    output += c.toString();
  });
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { exitCode, output, stderr };
}

/** A run and how its process ended: the exit code and everything it printed. */
export type FinishedRun = SuiteRun & { exitCode: number | null; output: string };

/** A run that ran no test: why, and how its process ended if it started one. */
const runError = (error: string, ended: Pick<FinishedRun, 'seconds' | 'exitCode' | 'output'> = { seconds: 0, exitCode: null, output: '' }): FinishedRun => ({
  failed: [],
  passed: 0,
  skipped: 0,
  error,
  ...ended,
});

/** The suite against an external target, with the JSON report read back. */
export async function runSuite(options: SuiteRunOptions): Promise<FinishedRun> {
  if (!options.keepReports) rmSync(options.reportsDir, { recursive: true, force: true });
  mkdirSync(options.reportsDir, { recursive: true });
  const jsonFile = join(options.reportsDir, 'results.json');
  const env: NodeJS.ProcessEnv = { ...process.env, ...runVariables(options), PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile, WORKERS: String(options.workers) };
  const started = Date.now();
  // Each run its own output folder: Playwright empties it when a run starts, and runs go side by side.
  const reporters = options.driftReports === false ? 'json' : 'json,./contract/reporters/run-reports.ts';
  const args = [PLAYWRIGHT_CLI, 'test', `--reporter=${reporters}`, '--output', join(options.reportsDir, 'test-results'), ...(options.extraArgs ?? [])];
  const { exitCode, output, stderr } = await playwright(args, env);
  const seconds = (Date.now() - started) / 1000;
  try {
    const { testSeconds: _testSeconds, ...read } = summarize(JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport);
    return { ...read, seconds, exitCode, output };
  } catch {
    return runError(noReport(stderr), { seconds, exitCode, output });
  }
}

/** One run of several in one invocation: its name (its tests' describe, contract/fixtures/api-test.ts eachRun), and its target and reports as runSuite takes them. */
export type SuiteRunSpec = Omit<SuiteRunOptions, 'workers' | 'extraArgs' | 'keepReports' | 'driftReports'> & { name: string };

/** How runs side by side are laid out: `lanes` Playwright invocations of `workers` worker processes each. */
export interface LaneShape {
  lanes: number;
  workers: number;
}

/**
 * `concurrency` tests side by side, for `runs` runs on a machine of `cores` cores that holds `processes` Playwright
 * processes: a lane per core at most, the rest as its workers. A lane's runner is one thread, which proxies its runs'
 * requests, dispatches their tests, takes their results and ends each run (fold, judging, reports): a lane per core
 * keeps each runner a core. Its workers fill the waits its tests leave (the lifecycle's second, a drift's settles):
 * on 2 cores, 116 runs took 177 s in 4 lanes of 1 worker, 178 s in 3 of 2, 168 s in 2 of 2, 159 s in 2 of 3 and 170
 * s in 2 of 4, the score the same. Each process, a runner or a worker, holds every run of its lane (half a gigabyte).
 */
export function laneShape(concurrency: number, runs: number, cores: number, processes: number): LaneShape {
  const lanes = Math.max(1, Math.min(cores, concurrency, runs, Math.floor(processes / 2)));
  return { lanes, workers: Math.max(1, Math.min(Math.ceil(concurrency / lanes), Math.floor(processes / lanes) - 1)) };
}

/**
 * The lane of each run: round the table, so that each lane has as many runs (a run's CPU, at its runner and its
 * workers, is much the same whatever it finds); with what each run's tests took before (seconds, by its name), round
 * the table from the costliest on, there and back, so that the runs that wait long (a list that never shows a dialog:
 * 38 s against 3) fall to every lane alike. A run not seen before counts as the middle one of those seen. Dealt in
 * the order given, a mutation run's two lanes ended 12 s apart (139 and 151 s), a core idle meanwhile; dealt to
 * balance the seconds alone, 12 s apart the other way.
 */
export function dealRuns(names: readonly string[], lanes: number, costs?: ReadonlyMap<string, number>): number[] {
  const known = names.flatMap((name) => costs?.get(name) ?? []).sort((a, b) => a - b);
  if (known.length === 0) return names.map((_, i) => i % lanes);
  const middle = known[known.length >> 1]!;
  const order = names.map((name, i) => ({ i, cost: costs?.get(name) ?? middle })).sort((a, b) => b.cost - a.cost || a.i - b.i);
  const out: number[] = [];
  order.forEach(({ i }, k) => {
    const round = Math.floor(k / lanes);
    out[i] = round % 2 === 0 ? k % lanes : lanes - 1 - (k % lanes);
  });
  return out;
}

/**
 * Several whole-suite runs in Playwright invocations (contract/core/env.ts RUNS_ENV), side by side as `shape` lays them
 * out (dealt by `costs`, dealRuns): each lane a project whose workers take its runs' tests, each file's tests of its runs as one group; set up,
 * reported and read back apart, each in its own reports folder as runSuite leaves it. Playwright's start (a second and
 * a half of CPU) is paid once per lane instead of per run, as a worker's (a second) is. Each lane is an invocation of
 * its own: one runner for every lane made the lanes wait on it (the mutation run on 2 cores, 4 lanes: 241 s in one
 * invocation, 210 s in two, 181 s in four). `dir` holds the invocations' own files (Playwright's JSON report and
 * output folder, one subfolder each). A run's `seconds` are its tests' own; the output is its invocation's.
 */
export async function runSuites(runs: readonly SuiteRunSpec[], shape: LaneShape, dir: string, costs?: ReadonlyMap<string, number>): Promise<FinishedRun[]> {
  rmSync(dir, { recursive: true, force: true });
  const lanes = Math.min(shape.lanes, runs.length);
  const laneOf = dealRuns(
    runs.map((run) => run.name),
    lanes,
    costs,
  );
  const dealt = runs.map((run, i) => ({ run, i, lane: laneOf[i]! }));
  const finished = await Promise.all(
    Array.from({ length: lanes }, (_, lane) => {
      const own = dealt.filter((d) => d.lane === lane);
      return invocation(
        own.map((d) => d.run),
        lane,
        shape.workers,
        join(dir, `lane-${lane}`),
      ).then((ended) => own.map(({ i }, k) => ({ i, run: ended[k]! })));
    }),
  );
  const byRun: FinishedRun[] = [];
  for (const { i, run } of finished.flat()) byRun[i] = run;
  return byRun;
}

/** One Playwright invocation of a lane's runs, in its `workers` worker processes. */
async function invocation(runs: readonly SuiteRunSpec[], lane: number, workers: number, dir: string): Promise<FinishedRun[]> {
  mkdirSync(dir, { recursive: true });
  const specs = runs.map((run): RunSpec => {
    rmSync(run.reportsDir, { recursive: true, force: true });
    mkdirSync(run.reportsDir, { recursive: true });
    return { name: run.name, lane, env: runVariables(run) };
  });
  // The runs' variables hold their credentials: handed over in a private temporary folder, never in a report.
  const handover = mkdtempSync(join(tmpdir(), 'dialog-contract-runs-'));
  const runsFile = join(handover, 'runs.json');
  writeFileSync(runsFile, JSON.stringify(specs), { mode: 0o600 });
  const jsonFile = join(dir, 'results.json');
  // The first run's variables stand for the invocation's own configuration (the runner's, before any run is entered).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...specs[0]!.env,
    [RUNS_ENV]: runsFile,
    PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile,
    WORKERS: String(workers),
    FORCE_COLOR: '0',
  };
  const started = Date.now();
  const args = [
    PLAYWRIGHT_CLI,
    'test',
    '--reporter=./contract/reporters/run-timing.ts,json,./contract/reporters/runs-reports.ts',
    '--output',
    join(dir, 'test-results'),
  ];
  const { exitCode, output, stderr } = await playwright(args, env).finally(() => rmSync(handover, { recursive: true, force: true }));
  const seconds = (Date.now() - started) / 1000;
  let report: JsonReport;
  try {
    // Read once: the report of 48 runs is 11 MB.
    report = JSON.parse(readFileSync(jsonFile, 'utf8')) as JsonReport;
  } catch {
    return runs.map(() => runError(noReport(stderr), { seconds, exitCode, output }));
  }
  return runs.map((run) => {
    const { testSeconds, ...read } = summarize(report, run.name);
    return { ...read, seconds: testSeconds, exitCode, output };
  });
}

/** A simulator started in this process on a free port, calling the custom block back on a free port of its own. */
export async function startRunSimulator(
  simulator: Omit<SimulatorOptions, 'port' | 'callbackUrl' | 'log'> = {},
): Promise<{ sim: RunningSimulator; callbackPort: number }> {
  const callbackPort = await freePort();
  const sim = await startSimulator({ ...simulator, port: 0, callbackUrl: `http://127.0.0.1:${callbackPort}/callback`, log: () => {} });
  return { sim, callbackPort };
}

/**
 * The suite against a simulator started in this process on free ports (one per run, no process start per run),
 * closed afterwards; a simulator that cannot start is a run error, not an exception.
 */
export async function runAgainstSimulator(
  simulator: Omit<SimulatorOptions, 'port' | 'callbackUrl' | 'log'>,
  run: Omit<SuiteRunOptions, 'baseUrl' | 'callbackPort' | 'simulator'>,
): Promise<FinishedRun> {
  try {
    const { sim, callbackPort } = await startRunSimulator(simulator);
    try {
      return await runSuite({ ...run, baseUrl: sim.url, callbackPort, simulator: sim.config });
    } finally {
      await sim.close();
    }
  } catch (err) {
    return runError((err as Error).message);
  }
}

/**
 * runSuites against simulators started in this process, one per run on free ports, closed afterwards; a simulator
 * that cannot start is that run's error.
 */
export async function runSuitesAgainstSimulators(
  runs: ReadonlyArray<{
    name: string;
    simulator: Omit<SimulatorOptions, 'port' | 'callbackUrl' | 'log'>;
    run: Omit<SuiteRunSpec, 'name' | 'baseUrl' | 'callbackPort' | 'simulator'>;
  }>,
  shape: LaneShape,
  dir: string,
  costs?: ReadonlyMap<string, number>,
): Promise<FinishedRun[]> {
  const started = await Promise.allSettled(runs.map((r) => startRunSimulator(r.simulator)));
  try {
    const ready = runs.flatMap((r, i) => {
      const s = started[i]!;
      return s.status === 'fulfilled'
        ? [{ ...r.run, name: r.name, baseUrl: s.value.sim.url, callbackPort: s.value.callbackPort, simulator: s.value.sim.config }]
        : [];
    });
    const finished = ready.length ? await runSuites(ready, shape, dir, costs) : [];
    return started.map((s) => (s.status === 'fulfilled' ? finished.shift()! : runError((s.reason as Error).message)));
  } finally {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.sim.close() : undefined)));
  }
}

/** Playwright processes the machine's memory holds: a lane's runner or worker, every run of the lane loaded, half a gigabyte at most. */
export const processesMemoryHolds = (): number => Math.max(2, Math.floor(totalmem() / 2 ** 29));

/** Lanes of one worker the machine's memory holds: a runner and its worker each. */
export const lanesMemoryHolds = (): number => Math.floor(processesMemoryHolds() / 2);

type RunsOptions = { only: OptionSpec & { type: 'string' }; concurrency: OptionSpec & { type: 'string' } };

/** The options of the scripts that run the suite many times (mutation, profiles); each gives its own default concurrency. */
export const RUNS_OPTIONS = {
  only: { type: 'string', value: 'NAME[,NAME...]', description: 'run only these (comma-separated)', default: 'all' },
  concurrency: { type: 'string', value: 'N', description: 'suite runs side by side: lanes, one Playwright worker each' },
} as const satisfies RunsOptions;

/** `--only NAME[,NAME...] --concurrency N`, with --help; a bad argument is one line and exit 2. */
export function parseRunsArgs(spec: CommandSpec<RunsOptions>, argv: readonly string[], concurrency: number): { only?: string[]; concurrency: number } {
  const { values } = commandLineOrExit(spec, argv);
  if (values.concurrency !== undefined && !/^[1-9]\d*$/.test(values.concurrency))
    exitWithUsage(spec, `--concurrency must be a whole number of runs (1 or more), got "${values.concurrency}"`);
  if (values.only !== undefined && !values.only.split(',').every(Boolean)) exitWithUsage(spec, `--only takes names separated by commas, got "${values.only}"`);
  return {
    ...(values.only !== undefined ? { only: values.only.split(',') } : {}),
    concurrency: values.concurrency === undefined ? concurrency : Number(values.concurrency),
  };
}
