// `npm run mutation`: the whole contract suite against the conforming simulator and against each drift mode alone.
// A breaking drift the suite misses, any failure without a breaking drift, or an additive or undocumented drift
// that the drift report (compared with the conforming run's fingerprint) does not list, fails the run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { REPORTS_DIR } from '../contract/env.ts';
import { baselinePath } from '../contract/reporters/baselines.ts';
import { renderTable, reportedDrift, scoreMutations, type DriftInfo, type DriftReported, type SuiteRun } from '../lib/mutation-score.ts';
import { parseRunsArgs, pool, runAgainstSimulator, scriptRun } from './suite-run.ts';

const MAX_FAILURES = 3;
// The JSON report scores the run; the fingerprint reporter writes its fingerprint and drift report.
const REPORTERS = '--reporter=json,./contract/reporters/run-reports.ts';
const reportsOf = (drift: string | undefined) => join(REPORTS_DIR, 'mutation', drift ?? 'conforming');

function readReported(reportsDir: string): DriftReported | undefined {
  const file = join(reportsDir, 'drift.json');
  return existsSync(file) ? reportedDrift(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

async function runAgainst(drift: string | undefined, workers: number, baseline?: string): Promise<SuiteRun> {
  const reportsDir = reportsOf(drift);
  // A detected drift needs no more than a few failures to be named, and every failure costs a worker restart.
  const run = await runAgainstSimulator({ drifts: drift ? [drift] : [] }, { reportsDir, workers, baseline, extraArgs: [`--max-failures=${MAX_FAILURES}`, REPORTERS] });
  const reported = readReported(reportsDir);
  return reported ? { ...run, reported } : run;
}

const args = parseRunsArgs('mutation', process.argv.slice(2), Math.max(2, cpus().length + 1));
const listed = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'simulator/main.ts', '--list-drifts', '--json'], { encoding: 'utf8' })) as DriftInfo[];
const unknown = (args.only ?? []).filter((n) => !listed.some((d) => d.name === n));
if (unknown.length) {
  console.error(`mutation: no drift named ${unknown.join(', ')}; see npm run simulator -- --list-drifts`);
  process.exit(2);
}
const drifts = args.only ? listed.filter((d) => args.only!.includes(d.name)) : listed;

const started = Date.now();
console.log(`mutation: the contract suite against the conforming simulator and ${drifts.length} drifts, ${args.concurrency} at a time`);
// The conforming run's fingerprint is the baseline of the additive and undocumented drift runs, which wait for it.
// A few breaking runs (no baseline needed) fill the other slots meanwhile; the rest come last, as breaking runs stop
// at their third failure and so are the short ones that pack the end of the pool best.
const breaking = drifts.filter((d) => d.kind === 'breaking');
const headStart = 2 * (args.concurrency - 1);
const queue = [undefined, ...breaking.slice(0, headStart), ...drifts.filter((d) => d.kind !== 'breaking'), ...breaking.slice(headStart)];
let conformingDone!: () => void;
const conformingFinished = new Promise<void>((resolve) => (conformingDone = resolve));
const baseline = join(reportsOf(undefined), 'fingerprint.json');
// The conforming run against the committed baseline: a change there is a stale baseline or a run-dependent value.
const committed = baselinePath('simulator');
// One worker per run and several runs side by side use two cores best.
const queued = await pool(queue, args.concurrency, async (drift) => {
  if (drift && drift.kind !== 'breaking') await conformingFinished;
  const compareWith = !drift ? committed : drift.kind !== 'breaking' ? baseline : undefined;
  const run = await runAgainst(drift?.name, 1, compareWith && existsSync(compareWith) ? compareWith : undefined);
  if (!drift) conformingDone();
  console.log(`  ${(drift?.name ?? 'conforming').padEnd(28)} ${run.error ? 'run error' : `${run.failed.length} failed, ${run.passed} passed`} in ${run.seconds.toFixed(1)} s`);
  return run;
});
const runOf = new Map(queue.map((drift, i) => [drift, queued[i]!]));
const runs = [runOf.get(undefined)!, ...drifts.map((drift) => runOf.get(drift)!)];
const result = scoreMutations(runs[0]!, drifts.map((drift, i) => ({ drift, run: runs[i + 1]! })));
const wall = (Date.now() - started) / 1000;
mkdirSync(REPORTS_DIR, { recursive: true });
writeFileSync(join(REPORTS_DIR, 'mutation.json'), `${JSON.stringify({ run: scriptRun('simulators in this process, one per drift mode', started), ...result, wallSeconds: wall }, null, 2)}\n`);
console.log(`\n${renderTable(result)}`);
console.log(`mutation: ${runs.length} suite runs in ${wall.toFixed(0)} s wall; reports/mutation.json`);
if (result.rows[0]!.verdict === 'BASELINE CHANGED') {
  console.error('mutation: the conforming run differs from baselines/simulator.json (every change: reports/mutation/conforming/drift.md);');
  console.error('mutation: after an intended change of the simulator or the observations, refresh it: npm run contract && npm run baseline -- simulator');
}
if (runs[0]!.error || result.rows.some((r) => r.verdict === 'RUN ERROR')) {
  for (const [i, run] of runs.entries()) if (run.error) console.error(`mutation: ${i === 0 ? 'conforming' : drifts[i - 1]!.name}: ${run.error}`);
}
process.exit(result.ok ? 0 : 1);
