// Which part of a split test this k6 process runs. k6-operator runs a TestRun with `parallelism: N` as N `k6 run`
// processes, process i with `--execution-segment (i-1)/N:i/N --execution-segment-sequence 0,1/N,…,1`
// (k6-operator pkg/segmentation). k6 then gives each process its share of every scenario's arrival rate and VUs.
// A script reads its segment from `exec.test.options.executionSegment` (setup(), VU code and handleSummary: k6 v0.45
// to the newest releases; not in the init context, where v0.48 panics on it): null when the test is not split.
// Pure: the k6 scripts, the runner and the merge command share it.

/** The part of the test a process runs, as fractions of the whole: [from, to). */
export interface Segment {
  from: number;
  to: number;
  /** to - from: the share of every arrival rate this process offers. */
  share: number;
  /** As k6 writes it ("1/4:1/2"), or "0:1" for an unsplit test. */
  text: string;
}

export const WHOLE: Segment = { from: 0, to: 1, share: 1, text: '0:1' };

/**
 * Each scenario gets at least this many VUs, so that k6 can hand every process of a split into up to this many
 * runners at least one (k6 splits VUs by the segment; a process whose share rounds to 0 VUs skips the scenario).
 */
export const MAX_RUNNERS = 8;

export class SegmentError extends Error {
  override name = 'SegmentError';
}

/** "1/4", "0.25", "25%" or an integer: k6 accepts each form for a segment's ends. */
function fraction(raw: string): number {
  const text = raw.trim();
  let value: number;
  if (/^\d+\/\d+$/.test(text)) {
    const [n, d] = text.split('/').map(Number) as [number, number];
    value = d === 0 ? NaN : n / d;
  } else if (/^\d+(\.\d+)?%$/.test(text)) value = Number(text.slice(0, -1)) / 100;
  else if (/^\d+(\.\d+)?$/.test(text)) value = Number(text);
  else value = NaN;
  if (!(value >= 0 && value <= 1)) throw new SegmentError(`execution segment end "${raw}" is not a fraction between 0 and 1`);
  return value;
}

/**
 * The segment of `options` (k6's consolidated options, `exec.test.options`). k6 writes "from:to"; a single value
 * "x" means "0:x". Absent or null: the whole test.
 */
export function segmentOf(options: { executionSegment?: string | null } | undefined): Segment {
  const raw = options?.executionSegment?.trim();
  if (!raw) return WHOLE;
  const [a, b] = raw.includes(':') ? raw.split(':') : ['0', raw];
  const from = fraction(a!);
  const to = fraction(b!);
  if (!(to > from)) throw new SegmentError(`execution segment "${raw}" is empty: its end must lie after its start`);
  return { from, to, share: to - from, text: raw };
}

/** Whether this process runs the start of the test: the one that runs what cannot be split (k6 gives it a lone VU). */
export const isFirst = (segment: Segment) => segment.from === 0;

export const isSplit = (segment: Segment) => segment.share < 1;

/** Runner i of n when the segment is one of n equal parts, as k6-operator makes them. */
function runnerOf(segment: Segment): { index: number; runners: number } | undefined {
  const runners = Math.round(1 / segment.share);
  const index = Math.round(segment.from / segment.share) + 1;
  return Math.abs(runners * segment.share - 1) < 1e-9 && Math.abs((index - 1) * segment.share - segment.from) < 1e-9 ? { index, runners } : undefined;
}

/** "runner 2/4 (segment 1/4:1/2)", or "" for an unsplit test: how reports name a process. */
export function segmentLabel(segment: Segment): string {
  if (!isSplit(segment)) return '';
  const runner = runnerOf(segment);
  return runner ? `runner ${runner.index}/${runner.runners} (segment ${segment.text})` : `segment ${segment.text}`;
}

/**
 * What a runner adds to its report files' names, so that the runners of one test can write into one directory (a
 * volume the pods share): "" unsplit, "runner-2-of-4", or the segment's ends for an uneven split.
 */
export function segmentFileSuffix(segment: Segment): string {
  if (!isSplit(segment)) return '';
  const runner = runnerOf(segment);
  return runner ? `runner-${runner.index}-of-${runner.runners}` : `segment-${segment.from.toFixed(4)}-${segment.to.toFixed(4)}`;
}

/**
 * Why this segment cannot run its share, or undefined when it can: a share below 1/MAX_RUNNERS may get no VU of a
 * scenario, and k6 then silently skips that scenario in this process.
 */
export function segmentProblem(segment: Segment): string | undefined {
  if (segment.share >= 1 / MAX_RUNNERS - 1e-9) return undefined;
  return `execution segment ${segment.text} is smaller than 1/${MAX_RUNNERS}: the scripts give each scenario ${MAX_RUNNERS} VUs, so split into at most ${MAX_RUNNERS} runners (k6-operator: parallelism ≤ ${MAX_RUNNERS})`;
}

/** The k6 flags of runner `index` (1-based) of `runners`, exactly as k6-operator builds them. */
export function operatorSegmentArgs(index: number, runners: number): string[] {
  if (!(Number.isInteger(runners) && runners >= 1 && Number.isInteger(index) && index >= 1 && index <= runners)) {
    throw new SegmentError(`runner ${index} of ${runners} does not exist`);
  }
  const point = (i: number) => (i === 0 ? '0' : i === runners ? '1' : `${i}/${runners}`);
  const sequence = Array.from({ length: runners + 1 }, (_, i) => point(i)).join(',');
  return [`--execution-segment=${point(index - 1)}:${point(index)}`, `--execution-segment-sequence=${sequence}`];
}
