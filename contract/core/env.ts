// The suite's configuration as the Playwright processes read it: .env loaded (its lines checked; dotenv prints
// nothing into reports), then the one parser of config/suite-config.ts with the suite's environment, the one `npm run
// contract -- --help` lists. Launchers (playwright.config.ts, scripts/) put the embedded simulator's values into the
// environment before anything reads it.
import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';
import { REPORTS_DIR_ENV } from '../../config/command-line.ts';
import { loadDotenvFile } from '../../config/dotenv-file.ts';
import type { EnvironmentRows } from '../../config/environment.ts';
import { ConfigError, parseSuiteConfig, type CommandConfig, type SuiteConfig } from '../../config/suite-config.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The reports folder of the run this process works for. Fixed for a process of one run; a process of several runs
 * (RUNS_ENV) points it at each run in turn (enterRun), so every reader sees the run it works for.
 */
export let REPORTS_DIR = process.env.REPORTS_DIR ?? fileURLToPath(new URL('../../reports', import.meta.url));

/**
 * Set by the main command for the Playwright it runs: the user's reports folder, while the run writes into a folder of
 * its own there (REPORTS_DIR) that replaces the last run's reports only at the run's end (contract/run/run-files.ts).
 */
export const REPORTS_HOME_ENV = 'DIALOG_CONTRACT_REPORTS_HOME';

/**
 * Where what outlives a run lives: the rate limit remembered for the next run, the k6 findings a run merges. The
 * user's reports folder, also while a run writes into its own.
 */
export const reportsHome = (reportsDir: string = REPORTS_DIR): string => process.env[REPORTS_HOME_ENV] || reportsDir;

/**
 * Set to 1 by the main command (scripts/contract.ts) when it has started the embedded simulator itself, beside
 * Playwright instead of before it: Playwright's webServer then starts none, and global setup waits until it listens.
 */
export const SIMULATOR_STARTED_ENV = 'DIALOG_CONTRACT_SIMULATOR_STARTED';

/** Loads .env into process.env; values already in the environment win. A line dotenv cannot read is a ConfigError. */
export function loadDotenvOnce(): void {
  loadDotenvFile(fileURLToPath(new URL('../../.env', import.meta.url)));
}

/**
 * What the suite reads from the environment, as `npm run contract -- --help` lists it: of the target's variables it
 * requires those named here (every one: the suite tests the custom block too), so its help cannot leave one out.
 */
export const SUITE_ENVIRONMENT = [
  ['API_BASE_URL', 'the target without /api; unset: the embedded simulator'],
  ['SIMULATOR_PROFILE', "the embedded simulator's vendor profile (npm run simulator -- --list-profiles); only without API_BASE_URL"],
  ['API_LOGIN, API_PASSWORD', 'Basic credentials (unset with the simulator: its own)'],
  ['BOT_ID, GOTO_BOT_ID, CUSTOM_BLOCK_BOT_ID', 'the bots (unset with the simulator: its own)'],
  ['SEND_BODY, COMMAND_BODY', 'JSON templates of the send and command bodies; unset: discovered per run'],
  ['CALLBACK_HOST, CALLBACK_PORT, CALLBACK_PUBLIC_URL', "where the custom block's call is received"],
  ['SIMULATOR_PORT', 'port of the embedded simulator (default: 4010)'],
  ['MAX_RPS, WORKERS', "most requests per second of the whole run (else the target's limit, known or learned), Playwright workers"],
  ['LIST_SETTLE_S', 'seconds a test waits for a write to show in a list (default 10)'],
  ['SEED, GENERATED_CASES', "the generated inputs' seed (unset: drawn, printed first), and cases per operation (20)"],
  ['REQUIRE_SHAPES', '1: a send or command body shape the run cannot establish fails the run instead of skipping'],
  ['KEEP_PERSONAL_DATA', "1: tickets and failures.json quote end users' IP addresses and cities as answered (default: ip-1, city-1)"],
  ['TRANSIENT_RESENDS, OUTAGE_S', 'resends of a read lost to the network (3); seconds of failures that end the run as no verdict (10)'],
  ['CHECKS_MODULE', "a module of the team's own checks (docs/checks.md)"],
  ['CHECKS, EXCLUDE_CHECKS', 'the checks a run makes, or leaves out, by name or family (as --checks, --exclude-checks)'],
  ['NODE_EXTRA_CA_CERTS', "a private CA's certificate (PEM) for a staging with TLS from it"],
  REPORTS_DIR_ENV,
] as const satisfies EnvironmentRows;

/** The suite's configuration: SuiteConfig whole, or the type says which variable SUITE_ENVIRONMENT lacks. */
const parseSuite = (env: NodeJS.ProcessEnv): SuiteConfig => parseSuiteConfig(env, SUITE_ENVIRONMENT);

let cached: SuiteConfig | undefined;

export function loadSuiteConfig(): SuiteConfig {
  if (!cached) {
    loadDotenvOnce();
    cached = parseSuite(process.env);
  }
  return cached;
}

/**
 * Names a JSON file of several whole-suite runs for a Playwright invocation (scripts/suite-run.ts `runSuites`), each
 * against its own target with its own reports folder, judged apart. A project per lane of runs: its one worker
 * process runs them one after the other (contract/fixtures/api-test.ts eachRun), so a run's tests never run side by side and
 * a worker's start is paid per lane, not per run.
 */
export const RUNS_ENV = 'DIALOG_CONTRACT_RUNS';

/** One run of a several-run invocation: its name and the variables a user would set for it alone. */
export interface RunSpec {
  name: string;
  /** The project whose one worker runs it, one after the other with the other runs of its lane. */
  lane: number;
  /** The same names for every run (API_BASE_URL, CALLBACK_PORT, REPORTS_DIR, BASELINE...). */
  env: Record<string, string>;
}

/** The tag of a lane's tests, which its project selects. */
export const laneTag = (lane: number) => `@lane-${lane}`;

let specs: { file: string; runs: RunSpec[] } | undefined;

/** The runs of this invocation, or undefined for a process of one run. */
export function runSpecs(): RunSpec[] | undefined {
  const file = process.env[RUNS_ENV];
  if (!file) return undefined;
  if (specs?.file !== file) specs = { file, runs: JSON.parse(readFileSync(file, 'utf8')) as RunSpec[] };
  return specs.runs;
}

/** Where global setup leaves what it set up for a run (RUN_ID, the vendor clock...) for the run's workers and reporter. */
const setUpEnv = (name: string) => `${RUNS_ENV}_SET_UP_${name.replace(/[^A-Za-z0-9]/g, '_')}`;

/** Records what global setup set for run `name`: the variables a one-run process would have inherited. */
export function recordSetUp(name: string, env: Record<string, string>): void {
  process.env[setUpEnv(name)] = JSON.stringify(env);
}

const configs = new Map<string, SuiteConfig>();

function runNamed(name: string): RunSpec {
  const run = runSpecs()?.find((r) => r.name === name);
  if (!run) throw new Error(`${RUNS_ENV}: no run named ${name}`);
  return run;
}

/** The configuration of run `name` of RUNS_ENV, without entering it. */
export function runConfig(name: string): SuiteConfig {
  const run = runNamed(name);
  let config = configs.get(name);
  if (!config) {
    loadDotenvOnce();
    config = parseSuite({ ...process.env, ...run.env });
    configs.set(name, config);
  }
  return config;
}

/**
 * Makes this process work for run `name` of RUNS_ENV: its variables (and what its setup recorded) in the
 * environment, its reports folder, its configuration. A worker enters the run of each test it runs
 * (contract/fixtures/worker-runs.ts); the runner's reporter enters each run in turn (global setup sets them up side by side,
 * each with its own configuration and folder).
 */
export function enterRun(name: string): void {
  cached = runConfig(name);
  const run = runNamed(name);
  Object.assign(process.env, run.env, JSON.parse(process.env[setUpEnv(name)] ?? '{}') as Record<string, string>);
  REPORTS_DIR = run.env.REPORTS_DIR ?? REPORTS_DIR;
}

/**
 * The configuration a launcher starts from, of the command whose help lists `environment`: .env loaded, then
 * `prepare` (e.g. the embedded simulator's values standing in for unset ones, set ones win). A bad value, or a missing
 * one the environment names, is one line, `name: …`, and exit 2.
 */
export function configOrExit<E extends EnvironmentRows>(name: string, environment: E, prepare: (env: NodeJS.ProcessEnv) => void): CommandConfig<E> {
  try {
    loadDotenvOnce();
    prepare(process.env);
    // The suite's own is the one every process of the run loads again (workers, setup, reporters): parsed once.
    return ((environment as EnvironmentRows) === SUITE_ENVIRONMENT ? loadSuiteConfig() : parseSuiteConfig(process.env, environment)) as CommandConfig<E>;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${name}: ${err.message}`);
    process.exit(2);
  }
}

/**
 * Node's compile cache, on for this process from here and, through NODE_COMPILE_CACHE, for every process it starts
 * after: a Playwright process compiles 10 MB of bundles at its start (a worker's start the most of it), which the
 * cache turns into a read. A cache Node cannot keep (a read-only folder) is no cache, never an error.
 */
export function shareCompileCache(): void {
  const directory = enableCompileCache?.().directory;
  if (directory) process.env.NODE_COMPILE_CACHE ??= directory;
}
