// Inline SVG charts for self-contained pages: scales, ticks and axes as plain strings. Pure and k6-safe (the load
// page is written by handleSummary inside k6): d3-scale would bring d3-format, d3-interpolate and d3-time into every
// k6 bundle for two scales and their ticks.
import { escapeHtml } from './html.ts';

export interface Scale {
  (value: number): number;
  ticks: number[];
}

/** 1, 2 or 5 times a power of ten: a tick step about `span / count`. */
function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** 0..max (max rounded up to a tick) onto [from, to] pixels, with about `count` round ticks. */
export function linearScale(max: number, from: number, to: number, count = 5): Scale {
  const step = tickStep(max > 0 ? max : 1, count);
  const top = Math.ceil((max > 0 ? max : 1) / step) * step;
  const scale = ((value: number) => from + ((to - from) * value) / top) as Scale;
  scale.ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => round(i * step));
  return scale;
}

/** min..max on a log10 axis onto [from, to] pixels, ticks at the powers of ten (and 2 and 5 between when few). */
export function logScale(min: number, max: number, from: number, to: number): Scale {
  const low = Math.floor(Math.log10(Math.max(1, min)));
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(1, max))));
  const scale = ((value: number) => from + ((to - from) * (Math.log10(Math.max(1, value)) - low)) / (high - low)) as Scale;
  const steps = high - low <= 2 ? [1, 2, 5] : [1];
  scale.ticks = [];
  for (let p = low; p <= high; p++) for (const m of steps) if (m * 10 ** p <= 10 ** high) scale.ticks.push(m * 10 ** p);
  return scale;
}

/** A number as a chart labels it: at most two decimals, no trailing zeros. */
export const num = (value: number) => String(round(value));
/** A share (0–1) as a percentage, rounded as num rounds. */
export const percent = (ratio: number) => `${num(ratio * 100)}%`;

const round = (n: number) => Math.round(n * 100) / 100;

/** Pixels, kept short in the markup. */
export const px = (value: number) => String(Math.round(value * 10) / 10);

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The horizontal axis at the box's bottom: ticks, labels, gridlines and its title. */
export function xAxis(scale: Scale, box: Box, title: string, label: (v: number) => string = num): string {
  const ticks = scale.ticks.map(
    (v) =>
      `<line class="grid" x1="${px(scale(v))}" x2="${px(scale(v))}" y1="${box.top}" y2="${box.bottom}"/>` +
      `<text x="${px(scale(v))}" y="${box.bottom + 14}" text-anchor="middle">${escapeHtml(label(v))}</text>`,
  );
  return `<g class="axis x">${ticks.join('')}<line class="axis-line" x1="${box.left}" x2="${box.right}" y1="${box.bottom}" y2="${box.bottom}"/><text class="axis-title" x="${px((box.left + box.right) / 2)}" y="${box.bottom + 30}" text-anchor="middle">${escapeHtml(title)}</text></g>`;
}

/** A vertical axis on the box's left or right side: ticks, labels, gridlines (left only) and its title. */
export function yAxis(scale: Scale, box: Box, side: 'left' | 'right', title: string, label: (v: number) => string = num): string {
  const x = side === 'left' ? box.left : box.right;
  const anchor = side === 'left' ? 'end' : 'start';
  const dx = side === 'left' ? -6 : 6;
  const ticks = scale.ticks.map(
    (v) =>
      (side === 'left' ? `<line class="grid" x1="${box.left}" x2="${box.right}" y1="${px(scale(v))}" y2="${px(scale(v))}"/>` : '') +
      `<text x="${x + dx}" y="${px(scale(v) + 4)}" text-anchor="${anchor}">${escapeHtml(label(v))}</text>`,
  );
  const titleX = side === 'left' ? box.left - 44 : box.right + 48;
  const mid = px((box.top + box.bottom) / 2);
  return `<g class="axis y ${side}">${ticks.join('')}<line class="axis-line" x1="${x}" x2="${x}" y1="${box.top}" y2="${box.bottom}"/><text class="axis-title" transform="translate(${titleX} ${mid}) rotate(-90)" text-anchor="middle">${escapeHtml(title)}</text></g>`;
}

/** An SVG element with an accessible name (role img, aria-label and a title). */
export function svg(width: number, height: number, label: string, content: string, testId?: string): string {
  const id = testId ? ` data-testid="${escapeHtml(testId)}"` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(label)}"${id}><title>${escapeHtml(label)}</title>${content}</svg>`;
}

/** A polyline through points, or nothing for fewer than two. */
export function polyline(points: ReadonlyArray<[number, number]>, className: string): string {
  return points.length < 2 ? '' : `<polyline class="${className}" points="${points.map(([x, y]) => `${px(x)},${px(y)}`).join(' ')}"/>`;
}
