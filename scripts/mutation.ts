// `npm run mutation`: the whole contract suite against the conforming simulator and against each drift mode alone,
// recording contract failures as data, each test expected to fail where it records one (CONTRACT_FAILURES=record).
// A breaking drift the suite misses, any failure without a breaking drift, or an additive or undocumented drift
// that the drift report (compared with the committed baseline, which the conforming run must equal) does not list,
// fails the run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { baselinePath } from '../contract/core/baselines.ts';
import { renderTable, reportedDrift, scoreMutations, type ScoredFailure, type SuiteRun } from '../power/mutation-score.ts';
import type { DriftDeclaration } from '../lib/drift-declaration.ts';
import { REPORTS_DIR_ENV } from '../config/command-line.ts';
import {
  laneShape,
  parseRunsArgs,
  processesMemoryHolds,
  PINNED_SEED_ENV,
  pinSeedOrExit,
  RUNS_OPTIONS,
  runSuitesAgainstSimulators,
  scriptRun,
} from './suite-run.ts';
import { EXCHANGES_HAR, JOURNAL_JUDGED } from '../contract/core/run-report-files.ts';
import { judgeRecording, NOT_FROM_RECORDINGS, type HarLog } from '../checks/recording.ts';
import { CheckRegistry } from '../checks/check.ts';
import { BUILT_IN } from '../checks/registry.ts';
import { contractValidators } from '../openapi/validators.ts';
import { auditedChecks, readAudit } from './meaning-audit.ts';

/**
 * Tests side by side, as the machine allows: three a core, a lane of three workers per core (scripts/suite-run.ts
 * laneShape): a test mostly waits (the lifecycle's second, a drift's settles, each request at the
 * simulator: a lane of one worker keeps about 0.6 of a core busy), so a core's other workers use it meanwhile.
 */
const CONCURRENCY = 3 * cpus().length;
const COMMAND = {
  script: 'mutation',
  usage: ['[--only NAME[,NAME...]] [--concurrency N]'],
  summary:
    'The whole contract suite against the conforming simulator and against each of its drift modes alone (npm run\n' +
    'simulator -- --list-drifts), each on its own simulator and ports, recording contract failures as data. A breaking\n' +
    'drift is detected only when a recorded failure names one of its operations and places; an additive or undocumented\n' +
    'one must leave the suite green and show in the drift report at its own item. The conforming run is compared with\n' +
    'baselines/simulator.json. Prints the score and writes reports/mutation.json (each run: reports/mutation/NAME/).',
  options: {
    ...RUNS_OPTIONS,
    only: { ...RUNS_OPTIONS.only, description: 'only these drift modes (the conforming run always runs)' },
    concurrency: {
      ...RUNS_OPTIONS.concurrency,
      description: 'tests side by side: a lane per core at most, as many workers in each as make them up',
      default: `${CONCURRENCY} (three a core, as the memory holds: half a gigabyte a process)`,
    },
  },
  environment: [REPORTS_DIR_ENV, PINNED_SEED_ENV],
  exit: '0 every breaking drift detected at its item, every other reported, no false positive, baseline unchanged; 1 otherwise; 2 bad input.',
  examples: ['npm run mutation -- --only meta-missing,operator-status-renamed --concurrency 2'],
} as const;

// The JSON report scores the run; the run reporter (runSuite's default) writes its fingerprint and drift report.
const reportsOf = (drift: string | undefined) => join(REPORTS_DIR, 'mutation', drift ?? 'conforming');
/**
 * One generated case per class of an input (fixtures/input-space.ts casePlan gives every class one at any count): each
 * class a drift breaks still meets its case at the pinned seed, and the runs pay for none beyond it.
 */
const GENERATED_CASES = '1';
/** The runs' lists trail nothing (below): a list may trail a write this long, for the runs and the judge of their HARs. */
const LIST_SETTLE_S = 1;

/**
 * What `npm run judge` finds in a run's own HAR, every check of the project made: the judge's side of the parity. The
 * run's end judged its HAR with the judge's own function and kept what it found (contract/run/run-end.ts).
 */
function judgedRecording(reportsDir: string): Pick<SuiteRun, 'fromRecording'> {
  const kept = join(reportsDir, JOURNAL_JUDGED);
  return existsSync(kept) ? { fromRecording: (JSON.parse(readFileSync(kept, 'utf8')) as { failures: ScoredFailure[] }).failures } : {};
}

/** Runs whose HAR is judged again from its file: the conforming one and those whose judge found the most checks failing. */
const PROVEN_RUNS = 3;

/**
 * Why a run's kept judgement is not what `npm run judge` finds in its HAR file now, if it is not: the parity read
 * from what the run's end kept holds only while the two agree (a third of a second a judgement, so a few runs only).
 */
function parityBroken(reportsDir: string, kept: readonly ScoredFailure[]): string | undefined {
  const har = JSON.parse(readFileSync(join(reportsDir, EXCHANGES_HAR), 'utf8')) as HarLog;
  const judged = judgeRecording(har, contractValidators(), new CheckRegistry(BUILT_IN), EXCHANGES_HAR, LIST_SETTLE_S * 1000).failures;
  const ids = (list: readonly ScoredFailure[]) => JSON.stringify(list.map((f) => `${f.check} ${f.id}`).sort());
  return ids(judged) === ids(kept)
    ? undefined
    : `the run's end judged its HAR otherwise than npm run judge does (${kept.length} failures against ${judged.length}; ${reportsDir})`;
}

/** What a run recorded: its contract failures as data, and its drift report's changes against the baseline. */
function readRecorded(reportsDir: string): Pick<SuiteRun, 'failures' | 'reported'> {
  const read = (name: string) => (existsSync(join(reportsDir, name)) ? JSON.parse(readFileSync(join(reportsDir, name), 'utf8')) : undefined);
  const drift = read('drift.json');
  const failures = read('failures.json');
  return { ...(failures ? { failures: failures.failures } : {}), ...(drift ? { reported: reportedDrift(drift) } : {}) };
}

/**
 * What each run's tests took in the last mutation run (reports/mutation.json), by run name: the lanes are dealt by it
 * (scripts/suite-run.ts dealRuns). None on a first run, or from a report that cannot be read: dealt round the table.
 */
function lastCosts(): Map<string, number> | undefined {
  try {
    const { rows } = JSON.parse(readFileSync(join(REPORTS_DIR, 'mutation.json'), 'utf8')) as { rows: Array<{ drift: string; kind: string; seconds: number }> };
    return new Map(rows.map((row) => [row.kind === 'conforming' ? 'conforming' : row.drift, row.seconds]));
  } catch {
    return undefined;
  }
}
const costs = lastCosts();

/**
 * Runs of the whole suite in Playwright invocations, one per lane, `concurrency` tests at a time, each against its drift's simulator and
 * compared with its baseline. Every test runs to its end (the failure that names the drifted item may come late),
 * recording contract failures instead of failing on them: a failed test costs a worker restart, a second of CPU each.
 * The mutation simulator's lists do not trail its store: a drift that keeps a dialog out of a list fails after a
 * second of settling, not ten (the vendor profiles prove the settling against lists that do trail).
 */
async function runAgainst(
  runs: ReadonlyArray<{ drift: string | undefined; baseline: string | undefined }>,
  concurrency: number,
  invocation: string,
): Promise<SuiteRun[]> {
  if (runs.length === 0) return [];
  const finished = await runSuitesAgainstSimulators(
    runs.map(({ drift, baseline }) => ({
      name: drift ?? 'conforming',
      simulator: { drifts: drift ? [drift] : [] },
      run: {
        reportsDir: reportsOf(drift),
        baseline,
        env: { CONTRACT_FAILURES: 'record', LIST_SETTLE_S: String(LIST_SETTLE_S), GENERATED_CASES: GENERATED_CASES },
      },
    })),
    laneShape(concurrency, runs.length, cpus().length, processesMemoryHolds()),
    // Beside reports/mutation/, whose folders are the runs' (a drift may have any name).
    join(REPORTS_DIR, 'mutation-invocations', invocation),
    costs,
  );
  const scored = finished.map((run, i): SuiteRun => {
    const reportsDir = reportsOf(runs[i]!.drift);
    const recorded = readRecorded(reportsDir);
    // A run without its failures file cannot be scored: a missed drift and a crashed reporter must not look alike.
    if (!run.error && !recorded.failures) return { ...run, error: `the run wrote no failures.json (its reporter failed; see ${reportsDir})` };
    return { ...run, ...recorded, ...judgedRecording(reportsDir) };
  });
  const checksFailing = (run: SuiteRun) => new Set(run.fromRecording?.map((f) => f.check)).size;
  const proven = scored
    .map((run, i) => ({ run, i }))
    .filter(({ run }) => run.fromRecording)
    .sort((a, b) => Number(runs[b.i]!.drift === undefined) - Number(runs[a.i]!.drift === undefined) || checksFailing(b.run) - checksFailing(a.run))
    .slice(0, PROVEN_RUNS);
  for (const { run, i } of proven) {
    const broken = parityBroken(reportsOf(runs[i]!.drift), run.fromRecording!);
    if (broken) scored[i] = { ...run, error: broken };
  }
  return scored;
}

const args = parseRunsArgs(COMMAND, process.argv.slice(2), CONCURRENCY);
const listed = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', 'simulator/main.ts', '--list-drifts', '--json'], { encoding: 'utf8' }),
) as DriftDeclaration[];
const unknown = (args.only ?? []).filter((n) => !listed.some((d) => d.name === n));
if (unknown.length) {
  console.error(`mutation: no drift named ${unknown.join(', ')}; see npm run simulator -- --list-drifts`);
  process.exit(2);
}
const drifts = args.only ? listed.filter((d) => args.only!.includes(d.name)) : listed;
const seed = pinSeedOrExit('mutation');

const started = Date.now();
console.log(
  `mutation: the contract suite against the conforming simulator and ${drifts.length} drifts, ${args.concurrency} at a time, generated inputs of seed ${seed}`,
);
const say = (drift: DriftDeclaration | undefined, run: SuiteRun) =>
  console.log(
    `  ${(drift?.name ?? 'conforming').padEnd(28)} ${run.error ? 'run error' : `${run.failures?.length ?? 0} contract failures recorded, ${run.failed.length} tests failed, ${run.passed} passed`} in ${run.seconds.toFixed(1)} s of tests`,
  );
// Every run is compared with the committed baseline, as a run before a vendor upgrade is (its shapes are tried first,
// which catches a write that is taken and does nothing on a vendor that takes any body; a change in the conforming
// run is a stale baseline or a run-dependent value). The conforming run must equal it, so what an additive or
// undocumented drift's report lists against it is what it lists against the conforming run: all in one Playwright
// invocation. Without a committed baseline those drifts wait for the conforming run's fingerprint, in a second one.
const committed = existsSync(baselinePath('simulator')) ? baselinePath('simulator') : undefined;
const fingerprint = join(reportsOf(undefined), 'fingerprint.json');
const breaking = drifts.filter((d) => d.kind === 'breaking');
const others = drifts.filter((d) => d.kind !== 'breaking');
const order = [undefined, ...breaking, ...others];
const finished = committed
  ? await runAgainst(
      order.map((d) => ({ drift: d?.name, baseline: committed })),
      args.concurrency,
      'all',
    )
  : [
      ...(await runAgainst(
        [undefined, ...breaking].map((d) => ({ drift: d?.name, baseline: undefined })),
        args.concurrency,
        'breaking',
      )),
      ...(await runAgainst(
        others.map((d) => ({ drift: d.name, baseline: existsSync(fingerprint) ? fingerprint : undefined })),
        args.concurrency,
        'additive',
      )),
    ];
const runOf = new Map<DriftDeclaration | undefined, SuiteRun>(order.map((drift, i) => [drift, finished[i]!]));
for (const drift of order) say(drift, runOf.get(drift)!);
const runs = [runOf.get(undefined)!, ...drifts.map((drift) => runOf.get(drift)!)];
const result = scoreMutations(
  runs[0]!,
  drifts.map((drift, i) => ({ drift, run: runs[i + 1]! })),
  NOT_FROM_RECORDINGS as Record<string, string>,
  auditedChecks(readAudit()).flatMap((c) => (c.drift ? [{ check: c.check, drift: c.drift, operation: c.operation, at: c.at }] : [])),
);
const wall = (Date.now() - started) / 1000;
mkdirSync(REPORTS_DIR, { recursive: true });
writeFileSync(
  join(REPORTS_DIR, 'mutation.json'),
  `${JSON.stringify({ run: scriptRun('simulators in this process, one per drift mode', started), seed, ...result, wallSeconds: wall }, null, 2)}\n`,
);
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
