// Simulator throughput and memory (npm run bench:simulator). Prints figures; it is not a timed test.
// Requests/s on GET /api/v2/conversations?PageCount=40, side by side with a bare node:http server answering a
// precomputed body of the same size (goal: ratio >= 0.7), each server in its own process and autocannon here,
// on 127.0.0.1 only. Then the RSS of a simulator seeded with 100000 dialogs (goal: <= 200 MB).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { commandLineOrExit } from '../config/command-line.ts';
import { benchFigures } from './record.ts';

const figure = benchFigures('simulator');

commandLineOrExit({
  script: 'bench:simulator',
  usage: [''],
  summary:
    "Prints the simulator's requests per second on GET /api/v2/conversations?PageCount=40 next to a bare node:http server\n" +
    'answering a body of the same size (goal: ratio >= 0.7), each in its own process, on 127.0.0.1 (free ports), then\n' +
    'the memory of a simulator seeded with 100000 dialogs (goal: <= 200 MB).',
  options: {},
  environment: [['BENCH_SECONDS', 'seconds of load per round (default: 5)']],
  exit: '0 figures printed; 1 a server failed; 2 bad input.',
  examples: ['BENCH_SECONDS=10 npm run bench:simulator'],
});

interface AutocannonResult {
  requests: { average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 2;
const CONNECTIONS = 10;
const PATH = '/api/v2/conversations?PageCount=40';
const AUTH = `Basic ${Buffer.from(`${DEFAULT_CONFIG.auth.login}:${DEFAULT_CONFIG.auth.password}`).toString('base64')}`;
const MAIN = new URL('../simulator/main.ts', import.meta.url).pathname;

// The bare server: the same body and content type, nothing else.
const BARE = `
const body = require('node:fs').readFileSync(process.argv[1]);
const server = require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('bare listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => process.exit(0));
`;

/** Spawns a server process and resolves with its URL once it prints its ready line. */
async function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const started = Date.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
    if (m) {
      if (Date.now() - started > 60_000) console.warn('server took over a minute to start');
      return { child, url: m[1]! };
    }
  }
  throw new Error(`server exited before it was ready: ${out}`);
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function requestsPerSecond(url: string, duration: number): Promise<number> {
  const result = await autocannon({ url: `${url}${PATH}`, connections: CONNECTIONS, duration, headers: { authorization: AUTH } });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

async function main(): Promise<void> {
  const sim = await serve(['--import', 'tsx', MAIN, '--port', '0']);
  const sample = Buffer.from(await (await fetch(`${sim.url}${PATH}`, { headers: { authorization: AUTH } })).arrayBuffer());
  const file = join(mkdtempSync(join(tmpdir(), 'bench-sim-')), 'body.json');
  writeFileSync(file, sample);
  const bare = await serve(['-e', BARE, file]);
  try {
    // Warm both (JIT, caches), then alternate rounds so a busy machine slows both alike.
    await requestsPerSecond(sim.url, 1);
    await requestsPerSecond(bare.url, 1);
    let simRate = 0;
    let bareRate = 0;
    for (let round = 0; round < ROUNDS; round++) {
      simRate += (await requestsPerSecond(sim.url, SECONDS)) / ROUNDS;
      bareRate += (await requestsPerSecond(bare.url, SECONDS)) / ROUNDS;
    }
    await Promise.all([stop(sim.child), stop(bare.child)]);

    const started = Date.now();
    const big = await serve(['--import', 'tsx', MAIN, '--port', '0', '--dialogs', '100000']);
    const startSeconds = (Date.now() - started) / 1000;
    for (const path of [PATH, '/api/v1/conversations?PageCount=40&PageNumber=1000', '/api/v2/conversations?BotID=202']) {
      await (await fetch(`${big.url}${path}`, { headers: { authorization: AUTH } })).arrayBuffer();
    }
    const rss = rssMegabytes(big.child.pid!);
    await stop(big.child);

    figure(
      `simulator ${Math.round(simRate)} req/s, bare ${Math.round(bareRate)} req/s, ratio ${(simRate / bareRate).toFixed(2)} (goal >= 0.70); ` +
        `body ${sample.length} bytes, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s each`,
    );
    figure(`rss with 100000 dialogs: ${Math.round(rss)} MB (goal <= 200 MB); ready in ${startSeconds.toFixed(1)} s`);
  } finally {
    for (const child of [sim.child, bare.child]) if (child.exitCode === null) child.kill('SIGTERM');
  }
}

main().catch((err: Error) => {
  console.error(`bench:simulator: ${err.message}`);
  process.exit(1);
});
