// `npm run crosscheck`: the whole contract suite through Stoplight Prism's validation proxy, so a third-party
// OpenAPI validator sees every request the suite sends and every response the simulator returns.
//
// Prism runs without --errors: with it, Prism answers a request that violates the document with its own 422, so
// the suite's deliberate malformed-input tests would never reach the target. Violations are read from its log
// instead; a malformed request the target rejected with a 4xx is the negative test working, anything else counts.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { REPORTS_DIR } from '../contract/env.ts';
import { loadDocument } from '../openapi/document.ts';
import { parsePrismLog } from '../lib/prism-log.ts';
import { startSimulator } from '../simulator/server.ts';
import { freePort, runSuite, scriptRun } from './suite-run.ts';

const require = createRequire(import.meta.url);
const PRISM = join(require.resolve('@stoplight/prism-cli/package.json'), '..', 'dist', 'index.js');
const dir = join(REPORTS_DIR, 'crosscheck');
mkdirSync(dir, { recursive: true });

// Prism matches paths literally and ignores the server's base path: give it the same document under /api.
const doc = loadDocument();
const prefixed = { ...doc, paths: Object.fromEntries(Object.entries(doc.paths ?? {}).map(([p, item]) => [`/api${p}`, item])) };
const docFile = join(dir, 'openapi-under-api.yaml');
writeFileSync(docFile, stringify(prefixed));

const started = Date.now();
const callbackPort = await freePort();
const prismPort = await freePort();
const sim = await startSimulator({ port: 0, callbackUrl: `http://127.0.0.1:${callbackPort}/callback`, log: () => {} });
const prism = spawn(process.execPath, [PRISM, 'proxy', docFile, sim.url, '-p', String(prismPort), '-h', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
prism.stdout.on('data', (c: Buffer) => (log += c.toString()));
prism.stderr.on('data', (c: Buffer) => (log += c.toString()));

try {
  const deadline = Date.now() + 60_000;
  while (!/Prism is listening/.test(log)) {
    if (prism.exitCode !== null || Date.now() > deadline) throw new Error(`Prism did not start: ${log.trim().split('\n').slice(-3).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // One worker: Prism's log blocks then follow one request at a time. The contract project only: the probes
  // deliberately go past what the document says (size limits, out-of-range pages) to record what the target does.
  const run = await runSuite({ baseUrl: `http://127.0.0.1:${prismPort}`, callbackPort, reportsDir: join(dir, 'suite'), workers: 1, extraArgs: ['--project', 'api'] });
  writeFileSync(join(dir, 'prism.log'), log);
  const { requests, violations } = parsePrismLog(log);
  const counted = violations.filter((v) => v.counts);
  const meta = scriptRun(`the simulator through Prism (${sim.url})`, started);
  writeFileSync(join(REPORTS_DIR, 'crosscheck.json'), `${JSON.stringify({ run: meta, requests, suite: { failed: run.failed, passed: run.passed }, violations }, null, 2)}\n`);
  for (const v of counted) console.log(`  ${v.level} ${v.direction}: ${v.method} ${v.path} (upstream ${v.upstreamStatus ?? '?'}): ${v.message}`);
  console.log(
    `crosscheck: ${requests} requests through Prism, ${counted.length} violations (${violations.length - counted.length} expected request violations of malformed-input tests); ` +
      `suite ${run.failed.length} failed, ${run.passed} passed in ${run.seconds.toFixed(0)} s; reports/crosscheck.json`,
  );
  for (const failed of run.failed) console.log(`  failed through Prism: ${failed}`);
  if (run.error) console.error(`crosscheck: ${run.error}`);
  process.exitCode = counted.length === 0 && run.failed.length === 0 && !run.error && requests > 0 ? 0 : 1;
} catch (err) {
  console.error(`crosscheck: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  prism.kill('SIGTERM');
  await sim.close();
}
