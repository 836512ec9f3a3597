// The drift report as Markdown (for a PR comment or a ticket) and as one self-contained HTML page (inline CSS and
// JS, a Content-Security-Policy that forbids any network use), both rendered from the same DriftReport.
import { acknowledgementText, expiredLine, resolvedLine } from './acknowledged.ts';
import { escapeHtml, htmlPage } from './html.ts';
import { SEVERITIES, SEVERITY_LABEL, type DriftEntry, type DriftReport } from './drift-report.ts';
import { cell, fenced } from './markdown.ts';

const HEADINGS: Record<(typeof SEVERITIES)[number], string> = {
  breaking: 'Breaking contract failures',
  learned: 'Learned-contract failures (what the vendor did in the baseline, no longer done)',
  acknowledged: 'Acknowledged drifts (known, with a vendor ticket)',
  changed: 'Undocumented behaviour changed since the baseline',
  additive: 'Additive fields',
  new: 'New observations',
  unreached: 'Not reached: items of the baseline this run did not set out to observe, or whose test failed before recording them (no change, no ticket)',
  unchanged: 'Unchanged since the baseline',
  fixed: 'Fixed since the baseline (contract failures of the baseline no longer seen)',
};

function baselineLine(report: DriftReport): string {
  return report.baseline === null
    ? 'No baseline compared: every observation is listed as new.'
    : `Compared with baseline ${report.baseline}: ${report.changes} change${report.changes === 1 ? '' : 's'}.`;
}

/** Expired and resolved acknowledgements: what to do about baselines/acknowledged.yaml. */
function acknowledgementLines(report: DriftReport): string[] {
  return [...report.expired.map(expiredLine), ...report.resolved.map(resolvedLine)];
}

function markdownEntry(e: DriftEntry): string {
  return [
    `### ${e.operation || 'API'}: ${e.item}`,
    '',
    `- Id: \`${e.id}\``,
    `- Specification: §${e.section}`,
    `- Documented: ${e.documented}`,
    `- Observed: ${e.observed}`,
    ...(e.before !== undefined ? [`- Before: ${e.before}`] : []),
    ...(e.acknowledgement ? [`- Acknowledged: ${acknowledgementText(e.acknowledgement)}`] : []),
    ...(e.test ? [`- Found by: ${e.test}`] : []),
    ...(e.severity !== 'unreached' ? ['', '<details><summary>Vendor ticket</summary>', '', fenced(e.ticket), '', '</details>'] : []),
  ].join('\n');
}

/** The learned document of the run, beside the report: the overlay and the document with it applied. */
export interface LearnedLinks {
  overlay: string;
  document: string;
}

const LEARNED = 'What this run observed where the specification says "not shown", as an OpenAPI Overlay for the vendor:';

export function renderMarkdown(report: DriftReport, links?: LearnedLinks): string {
  const out = [
    '# Drift report',
    '',
    baselineLine(report),
    ...(links ? ['', `${LEARNED} [${links.overlay}](${links.overlay}); applied to the document: [${links.document}](${links.document})`] : []),
    ...acknowledgementLines(report).map((line) => `\n- ${line}`),
    '',
    `| ${SEVERITIES.join(' | ')} |`,
    `|${SEVERITIES.map(() => '---:').join('|')}|`,
    `| ${SEVERITIES.map((s) => report.counts[s]).join(' | ')} |`,
  ];
  for (const severity of SEVERITIES.filter((s) => s !== 'unchanged')) {
    const entries = report.entries.filter((e) => e.severity === severity);
    if (entries.length > 0) out.push('', `## ${HEADINGS[severity]} (${entries.length})`, '', entries.map(markdownEntry).join('\n\n'));
  }
  const unchanged = report.entries.filter((e) => e.severity === 'unchanged');
  if (unchanged.length > 0) {
    out.push('', `## ${HEADINGS.unchanged} (${unchanged.length})`, '', '| id | § | observed |', '|---|---|---|');
    for (const e of unchanged) out.push(`| \`${e.id}\` | ${e.section} | ${cell(e.observed)} |`);
  }
  return `${out.join('\n')}\n`;
}

function htmlRow(e: DriftEntry): string {
  const more = [
    ['Id', e.id],
    ['Documented', e.documented],
    ...(e.before !== undefined ? [['Before', e.before]] : []),
    ...(e.acknowledgement ? [['Acknowledged', acknowledgementText(e.acknowledgement)]] : []),
    ...(e.test ? [['Found by', e.test]] : []),
  ]
    .map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v!)}</dd>`)
    .join('');
  return [
    `<tr class="entry sev-${e.severity}" data-severity="${e.severity}" data-id="${escapeHtml(e.id)}">`,
    `<td><span class="badge sev-${e.severity}">${e.severity}</span></td>`,
    `<td>${e.change ?? ''}</td>`,
    `<td>${escapeHtml(e.operation)}</td>`,
    `<td>${escapeHtml(e.section)}</td>`,
    `<td><details><summary>${escapeHtml(e.item)}</summary><dl>${more}</dl>`,
    `<h4>Evidence</h4><pre class="evidence">${escapeHtml(e.evidence ?? 'no single request shows it; see the test in the Playwright HTML report')}</pre>`,
    // An item the run did not reach is no vendor's: no ticket to copy.
    e.severity === 'unreached'
      ? '</details></td>'
      : `<h4>Vendor ticket</h4><pre class="ticket" title="one click selects the whole ticket">${escapeHtml(e.ticket)}</pre></details></td>`,
    `<td class="observed">${escapeHtml(e.observed)}</td>`,
    '</tr>',
  ].join('');
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d232a}
h1{margin:0 0 .25rem}
.summary{display:flex;gap:.75rem;flex-wrap:wrap;margin:1rem 0}
.count{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .9rem;cursor:pointer;background:#fff;font:inherit;text-align:left}
.count .n{display:block;font-size:1.6rem;font-weight:600}
.filters{display:flex;gap:1rem;align-items:center;margin:.5rem 0 1rem}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #e5e8eb;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;position:sticky;top:0}
td.observed{font-family:ui-monospace,monospace;word-break:break-word;max-width:28rem}
.badge{border-radius:999px;padding:.05rem .55rem;font-size:.8rem;color:#fff}
.badge.sev-breaking{background:#cf222e}.count.sev-breaking .n{color:#cf222e}
.badge.sev-learned{background:#bc4c00}.count.sev-learned .n{color:#bc4c00}
.badge.sev-acknowledged{background:#57606a}.count.sev-acknowledged .n{color:#57606a}
.badge.sev-changed{background:#bf8700}.count.sev-changed .n{color:#bf8700}
.badge.sev-additive{background:#0969da}.count.sev-additive .n{color:#0969da}
.badge.sev-new{background:#8250df}.count.sev-new .n{color:#8250df}
.badge.sev-unchanged{background:#6e7781}.count.sev-unchanged .n{color:#6e7781}
summary{cursor:pointer}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .75rem;margin:.5rem 0}
dt{font-weight:600}
pre{background:#f6f8fa;padding:.5rem;white-space:pre-wrap;word-break:break-word}
pre.ticket{user-select:all}
`;

const SCRIPT = `
const filter = document.getElementById('filter');
const severity = document.getElementById('severity');
const shown = document.getElementById('shown');
const rows = [...document.querySelectorAll('tr.entry')];
function apply() {
  const text = filter.value.trim().toLowerCase();
  let n = 0;
  for (const row of rows) {
    const visible = (!severity.value || row.dataset.severity === severity.value) && (!text || row.textContent.toLowerCase().includes(text));
    row.hidden = !visible;
    if (visible) n++;
  }
  shown.textContent = n + ' of ' + rows.length + ' shown';
}
filter.addEventListener('input', apply);
severity.addEventListener('change', apply);
for (const count of document.querySelectorAll('.count')) {
  count.addEventListener('click', () => { severity.value = severity.value === count.dataset.severity ? '' : count.dataset.severity; apply(); });
}
apply();
// drift.html#ID (the job summary's links) opens that entry.
const wanted = rows.find((row) => row.dataset.id === decodeURIComponent(location.hash.slice(1)));
if (wanted) { wanted.querySelector('details').open = true; wanted.scrollIntoView(); }
`;

export function renderHtml(report: DriftReport, links?: LearnedLinks): string {
  const counts = SEVERITIES.map(
    (s) =>
      `<button type="button" class="count sev-${s}" data-severity="${s}"><span class="n" data-testid="count-${s}">${report.counts[s]}</span>${escapeHtml(SEVERITY_LABEL[s])}</button>`,
  ).join('');
  const options = SEVERITIES.map((s) => `<option value="${s}">${s}</option>`).join('');
  const rows = report.entries.length > 0 ? report.entries.map(htmlRow).join('\n') : '<tr><td colspan="6">No entries: the run recorded nothing.</td></tr>';
  return htmlPage({
    title: 'Drift report',
    style: STYLE,
    script: SCRIPT,
    body: `<h1>Drift report</h1>
<p class="baseline">${escapeHtml(baselineLine(report))}</p>
${links ? `<p class="learned">${escapeHtml(LEARNED)} <a href="${escapeHtml(links.overlay)}">${escapeHtml(links.overlay)}</a>; applied to the document: <a href="${escapeHtml(links.document)}">${escapeHtml(links.document)}</a></p>` : ''}
${acknowledgementLines(report)
  .map((line) => `<p class="acknowledgement">${escapeHtml(line)}</p>`)
  .join('\n')}
<section class="summary" aria-label="Counts by severity">${counts}</section>
<div class="filters">
<label for="filter">Filter</label> <input id="filter" type="search" placeholder="id, operation, observed, evidence…">
<label for="severity">Severity</label> <select id="severity"><option value="">all</option>${options}</select>
<span id="shown"></span>
</div>
<table id="entries">
<thead><tr><th>Severity</th><th>Change</th><th>Operation</th><th>§</th><th>Item (click for evidence and ticket)</th><th>Observed</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  });
}
