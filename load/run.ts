// npm run load -- <script> [k6 args]: builds the bundles, starts the simulator with hidden limits when API_BASE_URL
// names no target, runs k6 on the bundle, stops the simulator, and stamps the script's fingerprint items with the
// run they come from (the contract run merges them when they are about its target and recent). Against a target,
// k6 gets the user's environment (.env included) unchanged.
// Exits with k6's status (2 when k6 is missing or the script is unknown).
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { config as loadDotenv } from 'dotenv';
import { fingerprintJson, readFingerprintFile } from '../lib/fingerprint.ts';
import { runMeta } from '../report/run-meta.ts';
import { suiteVersion } from '../config/suite-version.ts';
import { startSimulator } from '../simulator/server.ts';
import { suiteEnvFor } from '../simulator/suite-env.ts';
import { buildBundles, SCRIPTS, type ScriptName } from './build.ts';
import { nodeClient } from './node-client.ts';
import { listenForToken } from './vertex-token.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORTS_DIR = join(PROJECT_ROOT, 'reports', 'load');

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

function runK6(bundle: string, k6Args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('k6', ['run', ...k6Args, bundle], { cwd: PROJECT_ROOT, env, stdio: 'inherit' });
    // Ctrl-C reaches k6 too (same process group): k6 stops gracefully and still writes its summary; wait for it.
    const ignore = () => {};
    process.on('SIGINT', ignore);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/**
 * Stamps the findings k6 just wrote for `script` (reports/load/SCRIPT.fingerprint.json) with the run they come from:
 * the target and the time. The contract run merges them only when they are about its target and recent.
 */
function stampFindings(script: string, baseUrl: string, startedAt: number, dir = REPORTS_DIR): void {
  const file = join(dir, `${script}.fingerprint.json`);
  if (!existsSync(file) || statSync(file).mtimeMs < startedAt) return;
  const found = readFingerprintFile(JSON.parse(readFileSync(file, 'utf8')));
  if (!found) return;
  const started = new Date(startedAt).toISOString();
  writeFileSync(file, fingerprintJson(found.items, runMeta(`k6 ${script} ${started}`, startedAt, baseUrl, suiteVersion(), null)));
}

export async function main(argv: string[]): Promise<number> {
  if (!onPath('k6')) {
    console.error(INSTALL_K6);
    return 2;
  }
  const [script, ...k6Args] = argv;
  if (!SCRIPTS.includes(script as ScriptName)) {
    console.error(`unknown load script "${script ?? ''}": use one of ${SCRIPTS.join(', ')}`);
    return 2;
  }
  loadDotenv({ path: join(PROJECT_ROOT, '.env'), quiet: true });
  const bundles = await buildBundles();
  const env: NodeJS.ProcessEnv = { ...process.env };
  const local = env.API_BASE_URL?.trim() ? undefined : await startLocalTarget(env);
  Object.assign(env, local?.env);
  mkdirSync(REPORTS_DIR, { recursive: true }); // k6 writes handleSummary files but creates no directory
  const startedAt = Date.now();
  try {
    return await runK6(bundles[script as ScriptName].file, k6Args, env);
  } finally {
    await local?.close();
    stampFindings(script!, env.API_BASE_URL!, startedAt);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
