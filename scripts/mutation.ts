// `npm run mutation`: the whole contract suite against the conforming simulator and against each drift mode alone.
// A breaking drift the suite misses, or any failure without a breaking drift, fails the run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { REPORTS_DIR } from '../contract/env.ts';
import { renderTable, scoreMutations, type DriftInfo, type SuiteRun } from '../lib/mutation-score.ts';
import { startSimulator } from '../simulator/server.ts';
import { freePort, runSuite } from './suite-run.ts';

const MAX_FAILURES = 3;
const usage = 'usage: npm run mutation [-- --only NAME[,NAME...]] [--concurrency N]';

function parseArgs(argv: string[]): { only?: string[]; concurrency: number } {
  const out: { only?: string[]; concurrency: number } = { concurrency: Math.max(2, cpus().length + 1) };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--only' && value) (out.only = value.split(',')), i++;
    else if (flag === '--concurrency' && value && /^[1-9]\d*$/.test(value)) (out.concurrency = Number(value)), i++;
    else {
      console.error(`mutation: unknown or incomplete argument ${flag}; ${usage}`);
      process.exit(2);
    }
  }
  return out;
}

async function runAgainst(drift: string | undefined): Promise<SuiteRun> {
  const callbackPort = await freePort();
  const name = drift ?? 'conforming';
  try {
    // In this process: one simulator per run, each on its own port, without a process start per drift.
    const sim = await startSimulator({ port: 0, callbackUrl: `http://127.0.0.1:${callbackPort}/callback`, drifts: drift ? [drift] : [], log: () => {} });
    try {
      // One worker per run and several runs side by side use two cores best; a detected drift needs no more than a
      // few failures to be named, and every failure costs a worker restart.
      return await runSuite({ baseUrl: sim.url, callbackPort, reportsDir: join(REPORTS_DIR, 'mutation', name), workers: 1, extraArgs: [`--max-failures=${MAX_FAILURES}`] });
    } finally {
      await sim.close();
    }
  } catch (err) {
    return { failed: [], passed: 0, skipped: 0, error: (err as Error).message, seconds: 0 };
  }
}

async function pool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

const args = parseArgs(process.argv.slice(2));
const listed = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'simulator/main.ts', '--list-drifts', '--json'], { encoding: 'utf8' })) as DriftInfo[];
const unknown = (args.only ?? []).filter((n) => !listed.some((d) => d.name === n));
if (unknown.length) {
  console.error(`mutation: no drift named ${unknown.join(', ')}; see npm run simulator -- --list-drifts`);
  process.exit(2);
}
const drifts = args.only ? listed.filter((d) => args.only!.includes(d.name)) : listed;

const started = Date.now();
console.log(`mutation: the contract suite against the conforming simulator and ${drifts.length} drifts, ${args.concurrency} at a time`);
const runs = await pool([undefined, ...drifts], args.concurrency, async (drift) => {
  const run = await runAgainst(drift?.name);
  console.log(`  ${(drift?.name ?? 'conforming').padEnd(28)} ${run.error ? 'run error' : `${run.failed.length} failed, ${run.passed} passed`} in ${run.seconds.toFixed(1)} s`);
  return run;
});
const result = scoreMutations(runs[0]!, drifts.map((drift, i) => ({ drift, run: runs[i + 1]! })));
const wall = (Date.now() - started) / 1000;
mkdirSync(REPORTS_DIR, { recursive: true });
writeFileSync(join(REPORTS_DIR, 'mutation.json'), `${JSON.stringify({ ...result, wallSeconds: wall }, null, 2)}\n`);
console.log(`\n${renderTable(result)}`);
console.log(`mutation: ${runs.length} suite runs in ${wall.toFixed(0)} s wall; reports/mutation.json`);
if (runs[0]!.error || result.rows.some((r) => r.verdict === 'RUN ERROR')) {
  for (const [i, run] of runs.entries()) if (run.error) console.error(`mutation: ${i === 0 ? 'conforming' : drifts[i - 1]!.name}: ${run.error}`);
}
process.exit(result.ok ? 0 : 1);
