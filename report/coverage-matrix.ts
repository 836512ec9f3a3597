// Which (operation, documented status) pairs a run exercised, which it could not, and why. Pure: the caller
// supplies the documented pairs, the exchanges it recorded, and the reasons some pairs cannot be driven.
import { escapeHtml, htmlPage } from './html.ts';

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

/** Pairs neither exercised nor explained: each is a hole in the suite. */
export const unexplained = (coverage: Coverage) => coverage.rows.filter((r) => r.exercised === 0 && !r.reason);

export function coverageHtml(coverage: Coverage): string {
  const rows = coverage.rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.operation)}</td><td>${r.status}</td><td>${r.exercised || ''}</td><td>${r.exercised ? 'exercised' : escapeHtml(r.reason ?? 'NOT EXERCISED')}</td></tr>`,
    )
    .join('\n');
  const extra = coverage.undocumented.map((u) => `<li>${escapeHtml(u.operationId)}: undocumented status ${u.status} seen ${u.count}×</li>`).join('');
  return htmlPage({
    title: 'Contract coverage',
    style: 'table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:4px}',
    body: `<h1>Contract coverage: ${coverage.exercised}/${coverage.documented} documented (operation, status) pairs exercised</h1>
<table><thead><tr><th>operation</th><th>status</th><th>requests</th><th>outcome</th></tr></thead><tbody>
${rows}
</tbody></table>${extra ? `<h2>Undocumented statuses seen</h2><ul>${extra}</ul>` : ''}`,
  });
}
