// Scores the contract suite against the simulator's drift modes. Pure: takes the drift list and what each run
// reported, returns rows, the score line and whether the run passes.

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
}

export interface MutationRow {
  drift: string;
  kind: DriftKind | 'conforming';
  clause: string;
  detected: boolean;
  /** What the row means for the score. */
  verdict: 'detected' | 'MISSED' | 'green' | 'FALSE POSITIVE' | 'RUN ERROR';
  failed: string[];
  firstMessage?: string;
  seconds: number;
}

export interface MutationResult {
  rows: MutationRow[];
  breaking: number;
  detected: number;
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

export function scoreMutations(conforming: SuiteRun, drifts: Array<{ drift: DriftInfo; run: SuiteRun }>): MutationResult {
  const row = (drift: string, kind: MutationRow['kind'], clause: string, run: SuiteRun): MutationRow => {
    const detected = run.failed.length > 0;
    const mustFail = kind === 'breaking';
    const verdict: MutationRow['verdict'] = run.error ? 'RUN ERROR' : mustFail ? (detected ? 'detected' : 'MISSED') : detected ? 'FALSE POSITIVE' : 'green';
    return { drift, kind, clause, detected, verdict, failed: run.failed, seconds: run.seconds, ...(run.firstMessage ? { firstMessage: run.firstMessage } : {}) };
  };
  const rows = [row('(none: conforming simulator)', 'conforming', '', conforming), ...drifts.map(({ drift, run }) => row(drift.name, drift.kind, drift.clause, run))];
  const breaking = rows.filter((r) => r.kind === 'breaking').length;
  const detected = rows.filter((r) => r.kind === 'breaking' && r.verdict === 'detected').length;
  const falsePositives = rows.filter((r) => r.verdict === 'FALSE POSITIVE').length;
  const runErrors = rows.filter((r) => r.verdict === 'RUN ERROR').length;
  return {
    rows,
    breaking,
    detected,
    falsePositives,
    runErrors,
    ok: detected === breaking && falsePositives === 0 && runErrors === 0,
    scoreLine: `mutation score: ${detected}/${breaking} breaking drifts detected, ${falsePositives} false positives${runErrors ? `, ${runErrors} runs broken` : ''}`,
  };
}

/** Console table: drift, kind, verdict, the tests that caught it, the first message. */
export function renderTable(result: MutationResult): string {
  const width = Math.max(...result.rows.map((r) => r.drift.length));
  const lines = result.rows.map((r) => {
    const by = r.failed.length ? `${r.failed.length} failed, e.g. ${r.failed[0]}` : '';
    const head = `${r.drift.padEnd(width)}  ${r.kind.padEnd(12)}  ${r.verdict.padEnd(14)}  ${by}`;
    return r.firstMessage ? `${head}\n${' '.repeat(width + 2)}↳ ${r.firstMessage}` : head;
  });
  return [...lines, '', result.scoreLine].join('\n');
}
