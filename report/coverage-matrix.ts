// Which (operation, documented status) pairs a run exercised, which it could not, and why. Pure: the caller
// supplies the documented pairs, the exchanges it recorded, and the reasons some pairs cannot be driven.
import { escapeHtml, htmlPage } from './html.ts';
import type { VariantRow } from './variants.ts';

export interface DocumentedOperation {
  operationId: string;
  label: string;
  /** Response keys of the document: "200", "2XX", "404"... */
  statuses: string[];
}

export interface SeenExchange {
  operationId: string;
  status: number;
}

export interface CoverageRow {
  operationId: string;
  operation: string;
  status: string;
  exercised: number;
  /** Why the run could not drive this pair, when it did not. */
  reason?: string;
}

export interface Coverage {
  rows: CoverageRow[];
  /** Statuses seen that the document does not list for the operation. */
  undocumented: Array<{ operationId: string; status: number; count: number }>;
  exercised: number;
  documented: number;
}

export const matchesKey = (key: string, status: number) => key === String(status) || key === `${String(status)[0]}XX`;

export function coverageMatrix(operations: DocumentedOperation[], exchanges: SeenExchange[], reasons: Record<string, string>): Coverage {
  const rows: CoverageRow[] = [];
  const undocumented = new Map<string, { operationId: string; status: number; count: number }>();
  for (const op of operations) {
    const mine = exchanges.filter((e) => e.operationId === op.operationId);
    for (const status of op.statuses) {
      const exercised = mine.filter((e) => matchesKey(status, e.status)).length;
      const reason = reasons[`${op.operationId} ${status}`];
      rows.push({ operationId: op.operationId, operation: op.label, status, exercised, ...(exercised === 0 && reason ? { reason } : {}) });
    }
    for (const e of mine) {
      // An exact key wins over a range: a status is documented if any key matches it.
      if (op.statuses.some((key) => matchesKey(key, e.status))) continue;
      const key = `${op.operationId} ${e.status}`;
      const entry = undocumented.get(key) ?? { operationId: op.operationId, status: e.status, count: 0 };
      entry.count++;
      undocumented.set(key, entry);
    }
  }
  return { rows, undocumented: [...undocumented.values()], exercised: rows.filter((r) => r.exercised > 0).length, documented: rows.length };
}

/** One (state × trigger) pair of spec §3: how often the run walked it, what the trigger answered and left. */
export interface StateRow {
  pair: string;
  walked: number;
  /** The trigger's statuses, each with the status strings the dialog read afterwards. */
  outcomes: Array<{ status: number; after: string[] }>;
  /** Why the run did not walk it, when it did not. */
  reason?: string;
}

/** The steps a run walked, by pair, in the order of `pairs`; a pair not walked carries its reason when one is given. */
export function stateMatrix(
  pairs: readonly string[],
  steps: ReadonlyArray<{ pair: string; status: number; after: string | null }>,
  reasons: Record<string, string>,
): StateRow[] {
  return pairs.map((pair) => {
    const mine = steps.filter((s) => s.pair === pair);
    const statuses = [...new Set(mine.map((s) => s.status))].sort((a, b) => a - b);
    const outcomes = statuses.map((status) => ({
      status,
      after: [...new Set(mine.filter((s) => s.status === status).map((s) => s.after ?? '(not read)'))].sort(),
    }));
    const reason = reasons[pair];
    return { pair, walked: mine.length, outcomes, ...(mine.length === 0 && reason ? { reason } : {}) };
  });
}

/** A check of the run: how often its tests judged it and how often it failed, or why it was not run. */
export interface CheckRow {
  name: string;
  sections: readonly string[];
  severity: string;
  evidence: string;
  /** Judgements in all, and how many failed: `live` at the tests' call sites, `journal` by the engine over the run's journal. */
  judged: number;
  failed: number;
  live: number;
  journal: number;
  /** Why it was not judged in this run: left out, or no test of the run reached it. */
  notRun?: string;
}

type Counts = Readonly<Record<string, { judged: number; failed: number }>>;

/** Each check of the run with what its tests judged at their call sites and what the engine judged of the journal (by check name). */
export function checkRows(
  checks: ReadonlyArray<{ name: string; sections: readonly string[]; severity: string; evidence: string; run: boolean }>,
  live: Counts,
  journal: Counts = {},
): CheckRow[] {
  return checks.map(({ run, ...check }) => {
    const [a, b] = [live[check.name] ?? { judged: 0, failed: 0 }, journal[check.name] ?? { judged: 0, failed: 0 }];
    const seen = { judged: a.judged + b.judged, failed: a.failed + b.failed, live: a.judged, journal: b.judged };
    const notRun = !run
      ? 'not run: left out by --checks/--exclude-checks'
      : seen.judged === 0
        ? 'not judged: no test of this run reached it, and its journal held none of its evidence'
        : undefined;
    return { ...check, ...seen, ...(notRun ? { notRun } : {}) };
  });
}

/** Pairs neither exercised nor explained: each is a hole in the suite. */
export const unexplained = (coverage: Coverage) => coverage.rows.filter((r) => r.exercised === 0 && !r.reason);

/** The coverage report: pairs of §7, then the §3 walk, the documented variants and the checks, each table when given. */
export function coverageHtml(
  coverage: Coverage,
  states: readonly StateRow[] = [],
  variants: readonly VariantRow[] = [],
  checks: readonly CheckRow[] = [],
): string {
  const rows = coverage.rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.operation)}</td><td>${r.status}</td><td>${r.exercised || ''}</td><td>${r.exercised ? 'exercised' : escapeHtml(r.reason ?? 'NOT EXERCISED')}</td></tr>`,
    )
    .join('\n');
  const stateRows = states
    .map((r) => {
      const outcome = r.outcomes.map((o) => `${o.status} → ${o.after.join(', ')}`).join('; ');
      return `<tr><td>${escapeHtml(r.pair)}</td><td>${r.walked || ''}</td><td>${r.walked ? escapeHtml(outcome) : escapeHtml(r.reason ?? 'NOT WALKED')}</td></tr>`;
    })
    .join('\n');
  const walked = states.filter((r) => r.walked > 0).length;
  const stateTable = states.length
    ? `<h2>State × trigger (spec §3): ${walked}/${states.length} walked</h2>
<table><thead><tr><th>state × trigger</th><th>walks</th><th>status → status read afterwards</th></tr></thead><tbody>
${stateRows}
</tbody></table>`
    : '';
  const variantRows = variants
    .map(
      (r) =>
        `<tr><td>§${r.section}</td><td>${escapeHtml(r.operation)}</td><td>${escapeHtml(r.variant)}</td><td>${r.exercised || ''}</td><td>${r.exercised ? escapeHtml(`exercised, first by ${r.by}`) : escapeHtml(r.reason ?? 'NOT EXERCISED')}</td></tr>`,
    )
    .join('\n');
  const variantTable = variants.length
    ? `<h2>Documented variants (spec §3, §4): ${variants.filter((r) => r.exercised > 0).length}/${variants.length} exercised</h2>
<table><thead><tr><th>section</th><th>operation</th><th>variant</th><th>requests or steps</th><th>outcome</th></tr></thead><tbody>
${variantRows}
</tbody></table>`
    : '';
  const checkTable = checks.length
    ? `<h2>Checks: ${checks.filter((c) => c.judged > 0).length}/${checks.length} judged</h2>
<table><thead><tr><th>check</th><th>spec</th><th>severity</th><th>evidence</th><th>judged live</th><th>judged from the journal</th><th>failed</th></tr></thead><tbody>
${checks
  .map(
    (c) =>
      `<tr><td>${escapeHtml(c.name)}</td><td>§${escapeHtml(c.sections.join(', §'))}</td><td>${c.severity}</td><td>${escapeHtml(c.evidence)}</td>${c.notRun ? `<td colspan="2">${escapeHtml(c.notRun)}</td>` : `<td>${c.live}</td><td>${c.journal}</td>`}<td>${c.failed || ''}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : '';
  const extra = coverage.undocumented.map((u) => `<li>${escapeHtml(u.operationId)}: undocumented status ${u.status} seen ${u.count}×</li>`).join('');
  return htmlPage({
    title: 'Contract coverage',
    style: 'table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:4px}',
    body: `<h1>Contract coverage: ${coverage.exercised}/${coverage.documented} documented (operation, status) pairs exercised</h1>
<table><thead><tr><th>operation</th><th>status</th><th>requests</th><th>outcome</th></tr></thead><tbody>
${rows}
</tbody></table>${stateTable}${variantTable}${checkTable}${extra ? `<h2>Undocumented statuses seen</h2><ul>${extra}</ul>` : ''}`,
  });
}
