// What only the whole run can tell, read by the run reporter once every test has ended (passed or not): the run's
// exchanges as one HAR (the workers' journal folded into reports/exchanges.har), the rate limit the run met, whether
// every "not shown" item was observed, and which (operation, status) pairs were exercised, read from that HAR.
// A worker of its own for this cost a second of every run. It sends no request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { rateLimitFinding } from '../../http/throttle.ts';
import { checkRows, coverageHtml, coverageMatrix, stateMatrix, unexplained } from '../../report/coverage-matrix.ts';
import { harAnswers, harOf } from '../../report/har.ts';
import { suiteVersion } from '../../config/suite-version.ts';
import type { ContractValidators } from '../../openapi/validators.ts';
import type { RecordedFailure } from '../../lib/failure.ts';
import { EVIDENCE, type CheckRegistry } from '../../checks/check.ts';
import type { JudgedCounts } from '../judging/matchers.ts';
import { pairsExercised, runFailures, transitionsWalked, unknownsObserved, variantsExercised } from '../../checks/run.ts';
import { judgeRecording } from '../../checks/recording.ts';
import { REPORTS_DIR } from '../core/env.ts';
import { NOT_DRIVABLE } from '../core/not-drivable.ts';
import type { Observation } from '../core/observation.ts';
import { preconditionReasons } from '../fixtures/preconditions.ts';
import { UNKNOWN_CATALOG } from '../core/unknowns-catalog.ts';
import { currentRun, runStartedAt } from '../core/run-records.ts';
import { clearJournal, readJournal } from '../core/journal.ts';
import { readThrottleRecords } from '../target/run-throttle.ts';
import { readPace } from '../target/rate-memory.ts';
import { lagObserved, readLags } from '../target/settle.ts';
import { STATE_PAIRS, TRIGGERS, type Trigger } from '../core/state-table.ts';
import { documentedVariants, sentRequest, variantMatrix } from '../../report/variants.ts';
import { loadDocument } from '../../openapi/document.ts';
import { markPart, PART } from '../core/run-timing.ts';
import { EXCHANGES_HAR, JOURNAL_JUDGED, RUN_END_FILES } from '../core/run-report-files.ts';
import { runVendorClock, UNVERIFIED_MARGIN_MS, type VendorClock } from '../clock/vendor-clock.ts';

/**
 * The run's clock as its HAR carries it, for the engine's windows: its offset, known to within its uncertainty where
 * the application's stamps verified it, else a quarter of an hour either way; none where the run could not read one.
 */
const recordedClock = (clock: VendorClock) =>
  clock.source === 'unknown'
    ? undefined
    : { offsetMs: clock.offsetMs, marginMs: clock.verified ? clock.uncertaintyMs : Math.max(clock.uncertaintyMs, UNVERIFIED_MARGIN_MS) };

/** How the run's end names itself in reports, as a test would. */
export const RUN_END = '[run end]';

/** How the run's end names the judge of its journal in reports: a failure it found is filed under this and its exchange. */
export const JOURNAL_JUDGE = '[journal]';

export interface RunEnd {
  observations: Observation[];
  /** The (operation, status) pairs the run's answers showed, as "OPERATIONID STATUS": what it exercised. */
  exercised: string[];
  /** Catalogued "not shown" items the run observed nowhere and no test excused ("ID (spec §S: item)"). */
  unobserved: string[];
  /** The checks of the whole run that failed, each filed under its title. */
  failed: RecordedFailure[];
  /** What the engine found judging the run's whole journal: the same checks, every exchange they can judge. */
  journal: RecordedFailure[];
  coverageLine: string;
}

/**
 * `observedIds`: the ids the run's tests and setup observed (the reporter holds them); `partial`: why the command
 * line ran only part of the suite, when the whole-run checks are not made. `checks.judged` holds what the tests judged
 * at their call sites; `checks.fromJournal` gets what the engine judged of the whole journal.
 */
export function runEnd(
  config: SuiteConfig,
  validators: ContractValidators,
  checks: { registry: CheckRegistry; judged: JudgedCounts; fromJournal: JudgedCounts },
  observedIds: Iterable<string>,
  partial: string | undefined,
): RunEnd {
  const run = currentRun(config);
  const folding = Date.now();
  const har = harOf(
    readJournal(REPORTS_DIR, 'exchange'),
    config.baseUrl,
    { name: 'dialog-contract', version: suiteVersion() },
    `run ${run.runId}, started ${run.startedAt}`,
    { created: readJournal(REPORTS_DIR, 'created'), expectations: readJournal(REPORTS_DIR, 'expectation'), clock: recordedClock(runVendorClock()) },
  );
  writeFileSync(join(REPORTS_DIR, EXCHANGES_HAR), `${JSON.stringify(har)}\n`);
  clearJournal(REPORTS_DIR, 'exchange');
  const judging = Date.now();
  markPart(REPORTS_DIR, PART.fold, folding, judging);
  // What the checks judged: a throttled answer was waited out, not judged.
  const exchanges = harAnswers(har).filter((a) => !a.throttled);
  const throttles = readThrottleRecords(REPORTS_DIR);
  const seconds = (Date.now() - runStartedAt()) / 1000;
  const pace = readPace(REPORTS_DIR);
  const rate = rateLimitFinding(throttles, exchanges.length + throttles.length, seconds, pace?.carried ?? undefined);
  // What the pace said of the target's announcements and its probe: evidence, never part of the compared value.
  const paceNotes = pace?.notes?.length ? `\nthe run's pace: ${pace.notes.join('; ')}` : '';
  const observations: Observation[] = [
    {
      id: 'rate.limit',
      section: '8.2',
      item: 'rate limit met by the run (any request throttled: status, Retry-After form, rate-limit headers)',
      observed: rate.observed,
      evidence: `${rate.evidence}${paceNotes}`,
    },
  ];
  // How far the lists trailed the run's writes (consistency of the lists: not shown, §4.1); only when it waited.
  const lags = readLags(REPORTS_DIR);
  if (lags.length > 0) {
    const slowest = [...lags].sort((a, b) => b.waitedMs - a.waitedMs)[0]!;
    observations.push({
      id: 'lists.lag',
      section: '4.1',
      item: 'how long a write takes to show in the lists',
      observed: lagObserved(lags),
      evidence: `longest: ${slowest.what}, ${(slowest.waitedMs / 1000).toFixed(1)} s${slowest.settled ? '' : ' (not settled)'}, of ${lags.length} waits`,
    });
  }

  const operations = [...validators.operations.values()].map((op) => ({ operationId: op.operationId, label: op.label, statuses: Object.keys(op.responses) }));
  // What this run could not set up comes first: it says why the pair is missing now.
  const coverage = coverageMatrix(operations, exchanges, { ...NOT_DRIVABLE, ...preconditionReasons(REPORTS_DIR, 'pairs') });
  // Spec §3 beside §7: which (state × trigger) pairs the tests walked, with what each answered and left.
  const walked = readJournal(REPORTS_DIR, 'transition');
  const states = stateMatrix(STATE_PAIRS, walked, preconditionReasons(REPORTS_DIR, 'transitions'));
  // Every documented variant of an input's place and form, and every write right after each write (report/variants.ts).
  const variants = variantMatrix(
    documentedVariants(loadDocument(), [...validators.operations.values()]),
    har.log.entries.flatMap((e) => sentRequest(e) ?? []),
    walked.map((s) => ({ operationId: TRIGGERS[s.pair.split(' × ')[1] as Trigger] ?? '', prior: s.prior, test: s.test })),
    preconditionReasons(REPORTS_DIR, 'variants'),
  );
  const failed: RunEnd['failed'] = [];
  // The run's HAR judged as `npm run judge` judges it, by the same function (its clock, its windows, its redaction):
  // every check sees every exchange it can judge, not only those its tests called it on (a team's checks of the whole
  // run among them). What it found is kept check by check, before failures.json merges it with the tests' own: the
  // judge's parity in the mutation run reads it instead of judging every run's HAR a second time.
  const journal = judgeRecording(har, validators, checks.registry, JOURNAL_JUDGE, config.listSettleSeconds * 1000);
  writeFileSync(join(REPORTS_DIR, JOURNAL_JUDGED), `${JSON.stringify({ source: EXCHANGES_HAR, failures: journal.failures })}\n`);
  Object.assign(checks.fromJournal, journal.judged);
  // What the run set out to observe and did not: said in its scope whether or not the whole-run checks are made.
  const recorded = new Set([...observedIds, ...observations.map((o) => o.id)]);
  const excused = preconditionReasons(REPORTS_DIR, 'observations');
  const missing = UNKNOWN_CATALOG.flatMap((e) => e.ids.filter((id) => !recorded.has(id) && !excused[id]).map((id) => `${id} (spec §${e.section}: ${e.item})`));
  if (partial === undefined) {
    const holes = unexplained(coverage).map((r) => `${r.operation} ${r.status}`);
    const unwalked = states.filter((r) => r.walked === 0 && !r.reason).map((r) => r.pair);
    const untried = variants.filter((r) => r.exercised === 0 && !r.reason).map((r) => `${r.operation} ${r.variant}`);
    const judged = [
      [unknownsObserved, `${RUN_END} every catalogued "not shown" item was observed in this run, or its test said why it could not be`, missing],
      [pairsExercised, `${RUN_END} every documented (operation, status) pair is exercised or explained`, holes],
      [transitionsWalked, `${RUN_END} every (state × trigger) pair of spec §3 is walked, or its test said why it could not be`, unwalked],
      [variantsExercised, `${RUN_END} every documented variant is exercised, or its test said why it could not be`, untried],
    ] as const;
    for (const [check, title, gaps] of judged) {
      if (!checks.registry.runs(check.name)) continue;
      failed.push(...runFailures(check, { title, missing: gaps }, title));
      checks.judged[check.name] = { judged: 1, failed: gaps.length ? 1 : 0 };
    }
  }
  // Every check of the run beside them, the run's own checks just judged included: how often each was judged, or that
  // it was left out.
  const listed = checks.registry
    .all()
    .map((c) => ({ name: c.name, sections: c.sections, severity: c.severity, evidence: EVIDENCE[c.evidence], run: checks.registry.runs(c.name) }));
  const checkTable = checkRows(listed, checks.judged, checks.fromJournal);
  const [json, html] = RUN_END_FILES as [string, string];
  writeFileSync(join(REPORTS_DIR, json), `${JSON.stringify({ run, ...coverage, states, variants, checks: checkTable }, null, 2)}\n`);
  writeFileSync(join(REPORTS_DIR, html), coverageHtml(coverage, states, variants, checkTable));
  markPart(REPORTS_DIR, PART.judging, judging);
  return {
    observations,
    exercised: [...new Set(exchanges.map((e) => `${e.operationId} ${e.status}`))].sort(),
    unobserved: missing,
    failed,
    journal: journal.failures,
    coverageLine: `coverage: ${coverage.exercised}/${coverage.documented} documented (operation, status) pairs exercised, ${states.filter((r) => r.walked > 0).length}/${states.length} (state × trigger) pairs of §3 walked, ${variants.filter((r) => r.exercised > 0).length}/${variants.length} documented variants exercised; reports/coverage.html`,
  };
}
