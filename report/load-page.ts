// A load report as one self-contained HTML page (<script>.html beside <script>.json): the target and the time, the
// thresholds passed or failed, each rate ladder drawn (discovery/ladder-analysis.ts) with the limit found and its
// confidence, each size search as its steps and the limit it found, and for a merged report each runner's share.
// Inline SVG and style, no script, a policy that forbids the network: it reads offline, from an artifact or a pod's
// volume. Everything the target said (bodies, headers, names) is escaped. Pure and k6-safe: handleSummary writes it
// inside k6 (load/scripts/common/summary.ts), `npm run load:merge` in Node.
import { confidenceText, isRungThreshold, refusalText, type LadderResult } from '../discovery/ladder-analysis.ts';
import { isSplit, segmentLabel } from '../discovery/execution-segment.ts';
import { reportName, type LoadReport } from '../discovery/load-summary.ts';
import type { MergedReport } from '../discovery/merge-reports.ts';
import { sizeLimitLine, type SizeLimitFinding } from '../discovery/size-limits.ts';
import { redactIn, redactText } from '../http/redact.ts';
import { escapeHtml, htmlPage } from './html.ts';
import { ladderChart, rungMarks, searchChart } from './load-charts.ts';
import { num, percent } from './svg.ts';

const esc = (value: unknown) => escapeHtml(String(value));
const ms = (value: number | null) => (value === null ? '?' : `${num(value)} ms`);

const isMerged = (report: LoadReport): report is MergedReport => Array.isArray((report as Partial<MergedReport>).runners);

interface Findings {
  ladders?: LadderResult[];
  limits?: SizeLimitFinding[];
}

/** "2026-11-24 10:00:05 UTC" from an ISO time. */
const when = (iso: string) => iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');

function header(report: LoadReport): string {
  const part = isMerged(report)
    ? `merged from ${report.runners.length} runner${report.runners.length === 1 ? '' : 's'} (${report.segment.text === '0:1' ? 'the whole test' : `segments ${report.segment.text}`})`
    : isSplit(report.segment)
      ? segmentLabel(report.segment)
      : 'the whole test';
  return `<header>
<h1>k6 load: ${esc(report.script)}</h1>
<dl class="meta">
<dt>Target</dt><dd data-testid="target">${esc(report.target)}</dd>
<dt>Started</dt><dd data-testid="started"><time datetime="${esc(report.startedAt)}">${esc(when(report.startedAt))}</time></dd>
<dt>Duration</dt><dd>${num(report.durationSeconds)} s</dd>
<dt>Part</dt><dd data-testid="part">${esc(part)}</dd>
</dl>
</header>`;
}

function summary(report: LoadReport): string {
  const judged = report.thresholds.filter((t) => !isRungThreshold(t.metric, t.expression) || !t.ok);
  const failed = report.thresholds.filter((t) => !t.ok).length;
  const passes = report.checks.reduce((n, c) => n + c.passes, 0);
  const total = passes + report.checks.reduce((n, c) => n + c.fails, 0);
  const r = report.requests;
  const card = (label: string, value: string, ok: boolean, id: string) =>
    `<div class="card ${ok ? 'pass' : 'fail'}"><span class="label">${esc(label)}</span><span class="value" data-testid="${id}">${esc(value)}</span></div>`;
  return `<section class="cards">
${card('Thresholds', failed === 0 ? `all ${judged.length} passed` : `${failed} of ${judged.length} failed`, failed === 0, 'thresholds-verdict')}
${card('Checks', total === 0 ? 'none ran' : `${percent(passes / total)} of ${total} passed`, passes === total, 'checks-verdict')}
${card('Requests', `${r.count} (${num(r.perSecond)}/s), failed ${percent(r.failedRatio)}, p95 ${ms(r.p95Ms)}`, true, 'requests')}
</section>`;
}

function thresholds(report: LoadReport): string {
  const row = (t: LoadReport['thresholds'][number]) =>
    `<tr class="threshold ${t.ok ? 'pass' : 'fail'}" data-testid="threshold"><td><code>${esc(t.metric)}</code></td><td><code>${esc(t.expression)}</code></td><td>${t.ok ? 'pass' : 'FAIL'}</td></tr>`;
  const judged = report.thresholds.filter((t) => !isRungThreshold(t.metric, t.expression) || !t.ok);
  const exposing = report.thresholds.length - judged.length;
  return `<section id="thresholds">
<h2>Thresholds</h2>
<table><thead><tr><th>Metric</th><th>Threshold</th><th>Result</th></tr></thead><tbody>
${judged.map(row).join('\n')}
</tbody></table>
${exposing > 0 ? `<p class="note">And ${exposing} per-rung thresholds that judge nothing: they only make k6 report each rung's counts and p95.</p>` : ''}
</section>`;
}

function ladder(result: LadderResult): string {
  const { estimatedLimit, confidence, sustainedRate, firstLimited, rejection } = result.analysis;
  const limit =
    estimatedLimit === null
      ? `<p class="finding"><strong data-testid="limit-value">No rate limit reached</strong> up to ${num(Math.max(...result.analysis.stages.map((s) => s.targetRate)))}/s.</p>`
      : `<p class="finding"><strong>Rate limit ≈ <span data-testid="limit-value">${num(estimatedLimit)}</span>/s</strong>${
          confidence
            ? ` <span class="confidence ${esc(confidence.level)}" data-testid="confidence">${esc(confidenceText(confidence))}</span>: ${esc(confidence.basis)}.`
            : ''
        }</p>`;
  const until = firstLimited ? `; first rung not sustained: ${num(firstLimited.targetRate)}/s (${firstLimited.verdict})` : '';
  const refused = refusalText(rejection);
  const refusal = `${refused[0]!.toUpperCase()}${refused.slice(1)}.`;
  const rows = rungMarks(result).map(
    (r) =>
      `<tr class="${esc(r.verdict)}"><td>${num(r.targetRate)}</td><td>${num(r.achievedRate)}</td><td>${num(r.acceptedRate)}</td><td>${percent(r.refusedShare)}</td><td>${num(r.p95Ms)}</td><td>${r.droppedIterations}</td><td>${esc(r.verdict)}</td></tr>`,
  );
  return `<section class="ladder" data-operation="${esc(result.operationId)}">
<h3>${esc(result.operation)}</h3>
${limit}
<p>Sustained: ${sustainedRate === null ? 'no rung' : `up to ${num(sustainedRate)}/s`}${esc(until)}. ${esc(refusal)}</p>
<figure>${ladderChart(result)}
<figcaption class="legend"><span class="key accepted"></span>accepted rate per rung (green sustained, red rate-limited, amber otherwise) <span class="key offered"></span>accepted = offered <span class="key limit"></span>limit found, its margin shaded <span class="key refused"></span>share refused <span class="key p95"></span>p95 latency</figcaption></figure>
<details><summary>Rungs</summary>
<table><thead><tr><th>Offered /s</th><th>Achieved /s</th><th>Accepted /s</th><th>Refused</th><th>p95 ms</th><th>Dropped</th><th>Verdict</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></details>
${rejection?.body ? `<details><summary>The refusal's body</summary><pre>${esc(rejection.body)}</pre></details>` : ''}
</section>`;
}

function search(finding: SizeLimitFinding): string {
  const { result, refusal } = finding;
  const head = `<h3>${esc(finding.id)} <small>${esc(finding.operation)}</small></h3>`;
  if (!result)
    return `<section class="search" data-id="${esc(finding.id)}">${head}<p>Not searched: ${esc(finding.skipped ?? 'no reason given')}.</p></section>`;
  const how =
    refusal?.clampedTo !== undefined
      ? `served as ${refusal.clampedTo} (clamped)`
      : refusal
        ? `refused with ${refusal.status} ${refusal.contentType ?? ''}`
        : '';
  const steps = result.probes.map(
    (p, i) => `<tr class="${p.accepted ? 'accepted' : 'refused'}"><td>${i + 1}</td><td>${p.value}</td><td>${p.accepted ? 'accepted' : 'refused'}</td></tr>`,
  );
  return `<section class="search" data-id="${esc(finding.id)}">
${head}
<p class="finding">Largest accepted: <strong data-testid="size-limit-value">${result.limit === null ? 'none' : result.limit}</strong>${
    result.firstRejected === null ? '' : `; ${result.firstRejected} ${esc(how.trim())}`
  } (${esc(result.outcome)}, ${result.requests} requests of at most ${result.bound}).</p>
<p class="line">${esc(sizeLimitLine(finding))}</p>
${result.probes.length > 0 ? `<figure>${searchChart(finding.id, result.probes, result.limit)}</figure>` : ''}
<details><summary>Steps</summary><table><thead><tr><th>Request</th><th>Value</th><th>Answer</th></tr></thead><tbody>
${steps.join('\n')}
</tbody></table></details>
${refusal?.body ? `<details><summary>The refusal's body</summary><pre>${esc(refusal.body)}</pre></details>` : ''}
</section>`;
}

function runners(report: MergedReport): string {
  const total = report.runners.reduce((n, r) => n + r.requests, 0);
  const rows = report.runners.map((r) => {
    const own = r.limits.map((l) => `${l.operation}: ${l.estimatedLimit === null ? 'no limit' : `≈ ${num(l.estimatedLimit)}/s`}`).join('; ');
    const sent = total === 0 ? 0 : r.requests / total;
    return `<tr class="runner" data-testid="runner" data-share="${num(r.segment.share)}" data-requests="${r.requests}"><td>${esc(r.runner)}</td><td>${esc(r.segment.text)}</td>
<td><span class="bar"><span style="width:${num(r.segment.share * 100)}%"></span></span> ${percent(r.segment.share)}</td>
<td><span class="bar sent"><span style="width:${num(sent * 100)}%"></span></span> ${r.requests} (${percent(sent)})</td>
<td>${esc(own || '-')}</td><td>${r.lines.map((line) => `<div>${esc(line)}</div>`).join('')}</td></tr>`;
  });
  return `<section id="runners">
<h2>Runners</h2>
<table><thead><tr><th>Runner</th><th>Segment</th><th>Share of the test</th><th>Requests sent</th><th>Its own rate limit</th><th>Its findings</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h3>Disagreements</h3>
${report.disagreements.length === 0 ? '<p data-testid="disagreements">none</p>' : `<ul data-testid="disagreements">${report.disagreements.map((d) => `<li>${esc(d)}</li>`).join('')}</ul>`}
</section>`;
}

function operations(report: LoadReport): string {
  if (report.operations.length === 0) return '';
  const rows = report.operations.map((o) => `<tr><td>${esc(o.operation)}</td><td>${o.count ?? '?'}</td><td>${ms(o.p95Ms)}</td><td>${ms(o.p99Ms)}</td></tr>`);
  return `<section id="operations"><h2>Operations</h2><table><thead><tr><th>Operation</th><th>Requests</th><th>p95</th><th>p99</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>${isMerged(report) ? '<p class="note">p95 and p99 are the highest runner\'s: percentiles do not add (an upper bound).</p>' : ''}</section>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:64rem;padding:0 1rem;color:#1d2327}
h1{font-size:1.4rem;margin:0 0 .5rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #ddd}h3{font-size:1rem;margin:1.2rem 0 .3rem}
small{color:#555;font-weight:normal}.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:0}.meta dt{color:#555}.meta dd{margin:0}
.cards{display:flex;gap:.8rem;flex-wrap:wrap;margin:1rem 0}.card{border:1px solid #ccc;border-left:6px solid #2e7d32;padding:.4rem .8rem;border-radius:4px}
.card.fail{border-left-color:#c62828}.card .label{display:block;color:#555;font-size:.8rem}.card .value{font-weight:600}
table{border-collapse:collapse;margin:.4rem 0}th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}th{background:#f4f4f4}
tr.fail td,tr.refused td{background:#fdecea}tr.pass td:last-child,tr.accepted td:last-child{color:#2e7d32}tr.fail td:last-child{color:#c62828;font-weight:600}
.note,.line{color:#555}.finding{font-size:1.05rem}.confidence{padding:0 .35rem;border-radius:3px;background:#eee}.confidence.high{background:#e3f1e4}.confidence.low{background:#fdecea}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:16rem;white-space:pre-wrap;word-break:break-all}
figure{margin:.5rem 0}svg{max-width:100%;height:auto;font-size:11px;background:#fff}
svg .grid{stroke:#eee}svg .axis-line{stroke:#888}svg text{fill:#333}svg .axis-title{fill:#555}
svg .offered{stroke:#999;stroke-dasharray:4 4}svg .accepted-line{fill:none;stroke:#1565c0;stroke-width:1.5}svg .p95-line{fill:none;stroke:#6a1b9a;stroke-width:1}
svg .search-line{fill:none;stroke:#bbb}svg .limit line{stroke:#1565c0;stroke-width:1.5;stroke-dasharray:6 3}svg .limit text{fill:#1565c0;font-weight:600}svg .limit .margin{fill:#1565c0;opacity:.12}
svg .rung circle.accepted{stroke:#fff;stroke-width:1.5}svg .rung.sustained circle{fill:#2e7d32}svg .rung.rate-limited circle{fill:#c62828}
svg .rung.failing circle,svg .rung.latency-knee circle,svg .rung.under-delivered circle{fill:#ef6c00}svg .rung rect.refused{fill:#e57373}svg .rung rect.p95{fill:#6a1b9a}
svg circle.probe.accepted{fill:#2e7d32}svg circle.probe.refused{fill:#c62828}
.legend{color:#555;font-size:.85rem}.key{display:inline-block;width:.9rem;height:.6rem;margin:0 .25rem 0 .8rem;vertical-align:middle}
.key.accepted{background:#2e7d32;border-radius:50%;width:.6rem}.key.offered{border-top:2px dashed #999;height:0}.key.limit{background:#c5d8ef;border-top:2px dashed #1565c0;height:.4rem}
.key.refused{background:#e57373}.key.p95{background:#6a1b9a;width:.5rem;height:.5rem;transform:rotate(45deg)}
.bar{display:inline-block;width:6rem;height:.6rem;background:#eee;vertical-align:middle}.bar span{display:block;height:100%;background:#1565c0}.bar.sent span{background:#6a1b9a}
footer{margin-top:2rem;color:#777;font-size:.8rem}
`;

/** The page of a runner's report or of a merged one. Every value in it is escaped; nothing is redacted here. */
export function renderLoadPage(report: LoadReport): string {
  const findings = (report.findings ?? {}) as Findings;
  const ladders = findings.ladders ?? [];
  const limits = findings.limits ?? [];
  const body = [
    header(report),
    summary(report),
    ladders.length > 0 ? `<section id="ladders"><h2>Rate ladder${ladders.length === 1 ? '' : 's'}</h2>${ladders.map(ladder).join('\n')}</section>` : '',
    limits.length > 0 ? `<section id="searches"><h2>Size searches</h2>${limits.map(search).join('\n')}</section>` : '',
    isMerged(report) ? runners(report) : '',
    thresholds(report),
    operations(report),
    report.lines.length > 0 ? `<section id="findings"><h2>Findings</h2><ul>${report.lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul></section>` : '',
    `<footer>dialog-contract load report. Secrets are redacted; the page fetches nothing and runs no script. The same report as JSON: ${esc(isMerged(report) ? report.script : reportName(report.script, report.segment))}.json beside this page.</footer>`,
  ];
  return htmlPage({ title: `k6 load: ${report.script} against ${report.target}`, style: STYLE, body: body.filter((part) => part !== '').join('\n') });
}

/** The page as written beside the JSON: every string redacted before it is escaped, the page once more after. */
export function loadPageHtml(report: LoadReport, secrets: ReadonlyArray<string | undefined>): string {
  return redactText(renderLoadPage(redactIn(report, secrets)), secrets);
}
