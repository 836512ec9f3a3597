// npm run load -- <script> [--split N] [k6 args]: builds the bundles, starts the simulator with hidden limits when
// API_BASE_URL names no target (against a target, checks it first with the preflight read every script's setup()
// makes too), runs k6 on the bundle and stops the simulator; the bundle writes its findings under the run they come
// from (the contract run merges them when they are about its target and recent). Against a target, k6 gets the
// user's environment (.env included) unchanged. --split N runs N k6 processes with the execution segments k6-operator
// gives a TestRun of `parallelism: N`, side by side, and merges their reports (discovery/merge-reports.ts).
// Exits with k6's status (the first failing runner's), 2 on a bad invocation or setting, 3 when the target cannot be
// judged (unreachable, credentials rejected, not this API).
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helpPointer, helpText } from '../config/command-line.ts';
import { ConfigError, parseLoadConfig, secretsOf } from '../config/suite-config.ts';
import { MAX_RUNNERS, operatorSegmentArgs, segmentOf } from '../discovery/execution-segment.ts';
import { reportName, type LoadReport } from '../discovery/load-summary.ts';
import { mergedText } from '../discovery/merge-reports.ts';
import { requestUrl } from '../http/request.ts';
import { fetchFailure, PREFLIGHT_REQUEST, preflight as runPreflight } from '../http/target-preflight.ts';
import { redactText } from '../http/redact.ts';
import { startSimulator } from '../simulator/server.ts';
import { suiteEnvFor, withSimulatorDefaults } from '../simulator/suite-env.ts';
import { loadDotenvFile } from '../config/dotenv-file.ts';
import { freePort } from '../config/free-port.ts';
import { buildBundles, SCRIPTS, type ScriptName } from './build.ts';
import { nodeClient } from './node-client.ts';
import { operationsTable } from './openapi-data.ts';
import { writeMergedReport } from './merge.ts';
import { listenForToken } from './vertex-token.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const INSTALL_K6 =
  'k6 is not installed: see https://grafana.com/docs/k6/latest/set-up/install-k6/ (e.g. apt/brew/winget or the grafana/k6 docker image), then re-run npm run load';

/** The limits the runner's simulator hides; the scripts are told nothing and must find them. */
export const HIDDEN_LIMITS = {
  maxPageCount: { value: 500 },
  maxTextLength: { value: 4096 },
  maxVariablesBytes: { value: 8192 },
  rate: { perSecond: 40, burst: 10 },
};

function onPath(command: string, path = process.env.PATH ?? ''): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

interface LocalTarget {
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The simulator (SIMULATOR_PROFILE, default "default") on a free port with the hidden limits, and a custom-block
 * token for the vertex requests. Its environment names everything the k6 config requires, as a user's .env names
 * a real target: the simulator's address, credentials and bots (simulator/suite-env.ts).
 */
async function startLocalTarget(env: NodeJS.ProcessEnv): Promise<LocalTarget> {
  const listener = await listenForToken();
  const profile = env.SIMULATOR_PROFILE?.trim() || 'default';
  const simulator = await startSimulator({ port: 0, profile, callbackUrl: listener.url, config: { limits: HIDDEN_LIMITS } });
  const identity = suiteEnvFor(simulator.config);
  const out: Record<string, string> = { ...identity, API_BASE_URL: simulator.url };
  try {
    if (!env.VERTEX_TOKEN) {
      const create = { operationId: 'postV2DialogCreate' as const, pathParams: { BotID: identity.CUSTOM_BLOCK_BOT_ID! }, json: { response: true } };
      await nodeClient(simulator.url, identity.API_LOGIN!, identity.API_PASSWORD!)(create);
      out.VERTEX_TOKEN = await listener.token();
    }
  } catch (error) {
    console.error(`no custom-block token (${(error as Error).message}): the vertex requests will be skipped`);
  }
  console.error(`simulator (profile ${profile}) with hidden limits at ${simulator.url}`);
  return {
    env: out,
    close: async () => {
      await simulator.close();
      await listener.close();
    },
  };
}

/** The command line: the script, --split N, and anything else for `k6 run`; --help prints this table. */
export const COMMAND = {
  script: 'load',
  usage: ['SCRIPT [--split N] [k6 arguments]'],
  summary:
    'Runs a k6 load script against API_BASE_URL, or, when it is empty, against the embedded simulator with limits the\n' +
    'scripts are not told. Reports go to reports/load/ (SCRIPT.json, .txt, .html: the ladder and the searches drawn,\n' +
    'and .fingerprint.json); the next contract run takes in the findings about its own target. Against a target it\n' +
    'first checks it with one read and stops with one line when it cannot be judged. load/README.md has every\n' +
    'variable of the scripts.',
  positionals: [
    ['SCRIPT', 'list | send | rate-limit | size-limits'],
    ['k6 arguments', 'anything after SCRIPT and --split goes to `k6 run` unchanged, e.g. --quiet'],
  ],
  options: {
    split: {
      type: 'string',
      value: 'N',
      description:
        "run N k6 processes (1 to 8) with the execution segments k6-operator gives the runners of a TestRun with parallelism N, side by side, and merge their reports (each runner's stays in reports/load/split/SCRIPT/)",
    },
  },
  environment: [
    ['API_BASE_URL, API_LOGIN, API_PASSWORD', 'the target and its credentials; no API_BASE_URL: the embedded simulator'],
    ['BOT_ID', 'the bot send, rate-limit and size-limits create dialogs on'],
    ['SEND_BODY, VERTEX_TOKEN', "the send body template; a running custom block's token"],
    ['LOAD_ALLOW_HOSTS, LOAD_I_KNOW, LOAD_MAX_*', 'where traffic may go and how much'],
    ['LIST_*, SEND_*, LADDER_*, SIZE_*', "each script's knobs (load/README.md)"],
    ['LOAD_REPORTS_DIR', 'where the reports go (default: reports/load)'],
    ['SIMULATOR_PROFILE', "the embedded simulator's vendor profile (no API_BASE_URL)"],
  ],
  exit: "k6's (the first failing runner's with --split); 2 a bad argument or setting, or no k6 on PATH; 3 the target cannot be judged (unreachable, TLS, credentials rejected, not this API, unhealthy).",
  examples: ['npm run load -- list --quiet', 'npm run load -- rate-limit --split 2'],
} as const;

/** Exit status of a run that could not judge the target, as the contract suite's "no verdict". */
export const NO_VERDICT = 3;

function startK6(
  bundle: string,
  k6Args: string[],
  env: NodeJS.ProcessEnv,
  stdio: 'inherit' | 'pipe' = 'inherit',
): { exited: Promise<number>; kill: () => void } {
  const child = spawn('k6', ['run', ...k6Args, bundle], { cwd: PROJECT_ROOT, env, stdio: ['ignore', stdio, 'inherit'] });
  // A split run's runners print their reports as JSON lines; only the merged one is the user's to read.
  child.stdout?.resume();
  // Ctrl-C reaches k6 too (same process group): k6 stops gracefully and still writes its summary; wait for it.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
  return { exited, kill: () => child.kill('SIGTERM') };
}

const runK6 = (bundle: string, k6Args: string[], env: NodeJS.ProcessEnv): Promise<number> => startK6(bundle, k6Args, env).exited;

/**
 * The preflight read of every script's setup(), made before k6 starts: against a target that cannot be judged, one
 * line and NO_VERDICT instead of k6's output. Waits out 429/503 as THROTTLE_* allow.
 */
async function preflight(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const config = parseLoadConfig(env);
  const send = nodeClient(config.baseUrl, config.login, config.password);
  const url = requestUrl(config.baseUrl, operationsTable()[PREFLIGHT_REQUEST.operationId]!, PREFLIGHT_REQUEST);
  const read = async () => {
    try {
      const response = await send(PREFLIGHT_REQUEST, AbortSignal.timeout(15_000));
      return { status: response.status, contentType: response.headers['content-type'], body: response.body, headers: response.headers };
    } catch (err) {
      return { status: 0, body: '', error: fetchFailure(err), headers: {} };
    }
  };
  const wait = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));
  const verdict = await runPreflight(read, url, config.throttle, wait);
  return verdict.ok ? undefined : redactText(verdict.reason, secretsOf(config));
}

/** Time for every runner's k6 to start and run setup() on 2 cores before the rungs begin together. */
const SPLIT_START_MS = 6000;
/** How long the runners get to start k6 and initialise (a busy machine compiles the bundle slowly) before the run gives up. */
const SPLIT_READY_MS = 300_000;
/** k6's execution status of a run started with --paused once its init is done: it waits to be resumed. */
const PAUSED_BEFORE_RUN = 4;

const statusUrl = (port: number) => `http://127.0.0.1:${port}/v1/status`;

/** Whether the runner whose REST API is on `port` is initialised and paused by `deadline` (false once it has exited). */
async function pausedBeforeRun(port: number, exited: Promise<number>, deadline: number): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  while (!gone && Date.now() < deadline) {
    try {
      const res = await fetch(statusUrl(port), { signal: AbortSignal.timeout(2000) });
      const status = ((await res.json()) as { data?: { attributes?: { status?: number } } }).data?.attributes?.status;
      if (status === PAUSED_BEFORE_RUN) return true;
    } catch {
      // its REST API is not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Resumes a paused runner, as k6-operator's starter does. */
async function resume(port: number): Promise<void> {
  const body = JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } });
  await fetch(statusUrl(port), { method: 'PATCH', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5000) });
}

/** N runners side by side, as k6-operator splits a TestRun; their reports merged into the script's own. */
async function runSplit(script: ScriptName, bundle: string, runners: number, k6Args: string[], env: NodeJS.ProcessEnv, reportsDir: string): Promise<number> {
  // One directory for the runners, as a volume the pods share: each names its files by its segment.
  const dir = join(reportsDir, 'split', script);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // As k6-operator starts a TestRun: every runner paused once initialised, then all resumed together, so that one
  // slow to compile its bundle does not begin alone. The ladder's rungs then start together on every runner
  // (load/scripts/rate-limit.ts) after setup(), at LOAD_START_AT, or at once when starting took longer than that.
  const ports = await Promise.all(Array.from({ length: runners }, () => freePort()));
  const startAt = String(Date.now() + SPLIT_START_MS);
  const started = ports.map((port, i) =>
    startK6(
      bundle,
      [...operatorSegmentArgs(i + 1, runners), '--paused', '--address', `127.0.0.1:${port}`, ...k6Args],
      {
        ...env,
        LOAD_REPORTS_DIR: dir,
        LOAD_START_AT: startAt,
      },
      'pipe',
    ),
  );
  const deadline = Date.now() + SPLIT_READY_MS;
  const ready = await Promise.all(ports.map((port, i) => pausedBeforeRun(port, started[i]!.exited, deadline)));
  if (ready.every(Boolean)) await Promise.all(ports.map(resume));
  else {
    console.error(
      `load: ${ready.filter((r) => !r).length} of ${runners} runners did not start within ${SPLIT_READY_MS / 1000} s (see their output above); stopping all`,
    );
    for (const runner of started) runner.kill();
  }
  const codes = await Promise.all(started.map((runner) => runner.exited));
  const reports = Array.from({ length: runners }, (_, i) =>
    join(dir, `${reportName(script, segmentOf({ executionSegment: operatorSegmentArgs(i + 1, runners)[0]!.split('=')[1] }))}.json`),
  )
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as LoadReport);
  if (reports.length > 0) process.stdout.write(mergedText(writeMergedReport(reports, reportsDir)));
  if (reports.length < runners) console.error(`load: ${runners - reports.length} of ${runners} runners wrote no report (see their output above)`);
  return codes.find((code) => code !== 0) ?? (reports.length < runners ? 1 : 0);
}

/** The options `k6 run` takes, long and short, as the k6 on PATH lists them in its help (any version's). */
function k6RunOptions(): Set<string> {
  const help = spawnSync('k6', ['run', '--help'], { encoding: 'utf8' });
  const names = new Set<string>();
  for (const m of `${help.stdout}\n${help.stderr}`.matchAll(/^\s+(?:-(\w), )?--([\w-]+)/gm)) {
    if (m[1]) names.add(`-${m[1]}`);
    names.add(`--${m[2]}`);
  }
  return names;
}

/**
 * The first argument for k6 that names an option `k6 run` does not have, with a hint when it looks like ours; none
 * when every option is k6's. A caller's typo is one line and exit 2 here, not k6's own exit 255.
 */
export function unknownK6Option(k6Args: readonly string[], known: ReadonlySet<string>): string | undefined {
  for (const arg of k6Args) {
    if (!arg.startsWith('-') || arg === '-' || arg === '--') continue;
    const name = arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2);
    if (known.has(name)) continue;
    const ours = name === '--split' || (name.startsWith('--sp') && name.length <= 8) ? ' (--split N goes right after the script name)' : '';
    return `unknown option ${name}: neither this command nor k6 run has it${ours}`;
  }
  return undefined;
}

/** `--split N` right after the script name, and whatever follows for k6. */
function parseArgs(argv: string[]): { script: string | undefined; split: number | undefined; k6Args: string[] } {
  const [script, ...rest] = argv;
  if (rest[0] !== '--split') return { script, split: undefined, k6Args: rest };
  const split = Number(rest[1]);
  if (!Number.isInteger(split) || split < 1 || split > MAX_RUNNERS)
    throw new ConfigError(`--split ${rest[1] ?? ''} is not valid: give a number of runners from 1 to ${MAX_RUNNERS}`);
  return { script, split, k6Args: rest.slice(2) };
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write(helpText(COMMAND));
    return 0;
  }
  if (!onPath('k6')) {
    console.error(INSTALL_K6);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    console.error(`load: ${(err as Error).message}`);
    return 2;
  }
  const { script, split, k6Args } = parsed;
  if (!SCRIPTS.includes(script as ScriptName)) {
    console.error(`load: unknown load script "${script ?? ''}": use one of ${SCRIPTS.join(', ')}; ${helpPointer(COMMAND)}`);
    return 2;
  }
  // k6's help is read only when there is an option to judge; a k6 whose help lists none is left to judge its own.
  const options = k6Args.some((arg) => arg.startsWith('-')) ? k6RunOptions() : undefined;
  const unknown = options && options.size > 0 ? unknownK6Option(k6Args, options) : undefined;
  if (unknown) {
    console.error(`load: ${unknown}; ${helpPointer(COMMAND)}`);
    return 2;
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  try {
    // .env as the suite reads it (a line dotenv would skip is an error), and a profile only without a target.
    loadDotenvFile(join(PROJECT_ROOT, '.env'), env);
    withSimulatorDefaults(env);
    const problem = env.API_BASE_URL?.trim() ? await preflight(env) : undefined;
    if (problem) {
      console.error(`load: no verdict: ${problem}`);
      return NO_VERDICT;
    }
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`load: ${err.message}`);
    return 2;
  }
  const bundles = await buildBundles();
  const local = env.API_BASE_URL?.trim() ? undefined : await startLocalTarget(env);
  Object.assign(env, local?.env);
  // k6 writes handleSummary files but creates no directory. LOAD_REPORTS_DIR is relative to the project root here.
  const reportsDir = resolve(PROJECT_ROOT, env.LOAD_REPORTS_DIR?.trim() || join('reports', 'load'));
  mkdirSync(reportsDir, { recursive: true });
  env.LOAD_REPORTS_DIR = reportsDir;
  const bundle = bundles[script as ScriptName].file;
  try {
    return split === undefined ? await runK6(bundle, k6Args, env) : await runSplit(script as ScriptName, bundle, split, k6Args, env, reportsDir);
  } finally {
    await local?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
