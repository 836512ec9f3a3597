// Scores the contract suite against the simulator's drift modes. Pure: takes the drift list and what each run
// reported, returns rows, the score line and whether the run passes. A breaking drift must fail the suite; an
// additive or undocumented one must leave it green and show up in the drift report, compared with the conforming
// run's fingerprint: as a new additive field, or as a changed observation. The conforming run itself must be green
// and match the committed baseline of the simulator (two runs, no changes).
import type { DriftReport } from './drift-report.ts';

export type DriftKind = 'breaking' | 'additive' | 'undocumented';

export interface DriftInfo {
  name: string;
  kind: DriftKind;
  clause: string;
  description: string;
}

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
  /** What its drift report lists against the conforming run; absent when it wrote none. */
  reported?: DriftReported;
}

/** Changes a run's drift report lists against the conforming run, as "change id" lines. */
export interface DriftReported {
  /** Additive fields the conforming run did not see. */
  additive: string[];
  /** Observations added, changed or removed (additive fields and contract failures aside). */
  observations: string[];
}

export function reportedDrift(report: Pick<DriftReport, 'entries'>): DriftReported {
  const changed = report.entries.filter((e) => e.change !== null && e.change !== 'unchanged');
  const line = (e: DriftReport['entries'][number]) => `${e.change} ${e.id}: ${e.before === undefined ? '' : `${e.before} → `}${e.observed}`;
  return {
    additive: changed.filter((e) => e.severity === 'additive' && e.change === 'added').map(line),
    observations: changed.filter((e) => e.severity !== 'additive' && e.severity !== 'breaking').map(line),
  };
}

export interface MutationRow {
  drift: string;
  kind: DriftKind | 'conforming';
  clause: string;
  detected: boolean;
  /** What the row means for the score. */
  verdict: 'detected' | 'MISSED' | 'green' | 'BASELINE CHANGED' | 'reported' | 'NOT REPORTED' | 'FALSE POSITIVE' | 'RUN ERROR';
  failed: string[];
  firstMessage?: string;
  /** The first change the drift report lists: the drift's, or the conforming run's against the baseline. */
  reported?: string;
  seconds: number;
}

export interface MutationResult {
  rows: MutationRow[];
  breaking: number;
  detected: number;
  /** Additive and undocumented drifts, and how many of them the drift report listed. */
  reportable: number;
  reported: number;
  falsePositives: number;
  runErrors: number;
  ok: boolean;
  scoreLine: string;
}

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

/** The first meaningful line of a Playwright error message (no colours, no "Error: " prefix). */
export function firstLine(message: string | undefined): string | undefined {
  const line = message
    ?.replace(ANSI, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line?.replace(/^Error:\s*/, '');
}

function verdictOf(kind: MutationRow['kind'], run: SuiteRun, detected: boolean, reported: boolean): MutationRow['verdict'] {
  if (run.error) return 'RUN ERROR';
  if (kind === 'breaking') return detected ? 'detected' : 'MISSED';
  if (detected) return 'FALSE POSITIVE';
  if (kind === 'conforming') return reported ? 'BASELINE CHANGED' : 'green';
  return reported ? 'reported' : 'NOT REPORTED';
}

export function scoreMutations(conforming: SuiteRun, drifts: Array<{ drift: DriftInfo; run: SuiteRun }>): MutationResult {
  const row = (drift: string, kind: MutationRow['kind'], clause: string, run: SuiteRun): MutationRow => {
    const detected = run.failed.length > 0;
    const lists = run.reported ?? { additive: [], observations: [] };
    const reported = kind === 'additive' ? lists.additive : kind === 'undocumented' ? lists.observations : kind === 'conforming' ? [...lists.additive, ...lists.observations] : [];
    const verdict = verdictOf(kind, run, detected, reported.length > 0);
    return {
      drift,
      kind,
      clause,
      detected,
      verdict,
      failed: run.failed,
      seconds: run.seconds,
      ...(run.firstMessage ? { firstMessage: run.firstMessage } : {}),
      ...(reported[0] ? { reported: reported[0] } : {}),
    };
  };
  const rows = [row('(none: conforming simulator)', 'conforming', '', conforming), ...drifts.map(({ drift, run }) => row(drift.name, drift.kind, drift.clause, run))];
  const breaking = rows.filter((r) => r.kind === 'breaking').length;
  const detected = rows.filter((r) => r.kind === 'breaking' && r.verdict === 'detected').length;
  const reportable = rows.filter((r) => r.kind === 'additive' || r.kind === 'undocumented').length;
  const reported = rows.filter((r) => r.verdict === 'reported').length;
  const falsePositives = rows.filter((r) => r.verdict === 'FALSE POSITIVE').length;
  const runErrors = rows.filter((r) => r.verdict === 'RUN ERROR').length;
  return {
    rows,
    breaking,
    detected,
    reportable,
    reported,
    falsePositives,
    runErrors,
    ok: detected === breaking && reported === reportable && falsePositives === 0 && runErrors === 0 && rows[0]!.verdict === 'green',
    scoreLine:
      `mutation score: ${detected}/${breaking} breaking drifts detected, ${reported}/${reportable} additive and undocumented drifts ` +
      `reported in the drift report, ${falsePositives} false positives${runErrors ? `, ${runErrors} runs broken` : ''}`,
  };
}

/** Console table: drift, kind, verdict, the tests that caught it, the first message. */
export function renderTable(result: MutationResult): string {
  const width = Math.max(...result.rows.map((r) => r.drift.length));
  const lines = result.rows.map((r) => {
    const by = r.failed.length ? `${r.failed.length} failed, e.g. ${r.failed[0]}` : '';
    const head = `${r.drift.padEnd(width)}  ${r.kind.padEnd(12)}  ${r.verdict.padEnd(14)}  ${by}`;
    const why = r.firstMessage ?? r.reported;
    return why ? `${head}\n${' '.repeat(width + 2)}↳ ${why}` : head;
  });
  return [...lines, '', result.scoreLine].join('\n');
}
