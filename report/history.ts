// The history of a fingerprint across baselines (before and after vendor upgrades): each item's value in each
// baseline, in the order they were taken, and where it changed. Rendered as one self-contained HTML page. Pure.
import type { FingerprintItem, RunMeta } from '../lib/fingerprint.ts';
import { stableStringify } from '../lib/json.ts';
import { escapeHtml, htmlPage } from './html.ts';

export interface NamedFingerprint {
  name: string;
  run: RunMeta | null;
  items: readonly FingerprintItem[];
  observedBy?: Record<string, string[]>;
  partial?: string;
}

export interface HistoryRow {
  id: string;
  operation: string;
  section: string;
  item: string;
  /** The value in each baseline (JSON text), null where the baseline lacks the item. */
  values: Array<string | null>;
  /** Baseline indexes where the value differs from the one before. */
  changedAt: number[];
}

export interface History {
  columns: Array<{ name: string; date: string | null; target: string | null; vendorVersion: string | null }>;
  rows: HistoryRow[];
}

/** Baselines in the order they were taken (those without a date, saved before metadata existed, first, by name). */
export function buildHistory(baselines: readonly NamedFingerprint[]): History {
  const ordered = [...baselines].sort((a, b) => (a.run?.startedAt ?? '').localeCompare(b.run?.startedAt ?? '') || a.name.localeCompare(b.name));
  const ids = [...new Set(ordered.flatMap((b) => b.items.map((i) => i.id)))].sort();
  const rows = ids.map((id) => {
    const found = ordered.map((b) => b.items.find((i) => i.id === id));
    const any = found.find(Boolean)!;
    const values = found.map((i) => (i ? stableStringify(i.observed, 0) : null));
    const changedAt = values.flatMap((v, n) => (n > 0 && v !== values[n - 1] ? [n] : []));
    return { id, operation: any.operation, section: any.section, item: any.item, values, changedAt };
  });
  return {
    columns: ordered.map((b) => ({ name: b.name, date: b.run?.startedAt ?? null, target: b.run?.target ?? null, vendorVersion: b.run?.vendorVersion ?? null })),
    rows,
  };
}

export function renderHistoryHtml(history: History): string {
  const head = history.columns
    .map(
      (c) =>
        `<th>${escapeHtml(c.name)}<br><small>${escapeHtml([c.date?.slice(0, 10), c.target, c.vendorVersion].filter(Boolean).join(' · ') || 'no metadata')}</small></th>`,
    )
    .join('');
  const rows = history.rows
    .map((r) => {
      const cells = r.values
        .map((v, n) => `<td class="${v === null ? 'absent' : r.changedAt.includes(n) ? 'changed' : ''}">${v === null ? '—' : escapeHtml(v)}</td>`)
        .join('');
      return `<tr class="item${r.changedAt.length ? ' has-change' : ''}" data-id="${escapeHtml(r.id)}"><td><b>${escapeHtml(r.id)}</b><br><small>§${escapeHtml(r.section)} ${escapeHtml(r.operation)}: ${escapeHtml(r.item)}</small></td>${cells}</tr>`;
    })
    .join('\n');
  const changed = history.rows.filter((r) => r.changedAt.length > 0).length;
  return htmlPage({
    title: 'Fingerprint history',
    style: `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d232a}
table{border-collapse:collapse}th,td{border:1px solid #e5e8eb;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f6f8fa;position:sticky;top:0}td{font-family:ui-monospace,monospace;word-break:break-word;max-width:24rem}
td.changed{background:#fff8c5}td.absent{color:#8c959f}
`,
    body: `<h1>Fingerprint history</h1>
<p id="summary">${history.rows.length} items over ${history.columns.length} baselines; <span data-testid="changed-count">${changed}</span> changed at least once (highlighted where they changed).</p>
<label><input type="checkbox" id="only-changed"> only items that changed</label>
<table id="history"><thead><tr><th>Item</th>${head}</tr></thead><tbody>
${rows}
</tbody></table>`,
    script: `
const box = document.getElementById('only-changed');
box.addEventListener('change', () => { for (const row of document.querySelectorAll('tr.item')) row.hidden = box.checked && !row.classList.contains('has-change'); });
`,
  });
}
