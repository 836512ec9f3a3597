// `npm run crosscheck`: the whole contract suite through Stoplight Prism's validation proxy, so a third-party
// OpenAPI validator sees every request the suite sends and every response the simulator returns.
//
// Prism runs without --errors: with it, Prism answers a request that violates the document with its own 422, so
// the suite's deliberate malformed-input tests would never reach the target. Violations are read from its log
// instead; a malformed request the target rejected with a 4xx is the negative test working, anything else counts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLineOrExit, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { loadDocument } from '../openapi/document.ts';
import { parsePrismLog } from '../power/prism-log.ts';
import { startPrism } from './prism.ts';
import { runSuite, scriptRun, startRunSimulator } from './suite-run.ts';

commandLineOrExit({
  script: 'crosscheck',
  usage: [''],
  summary:
    "The contract project of the suite (not the probes) against a simulator it starts, through Stoplight Prism's\n" +
    'validating proxy (prism proxy): a third-party OpenAPI validator sees every request and answer. A malformed\n' +
    'request counts only when the target did not refuse it with a 4xx. Writes reports/crosscheck.json and\n' +
    'reports/crosscheck/ (prism.log, the suite run).',
  options: {},
  environment: [REPORTS_DIR_ENV],
  exit: '0 no violation and the suite green; 1 a violation, a failed test or a run error; 2 bad input.',
  examples: ['npm run crosscheck'],
});
const dir = join(REPORTS_DIR, 'crosscheck');
mkdirSync(dir, { recursive: true });

const started = Date.now();
const { sim, callbackPort } = await startRunSimulator();
let prism: Awaited<ReturnType<typeof startPrism>> | undefined;

try {
  prism = await startPrism('proxy', loadDocument(), dir, sim.url);
  // One worker: Prism's log blocks then follow one request at a time. The contract project only: the probes
  // deliberately go past what the document says (size limits, out-of-range pages) to record what the target does.
  const run = await runSuite({
    baseUrl: prism.url,
    callbackPort,
    reportsDir: join(dir, 'suite'),
    workers: 1,
    driftReports: false,
    // Prism parses a JSON body itself and answers one that cannot be parsed with its own 400 (micri's invalid_json):
    // the custom block's malformed-body test never reaches the target through it, so it is left to the direct runs.
    extraArgs: ['--project', 'api', '--grep-invert', 'reject a malformed body'],
  });
  // Its log read to the end: the last requests' lines may still be on their way when the suite finishes.
  const log = await prism.stop();
  prism = undefined;
  writeFileSync(join(dir, 'prism.log'), log);
  const { requests, violations } = parsePrismLog(log);
  const counted = violations.filter((v) => v.counts);
  const meta = scriptRun(`the simulator through Prism (${sim.url})`, started);
  writeFileSync(
    join(REPORTS_DIR, 'crosscheck.json'),
    `${JSON.stringify({ run: meta, requests, suite: { failed: run.failed, passed: run.passed }, violations }, null, 2)}\n`,
  );
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
  await prism?.stop();
  await sim.close();
}
