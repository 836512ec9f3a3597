// The load page's two charts, as inline SVG: a rate ladder (offered rate across; the accepted rate per rung against
// it, the limit found with its margin; below, each rung's refused share and p95) and a size search (each value tried,
// in order, on a log axis, and the limit it closed on). Every rung and every probe is one mark (a `g.rung`, a
// `.probe`) carrying its numbers as data attributes and a tooltip, so a browser check can count them. Pure.
import { confidenceText, type LadderResult, type LadderStage, type StageReport } from '../discovery/ladder-analysis.ts';
import type { LimitProbe } from '../discovery/limit-search.ts';
import { escapeHtml } from './html.ts';
import { type Box, linearScale, logScale, num, percent, polyline, px, svg, xAxis, yAxis } from './svg.ts';

/** A rung as the chart draws it: its analysis, and the share of its requests refused, from the raw counts. */
export interface RungMark extends StageReport {
  refusedShare: number;
}

export function rungMarks(result: LadderResult): RungMark[] {
  const raw = new Map<string, LadderStage>(result.stages.map((s) => [s.name, s]));
  return result.analysis.stages.map((stage) => {
    const counts = raw.get(stage.name);
    return { ...stage, refusedShare: counts && counts.iterations > 0 ? counts.rateLimited / counts.iterations : 0 };
  });
}

const WIDTH = 760;
const RATES: Box = { left: 64, right: 690, top: 12, bottom: 232 };
const LOWER: Box = { left: 64, right: 690, top: 252, bottom: 352 };
const HEIGHT = LOWER.bottom + 40;

/** The ladder of one operation; the refused share is named by the status the target refused with. */
export function ladderChart(result: LadderResult): string {
  const rungs = rungMarks(result);
  const { estimatedLimit, confidence, rejection } = result.analysis;
  const margin = estimatedLimit !== null && confidence?.margin != null ? confidence.margin : 0;
  const highest = Math.max(1, ...rungs.map((r) => Math.max(r.targetRate, r.acceptedRate, r.achievedRate)), (estimatedLimit ?? 0) * (1 + margin));
  const x = linearScale(Math.max(1, ...rungs.map((r) => r.targetRate)) * 1.05, RATES.left, RATES.right, 8);
  const y = linearScale(highest * 1.05, RATES.bottom, RATES.top, 6);
  const share = linearScale(1, LOWER.bottom, LOWER.top);
  const p95 = linearScale(Math.max(1, ...rungs.map((r) => r.p95Ms)) * 1.1, LOWER.bottom, LOWER.top, 4);
  const refused = rejection ? `refused with ${rejection.status}` : 'refused (429 or 503)';

  const parts: string[] = [
    xAxis(x, { ...RATES, bottom: LOWER.bottom }, 'offered rate (requests per second)'),
    yAxis(y, RATES, 'left', 'requests per second'),
    yAxis(share, LOWER, 'left', 'refused', (v) => percent(v)),
    yAxis(p95, LOWER, 'right', 'p95 (ms)'),
  ];
  const diagonalEnd = Math.min(x.ticks[x.ticks.length - 1]!, y.ticks[y.ticks.length - 1]!);
  parts.push(`<line class="offered" x1="${px(x(0))}" y1="${px(y(0))}" x2="${px(x(diagonalEnd))}" y2="${px(y(diagonalEnd))}"/>`);
  if (estimatedLimit !== null) {
    const label = `limit ≈ ${num(estimatedLimit)}/s${confidence ? ` (${confidenceText(confidence)})` : ''}`;
    parts.push(
      `<g class="limit" data-testid="limit" data-value="${num(estimatedLimit)}">` +
        (margin > 0
          ? `<rect class="margin" x="${RATES.left}" width="${RATES.right - RATES.left}" y="${px(y(estimatedLimit * (1 + margin)))}" height="${px(y(estimatedLimit * (1 - margin)) - y(estimatedLimit * (1 + margin)))}"/>`
          : '') +
        `<line x1="${RATES.left}" x2="${RATES.right}" y1="${px(y(estimatedLimit))}" y2="${px(y(estimatedLimit))}"/>` +
        `<text x="${RATES.left + 6}" y="${px(y(estimatedLimit) - 6)}">${escapeHtml(label)}</text></g>`,
    );
  }
  parts.push(
    polyline(
      rungs.map((r) => [x(r.targetRate), y(r.acceptedRate)]),
      'accepted-line',
    ),
  );
  parts.push(
    polyline(
      rungs.map((r) => [x(r.targetRate), p95(r.p95Ms)]),
      'p95-line',
    ),
  );
  const gaps = rungs.slice(1).map((r, i) => x(r.targetRate) - x(rungs[i]!.targetRate));
  const bar = Math.max(3, Math.min(24, 0.6 * Math.min(40, ...gaps)));
  for (const r of rungs) {
    const cx = x(r.targetRate);
    const tip =
      `offered ${num(r.targetRate)}/s (${r.name}): achieved ${num(r.achievedRate)}/s, accepted ${num(r.acceptedRate)}/s, ` +
      `${refused} ${percent(r.refusedShare)}, p95 ${num(r.p95Ms)} ms, ${r.verdict}`;
    parts.push(
      `<g class="rung ${escapeHtml(r.verdict)}" data-rung="${escapeHtml(r.name)}" data-offered="${num(r.targetRate)}" data-accepted="${num(r.acceptedRate)}" data-refused="${num(r.refusedShare)}" data-p95="${num(r.p95Ms)}" data-verdict="${escapeHtml(r.verdict)}">` +
        `<title>${escapeHtml(tip)}</title>` +
        `<rect class="refused" x="${px(cx - bar / 2)}" width="${px(bar)}" y="${px(share(r.refusedShare))}" height="${px(LOWER.bottom - share(r.refusedShare))}"/>` +
        `<rect class="p95" x="${px(cx - 3.5)}" y="${px(p95(r.p95Ms) - 3.5)}" width="7" height="7" transform="rotate(45 ${px(cx)} ${px(p95(r.p95Ms))})"/>` +
        `<circle class="accepted" cx="${px(cx)}" cy="${px(y(r.acceptedRate))}" r="5"/></g>`,
    );
  }
  return svg(
    WIDTH,
    HEIGHT,
    `${result.operation}: accepted rate, ${refused} share and p95 per rung of offered rate`,
    parts.join(''),
    `ladder-${result.operationId}`,
  );
}

const SEARCH: Box = { left: 64, right: 404, top: 12, bottom: 140 };

/** One size search: each value it tried, in order, accepted or refused, and the limit it closed on. */
export function searchChart(id: string, probes: readonly LimitProbe[], limit: number | null): string {
  const values = probes.map((p) => p.value);
  const y = logScale(Math.min(...values, limit ?? Infinity), Math.max(...values), SEARCH.bottom, SEARCH.top);
  const step = (SEARCH.right - SEARCH.left) / Math.max(1, probes.length);
  const x = (i: number) => SEARCH.left + step * (i + 0.5);
  const parts = [
    yAxis(y, SEARCH, 'left', 'value tried', (v) => (v >= 1024 && v % 1024 === 0 ? `${v / 1024}Ki` : num(v))),
    `<g class="axis x">${probes.map((_, i) => `<text x="${px(x(i))}" y="${SEARCH.bottom + 14}" text-anchor="middle">${i + 1}</text>`).join('')}` +
      `<line class="axis-line" x1="${SEARCH.left}" x2="${SEARCH.right}" y1="${SEARCH.bottom}" y2="${SEARCH.bottom}"/>` +
      `<text class="axis-title" x="${px((SEARCH.left + SEARCH.right) / 2)}" y="${SEARCH.bottom + 30}" text-anchor="middle">request</text></g>`,
  ];
  if (limit !== null) {
    parts.push(
      `<g class="limit" data-testid="size-limit" data-value="${limit}"><line x1="${SEARCH.left}" x2="${SEARCH.right}" y1="${px(y(limit))}" y2="${px(y(limit))}"/>` +
        `<text x="${SEARCH.right - 4}" y="${px(y(limit) - 5)}" text-anchor="end">limit ${limit}</text></g>`,
    );
  }
  parts.push(
    polyline(
      probes.map((p, i) => [x(i), y(p.value)]),
      'search-line',
    ),
  );
  probes.forEach((p, i) => {
    const answer = p.accepted ? 'accepted' : 'refused';
    parts.push(
      `<circle class="probe ${answer}" data-value="${p.value}" data-answer="${answer}" cx="${px(x(i))}" cy="${px(y(p.value))}" r="5"><title>request ${i + 1}: ${p.value} ${answer}</title></circle>`,
    );
  });
  return svg(
    SEARCH.right + 16,
    SEARCH.bottom + 40,
    `${id}: the value of each request, accepted or refused, and the limit found`,
    parts.join(''),
    `search-${id}`,
  );
}
