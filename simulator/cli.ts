// The command line, as a function (main.ts runs it): flags -> a started simulator, or a UsageError (exit 2).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError } from './config.ts';
import { DRIFTS, UnknownDriftError } from './drifts/index.ts';
import { listProfiles, loadProfile, UnknownProfileError } from './profiles.ts';
import { startSimulator, type RunningSimulator } from './server.ts';

/** Bad input on the command line: one line saying what is wrong and how to fix it (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
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
    print(JSON.stringify(DRIFTS.map(({ name, kind, clause, description, breaks, reports }) => ({ name, kind, clause, description, breaks, reports })), null, 2));
    return;
  }
  const width = Math.max(...DRIFTS.map((d) => d.name.length));
  for (const d of DRIFTS) print(`${d.name.padEnd(width)}  ${d.kind.padEnd(12)}  ${d.clause}  ${d.description}`);
}

function printProfiles(json: boolean, print: (line: string) => void): void {
  const profiles = listProfiles().map((name) => loadProfile(name));
  if (json) {
    print(JSON.stringify(profiles.map(({ name, description }) => ({ name, description })), null, 2));
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
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        dialogs: { type: 'string' },
        profile: { type: 'string' },
        'list-profiles': { type: 'boolean' },
        config: { type: 'string' },
        'callback-url': { type: 'string' },
        drift: { type: 'string', multiple: true },
        live: { type: 'string' },
        'list-drifts': { type: 'boolean' },
        json: { type: 'boolean' },
      },
    });
  } catch (err) {
    // Some of node's messages span lines ("--live -1": use --live=-1); a UsageError is one line.
    throw new UsageError(`${(err as Error).message.replace(/\s*\n\s*/g, ' ')}; see simulator/main.ts for the flags`);
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
  const port = integer('port', v.port ?? env.SIMULATOR_PORT, 4010, 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const callbackUrl = v['callback-url'];
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
  print(`simulator listening on ${sim.url} (profile ${profile}, seed ${seed}, ${dialogs} dialogs, drifts: ${drifts.length ? drifts.join(', ') : 'none'}${perSecond === undefined ? '' : `, live ${perSecond}/s`})`);
  return sim;
}
