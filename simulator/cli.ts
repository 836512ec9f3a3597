// The command line, as a function (main.ts runs it): flags -> a started simulator, or a UsageError (exit 2).
import { readFileSync } from 'node:fs';
import { CommandLineError, helpText, readCommandLine } from '../config/command-line.ts';
import { ConfigError } from './config.ts';
import { DRIFTS, UnknownDriftError } from './drifts/index.ts';
import { listProfiles, loadProfile, UnknownProfileError } from './profiles.ts';
import { startSimulator, type RunningSimulator } from './server.ts';
import { LISTENING_LINE, suiteEnvFor } from './suite-env.ts';

const COMMAND = {
  script: 'simulator',
  usage: ['[--port N] [--profile NAME] [--callback-port N] [--drift NAME]... [other options below]', '--list-drifts [--json] | --list-profiles [--json]'],
  summary:
    "A stateful stand-in for the vendor's Dialog Bot Service (V1, V2, vertex) that decides every item the spec leaves\n" +
    '"not shown" (simulator/config.ts), with vendor profiles, drift modes and hidden limits. npm run contract starts one\n' +
    'itself when API_BASE_URL is empty; started by hand it prints the settings a suite run against it needs: its\n' +
    "address, its credentials (the profile's auth), its bots and the custom block's URL.",
  options: {
    port: { type: 'string', value: 'N', description: 'port to listen on; 0 picks a free one', env: 'SIMULATOR_PORT', default: '4010' },
    host: { type: 'string', value: 'H', description: 'address to listen on', default: '127.0.0.1' },
    profile: { type: 'string', value: 'NAME', description: 'vendor profile (simulator/profiles/NAME.json; --list-profiles)', default: 'default' },
    seed: { type: 'string', value: 'N', description: 'seed of the generated dialogs and every random choice', default: '1' },
    dialogs: { type: 'string', value: 'N', description: 'dialogs seeded before the start', default: '120' },
    config: { type: 'string', value: 'FILE', description: 'JSON merged over the profile (unknown keys and wrong types refused)' },
    'callback-port': {
      type: 'string',
      value: 'N',
      description: "port of the suite's listener: the custom block calls http://127.0.0.1:N/callback",
      env: 'CALLBACK_PORT',
      default: '4011',
    },
    'callback-url': { type: 'string', value: 'URL', description: "the custom block's URL, whole (a listener elsewhere); wins over --callback-port" },
    drift: { type: 'string', value: 'NAME', multiple: true, description: 'a vendor mistake to make (--list-drifts)' },
    live: { type: 'string', value: 'RATE', description: 'keep changing data: RATE changes per second (e.g. 2 or 0.5)' },
    'list-drifts': { type: 'boolean', description: 'print the drift modes and exit' },
    'list-profiles': { type: 'boolean', description: 'print the vendor profiles and exit' },
    json: { type: 'boolean', description: 'with --list-drifts or --list-profiles: as JSON' },
  },
  environment: [
    ['SIMULATOR_PORT', 'the port when --port is not given'],
    ['CALLBACK_PORT', 'the callback port when --callback-port is not given'],
  ],
  exit: '0 on SIGINT or SIGTERM, or after a list; 2 a bad flag, profile, config or a port in use (one line).',
  notes: ['It reads .env as the suite does, so SIMULATOR_PORT and CALLBACK_PORT there hold for both.'],
  examples: ['npm run simulator -- --profile form-text-acme --callback-port 5011', 'npm run simulator -- --list-profiles'],
} as const;

/** Bad input on the command line: one line saying what is wrong and how to fix it (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What a suite run by hand against this simulator needs in its .env, one line each. */
function suiteSettings(sim: Pick<RunningSimulator, 'url' | 'config'>): string[] {
  const callback = sim.config.bots.find((b) => b.customBlockUrl !== null)?.customBlockUrl;
  const local = callback ? /^http:\/\/(?:127\.0\.0\.1|localhost):(\d+)\//.exec(callback) : null;
  const settings: Record<string, string> = {
    API_BASE_URL: sim.url,
    ...suiteEnvFor(sim.config),
    ...(local ? { CALLBACK_PORT: local[1]! } : {}),
    ...(callback ? { CALLBACK_PUBLIC_URL: callback } : {}),
  };
  return [
    'for a suite against it (.env or the environment; the custom block calls CALLBACK_PUBLIC_URL, where the suite listens):',
    ...Object.entries(settings).map(([name, value]) => `  ${name}=${value}`),
  ];
}

function portNumber(name: string, text: string | undefined, fallback: number, min: number): number {
  const port = integer(name, text, fallback, min);
  if (port > 65535) throw new UsageError(`--${name} must be at most 65535, got ${port}`);
  return port;
}

function integer(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got "${text}"`);
  }
  return value;
}

/** --live RATE: changes per second, a positive decimal number ("2", "0.5"). */
function rate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text) || !(value > 0) || !Number.isFinite(value)) {
    throw new UsageError(`--live must be a positive number of changes per second, like 2 or 0.5, got "${text}"`);
  }
  return value;
}

function readConfig(file: string | undefined): unknown {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--config ${file}: cannot read it (${(err as NodeJS.ErrnoException).code}); give the path of a JSON file`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--config ${file}: not valid JSON (${(err as Error).message}); fix the file`);
  }
}

function listDrifts(json: boolean, print: (line: string) => void): void {
  if (json) {
    print(
      JSON.stringify(
        DRIFTS.map(({ name, kind, clause, description, breaks, reports }) => ({ name, kind, clause, description, breaks, reports })),
        null,
        2,
      ),
    );
    return;
  }
  const width = Math.max(...DRIFTS.map((d) => d.name.length));
  for (const d of DRIFTS) print(`${d.name.padEnd(width)}  ${d.kind.padEnd(12)}  ${d.clause}  ${d.description}`);
}

function printProfiles(json: boolean, print: (line: string) => void): void {
  const profiles = listProfiles().map((name) => loadProfile(name));
  if (json) {
    print(
      JSON.stringify(
        profiles.map(({ name, description }) => ({ name, description })),
        null,
        2,
      ),
    );
    return;
  }
  const width = Math.max(...profiles.map((p) => p.name.length));
  for (const p of profiles) print(`${p.name.padEnd(width)}  ${p.description}`);
}

/**
 * Runs the command line: the started simulator, or undefined when the command only printed (--list-drifts,
 * --list-profiles).
 * Every refusal is a UsageError.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<RunningSimulator | undefined> {
  let parsed: ReturnType<typeof readCommandLine<typeof COMMAND.options>>;
  try {
    parsed = readCommandLine(COMMAND, argv);
  } catch (err) {
    if (err instanceof CommandLineError) throw new UsageError(err.message);
    throw err;
  }
  if (parsed === 'help') {
    print(helpText(COMMAND).trimEnd());
    return undefined;
  }
  const v = parsed.values;
  if (v['list-drifts']) {
    listDrifts(v.json ?? false, print);
    return undefined;
  }
  if (v['list-profiles']) {
    printProfiles(v.json ?? false, print);
    return undefined;
  }
  const port = portNumber('port', v.port ?? env.SIMULATOR_PORT, 4010, 0);
  // The block URL follows the suite's listener: --callback-port, else CALLBACK_PORT; neither: the config's own URL.
  const callbackPortText = v['callback-port'] ?? env.CALLBACK_PORT?.trim();
  const callbackPort = callbackPortText ? portNumber('callback-port', callbackPortText, 4011, 1) : undefined;
  const callbackUrl = v['callback-url'] ?? (callbackPort === undefined ? undefined : `http://127.0.0.1:${callbackPort}/callback`);
  if (callbackUrl !== undefined && !URL.canParse(callbackUrl)) throw new UsageError(`--callback-url must be an absolute URL, got "${callbackUrl}"`);
  const seed = integer('seed', v.seed, 1, 0);
  const dialogs = integer('dialogs', v.dialogs, 120, 0);
  const drifts = v.drift ?? [];
  const perSecond = rate(v.live);
  const profile = v.profile ?? 'default';
  const sim = await startSimulator({
    port,
    host: v.host,
    seed,
    dialogs,
    profile,
    config: readConfig(v.config) as never,
    callbackUrl,
    drifts,
    live: perSecond === undefined ? undefined : { perSecond },
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use; stop what holds it, or pass --port N (--port 0 picks a free one)`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') throw new UsageError(`--host ${v.host}: cannot listen there (${err.code}); use 127.0.0.1`);
    if (err instanceof ConfigError) throw new UsageError(`${v.config === undefined ? `--profile ${profile}` : `--config ${v.config}`}: ${err.message}`);
    if (err instanceof UnknownDriftError || err instanceof UnknownProfileError) throw new UsageError(err.message);
    throw err;
  });
  print(
    `${LISTENING_LINE}${sim.url} (profile ${profile}, seed ${seed}, ${dialogs} dialogs, drifts: ${drifts.length ? drifts.join(', ') : 'none'}${perSecond === undefined ? '' : `, live ${perSecond}/s`})`,
  );
  for (const line of suiteSettings(sim)) print(line);
  return sim;
}
