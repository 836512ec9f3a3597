// Scores the contract suite against the simulator's drift modes. Pure: takes the drift list and what each run
// recorded, returns rows, the score line and whether the run passes. A breaking drift counts as detected only when
// a recorded contract failure names the operation and the place the drift breaks (its `breaks`); a run that failed
// elsewhere only is "caught elsewhere", not a detection. An additive or undocumented drift must leave the suite green
// and be reported at its own item (its `reports`), in the drift report compared with the committed baseline of the
// simulator, which the conforming run itself must match (and be green).
import { operationLabel, type Failure } from '../lib/failure.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import type { DriftReport, Severity } from '../report/drift-report.ts';
import type { DriftDeclaration, DriftKind, DriftLocation } from '../lib/drift-declaration.ts';

export interface SuiteRun {
  /** Titles ("[project] file › title") of tests that failed. */
  failed: string[];
  passed: number;
  skipped: number;
  /** First line of the first failure, the message QA would paste. */
  firstMessage?: string;
  /** The run itself broke (simulator did not start, Playwright crashed): no verdict possible. */
  error?: string;
  seconds: number;
  /**
   * The contract failures the run recorded (reports/failures.json). A record-only run stops a test where a normal
   * run does: every failure recorded is one a normal run reaches.
   */
  failures?: ReadonlyArray<ScoredFailure>;
  /** What its drift report lists against the conforming run; absent when it wrote none. */
  reported?: DriftReported;
  /** What `npm run judge` finds in the run's own HAR (reports/…/exchanges.har): the judge's parity with the run. */
  fromRecording?: ReadonlyArray<ScoredFailure>;
}

/** What the score reads of a failure: where it names the drift, its id, its test, the check that found it. */
export type ScoredFailure = Pick<Failure, 'operationId' | 'comparedWith' | 'pointer'> & { id: string; test?: string; check?: string };

export interface ReportedChange {
  id: string;
  severity: Severity;
  change: string;
  /** "changed status.operator: operator → waiting-operator". */
  line: string;
}

/** Changes a run's drift report lists against the conforming run (contract failures aside). */
export interface DriftReported {
  changes: ReportedChange[];
}

export function reportedDrift(report: Pick<DriftReport, 'entries'>): DriftReported {
  return {
    changes: report.entries
      .filter((e) => e.change !== null && e.change !== 'unchanged' && e.severity !== 'breaking')
      .map((e) => ({
        id: e.id,
        severity: e.severity,
        change: e.change!,
        line: `${e.change} ${e.id}: ${e.before === undefined ? '' : `${e.before} → `}${e.observed}`,
      })),
  };
}

/** Does a failure name this place? Its pointer is the place, or the place with a qualifier: "/*\/id (pages disjoint)". */
export function namesLocation(failure: ScoredFailure, location: DriftLocation): boolean {
  const operation = failure.operationId !== null && location.operations.includes(failure.operationId);
  return operation && location.at.some((at) => failure.pointer === at || failure.pointer.startsWith(`${at} (`));
}

export interface MutationRow {
  drift: string;
  kind: DriftKind | 'conforming';
  clause: string;
  /** What the row means for the score. */
  verdict: 'detected' | 'ELSEWHERE ONLY' | 'MISSED' | 'green' | 'BASELINE CHANGED' | 'reported' | 'NOT REPORTED' | 'FALSE POSITIVE' | 'RUN ERROR';
  failed: string[];
  /** The failure at the drifted item, or the first one. */
  firstMessage?: string;
  /** The drift report item that shows the drift, or the conforming run's first change against the baseline. */
  reported?: string;
  /**
   * A breaking drift the run detected, judged again from its HAR alone (`npm run judge`): caught there at the drifted
   * item, explained (every check that named it there is one no recording can feed: its reason), or missed.
   */
  fromRecording?: 'caught' | `explained: ${string}` | 'MISSED BY THE JUDGE';
  seconds: number;
}

export interface MutationResult {
  rows: MutationRow[];
  breaking: number;
  /** Breaking drifts named at their own item. */
  detected: number;
  /** Breaking drifts that failed the suite only at other items. */
  elsewhere: number;
  /** Additive and undocumented drifts, and how many of them the drift report listed at their own item. */
  reportable: number;
  reported: number;
  falsePositives: number;
  runErrors: number;
  /** Breaking drifts detected live, and of them those the judge of the run's HAR caught at the item, or why not. */
  judge: { detected: number; caught: number; explained: number; missed: number };
  /**
   * The meaning audit's pairs of a check and the drift it catches (openapi/meaning-audit.yaml), of the drifts run:
   * each must have failed that very check at its place, in the run or in the judge of its HAR; those that did not.
   */
  audit: { pairs: number; unproven: string[] };
  ok: boolean;
  scoreLine: string;
}

/** The failures that name the drifted item. */
const allAtItem = (drift: DriftDeclaration, failures: ReadonlyArray<ScoredFailure> | undefined) =>
  (failures ?? []).filter((f) => (drift.breaks ?? []).some((location) => namesLocation(f, location)));

/** The failure that names the drifted item, if any. */
const atItem = (drift: DriftDeclaration, run: SuiteRun) => allAtItem(drift, run.failures)[0];

/**
 * The judge of the run's HAR against the run: a drift the run detected must show from its recording at the same item,
 * unless every check that named it there is one a recording cannot feed (`notFromRecordings`: check → why).
 */
function judgeParity(drift: DriftDeclaration, run: SuiteRun, notFromRecordings: Readonly<Record<string, string>>): MutationRow['fromRecording'] {
  if (allAtItem(drift, run.fromRecording).length) return 'caught';
  const checks = [...new Set(allAtItem(drift, run.failures).map((f) => f.check ?? ''))];
  const why = checks.map((c) => notFromRecordings[c]);
  return why.length && why.every(Boolean) ? `explained: ${checks.map((c, i) => `${c}: ${why[i]}`).join('; ')}` : 'MISSED BY THE JUDGE';
}

/** Tests that failed, and tests of a record-only run that recorded a failure. */
function failedTests(run: SuiteRun): string[] {
  return [...new Set([...run.failed, ...(run.failures ?? []).flatMap((f) => (f.test ? [f.test] : []))])];
}

/** The change of the drift report that is the drift's own item, with the severity its kind calls for. */
function ownReport(drift: DriftDeclaration, run: SuiteRun): ReportedChange | undefined {
  const wanted =
    drift.kind === 'additive' ? (c: ReportedChange) => c.severity === 'additive' && c.change === 'added' : (c: ReportedChange) => c.severity === 'changed';
  return run.reported?.changes.find((c) => (drift.reports ?? []).includes(c.id) && wanted(c));
}

function verdictOf(kind: MutationRow['kind'], run: SuiteRun, failed: boolean, named: boolean, reported: boolean): MutationRow['verdict'] {
  if (run.error) return 'RUN ERROR';
  if (kind === 'breaking') return named ? 'detected' : failed ? 'ELSEWHERE ONLY' : 'MISSED';
  if (failed) return 'FALSE POSITIVE';
  if (kind === 'conforming') return reported ? 'BASELINE CHANGED' : 'green';
  return reported ? 'reported' : 'NOT REPORTED';
}

/** A check the meaning audit says a drift breaks at a place of an operation. */
export interface AuditedPair {
  check: string;
  drift: string;
  operation: string;
  at: string;
}

/** The audit's pairs whose drift ran and whose check failed nowhere at its place, in the run or from its HAR. */
function unprovenPairs(
  audited: readonly AuditedPair[],
  drifts: ReadonlyArray<{ drift: DriftDeclaration; run: SuiteRun }>,
): { pairs: number; unproven: string[] } {
  const ran = audited.filter((p) => drifts.some(({ drift, run }) => drift.name === p.drift && !run.error));
  const unproven = ran.filter(({ check, drift, operation, at }) => {
    const run = drifts.find((d) => d.drift.name === drift)!.run;
    const place = { operations: [operation as OperationId], at: [at] };
    return ![...(run.failures ?? []), ...(run.fromRecording ?? [])].some((f) => f.check === check && namesLocation(f, place));
  });
  return { pairs: ran.length, unproven: unproven.map((p) => `${p.check} did not fail at ${p.operation} ${p.at} in the run of ${p.drift}`) };
}

export function scoreMutations(
  conforming: SuiteRun,
  drifts: Array<{ drift: DriftDeclaration; run: SuiteRun }>,
  notFromRecordings: Readonly<Record<string, string>> = {},
  audited: readonly AuditedPair[] = [],
): MutationResult {
  const row = (drift: DriftDeclaration | undefined, run: SuiteRun): MutationRow => {
    const kind = drift?.kind ?? 'conforming';
    const tests = failedTests(run);
    const failed = tests.length > 0;
    const named = drift ? atItem(drift, run) : undefined;
    const own = drift && kind !== 'breaking' ? ownReport(drift, run) : undefined;
    // The conforming run against the committed baseline: any change means a stale baseline or a moving value.
    const baselineChange = kind === 'conforming' ? run.reported?.changes[0] : undefined;
    const reported = own ?? baselineChange;
    return {
      drift: drift?.name ?? '(none: conforming simulator)',
      kind,
      clause: drift?.clause ?? '',
      verdict: verdictOf(kind, run, failed, named !== undefined, reported !== undefined),
      failed: tests,
      seconds: run.seconds,
      ...(named ? { firstMessage: `${operationLabel(named)}: ${named.pointer} (${named.id})` } : run.firstMessage ? { firstMessage: run.firstMessage } : {}),
      ...(reported ? { reported: reported.line } : {}),
      ...(drift && named && run.fromRecording ? { fromRecording: judgeParity(drift, run, notFromRecordings) } : {}),
    };
  };
  const rows = [row(undefined, conforming), ...drifts.map(({ drift, run }) => row(drift, run))];
  const count = (verdict: MutationRow['verdict']) => rows.filter((r) => r.verdict === verdict).length;
  const breaking = rows.filter((r) => r.kind === 'breaking').length;
  const reportable = rows.filter((r) => r.kind === 'additive' || r.kind === 'undocumented').length;
  const [detected, elsewhere, reported, falsePositives, runErrors] = [
    count('detected'),
    count('ELSEWHERE ONLY'),
    count('reported'),
    count('FALSE POSITIVE'),
    count('RUN ERROR'),
  ];
  const parity = rows.flatMap((r) => (r.fromRecording ? [r.fromRecording] : []));
  const judge = {
    detected: parity.length,
    caught: parity.filter((p) => p === 'caught').length,
    explained: parity.filter((p) => p.startsWith('explained')).length,
    missed: parity.filter((p) => p === 'MISSED BY THE JUDGE').length,
  };
  const audit = unprovenPairs(audited, drifts);
  return {
    rows,
    breaking,
    detected,
    elsewhere,
    reportable,
    reported,
    falsePositives,
    runErrors,
    judge,
    audit,
    ok:
      detected === breaking &&
      reported === reportable &&
      falsePositives === 0 &&
      runErrors === 0 &&
      rows[0]!.verdict === 'green' &&
      judge.missed === 0 &&
      audit.unproven.length === 0,
    scoreLine:
      `mutation score: ${detected}/${breaking} breaking drifts detected at the drifted item, ${elsewhere} only elsewhere; ` +
      `${reported}/${reportable} additive and undocumented drifts reported at their own item; ${falsePositives} false positives${runErrors ? `, ${runErrors} runs broken` : ''}` +
      (judge.detected
        ? `; the judge of each run's HAR: ${judge.caught}/${judge.detected} caught at the drifted item, ${judge.explained} explained by NOT_FROM_RECORDINGS, ${judge.missed} missed`
        : '') +
      (audit.pairs ? `; the audit's checks: ${audit.pairs - audit.unproven.length}/${audit.pairs} fail at their place in their drift's run` : ''),
  };
}

/** Console table: drift, kind, verdict, the tests that caught it, the failure at the drifted item or the report line. */
export function renderTable(result: MutationResult): string {
  const width = Math.max(...result.rows.map((r) => r.drift.length));
  const lines = result.rows.map((r) => {
    const by = r.failed.length ? `${r.failed.length} failed, e.g. ${r.failed[0]}` : '';
    const head = `${r.drift.padEnd(width)}  ${r.kind.padEnd(12)}  ${r.verdict.padEnd(14)}  ${by}`;
    const why = r.firstMessage ?? r.reported;
    const judge = r.fromRecording && r.fromRecording !== 'caught' ? `\n${' '.repeat(width + 2)}↳ from the HAR: ${r.fromRecording}` : '';
    return why ? `${head}\n${' '.repeat(width + 2)}↳ ${why}${judge}` : `${head}${judge}`;
  });
  return [...lines, ...result.audit.unproven.map((line) => `AUDIT: ${line}`), '', result.scoreLine].join('\n');
}
