// `npm run bench:staging`: the main command against a staging a network away, as issue 33's vendor met it: the
// simulator behind its own staging network (simulator/staging-network.ts) with 80–140 ms of latency per round trip and
// a limit of 20 requests per second per credential (its limits.rate). The floor of such a run is its requests over
// the limit; the figure is the wall time against it (goal: ≤ 1.3). Two runs in one reports folder: the first knows no
// limit (a new user's), the second the one the first met (the last run against the same target). Figures only.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { commandLineOrExit } from '../config/command-line.ts';
import { startStagingNetwork } from '../simulator/staging-network.ts';
import { simulatorTargetEnv, startRunSimulator } from '../scripts/suite-run.ts';

const LATENCY_MS: [number, number] = [80, 140];
const LIMIT = 20;
// A second's worth of requests at once, as gateways commonly allow beside the rate.
const BURST = 20;

commandLineOrExit({
  script: 'bench:staging',
  usage: [''],
  summary:
    `Prints the wall time of the main command against the simulator behind a staging network with ${LATENCY_MS.join('–')} ms of\n` +
    `latency and a ${LIMIT}/s rate limit per credential (burst ${BURST}), its requests (throttled ones apart) and the ratio of\n` +
    `the wall time to requests / limit (goal: ≤ 1.3): once knowing no limit, once knowing the one that run met.\n` +
    'Figures only: it fails only when a run does not pass.',
  options: {},
  environment: [],
  exit: '0 figures printed; 1 a run did not pass; 2 bad input.',
  examples: ['npm run bench:staging'],
});

const MAIN = fileURLToPath(new URL('../scripts/contract.ts', import.meta.url));

interface Har {
  log: { entries: Array<{ _throttled?: true }> };
}

/** The main command against `env`'s target, reporting into `reportsDir`: its exit code and seconds. */
function runMain(env: NodeJS.ProcessEnv, reportsDir: string): Promise<{ code: number | null; seconds: number; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...env, REPORTS_DIR: reportsDir }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, seconds: (performance.now() - started) / 1000, stderr })));
}

const { sim, callbackPort } = await startRunSimulator({ config: { limits: { rate: { perSecond: LIMIT, burst: BURST } } } });
const net = await startStagingNetwork({ target: sim.url, latencyMs: LATENCY_MS });
const reportsDir = mkdtempSync(join(tmpdir(), 'bench-staging-'));
let failed = false;
try {
  for (const knows of ['no limit known', 'the limit of the run before']) {
    const run = await runMain(simulatorTargetEnv(net.url, callbackPort, sim.config), reportsDir);
    const harFile = join(reportsDir, 'exchanges.har');
    const entries = existsSync(harFile) ? (JSON.parse(readFileSync(harFile, 'utf8')) as Har).log.entries : [];
    const throttled = entries.filter((e) => e._throttled).length;
    const requests = entries.length;
    const ratio = run.seconds / (requests / LIMIT);
    console.log(
      `staging (${LATENCY_MS.join('–')} ms, ${LIMIT}/s), ${knows}: main command ${run.seconds.toFixed(1)} s, ${requests} requests ` +
        `(${throttled} throttled), floor ${(requests / LIMIT).toFixed(1)} s, ratio ${ratio.toFixed(2)} (goal ≤ 1.3); exit ${run.code}`,
    );
    if (run.code !== 0) {
      failed = true;
      console.error(run.stderr.trim().split('\n').slice(-5).join('\n'));
    }
  }
} finally {
  await net.close();
  await sim.close();
}
process.exit(failed ? 1 : 0);
