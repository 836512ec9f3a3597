// Reads a rate ladder (stages of rising constant arrival rate) and says which rate the target sustains, where it
// starts to refuse, and how it refuses. Pure: the k6 rate-limit script feeds it from handleSummary, tests feed it
// synthetic stages.
//
// A stage is sustained when it got no rate-limit rejection, no other failure above `maxErrorRatio`, no latency knee,
// and k6 delivered at least `minDelivery` of the target rate. The latency knee: the stage's p95 exceeds `kneeFactor`
// times the first stage's p95 and also exceeds it by `kneeMinMs` (so sub-millisecond jitter on a local target is no
// knee). The rate limit estimate is the accepted throughput of the rate-limited stages: a token bucket refilled at
// r per second lets through r·T + (tokens left) requests in T seconds, so stages after the first rejecting one
// (bucket already drained) measure r itself; with a single rejecting stage its burst inflates the estimate by
// burst/T. The drained stages k6 fully delivered are pooled (their accepted requests over their time: each one's
// count is noisy when a runner gets only a share of the tokens); when k6 under-delivered them all, the highest is
// taken, as under-delivery can only understate r. (A bucket of burst 1 loses refills to its cap under evenly spaced
// arrivals and lets through less than r: the estimate needs burst ≥ 2.)
//
// A split test (k6-operator, --execution-segment): each process offers its share of every rung, and the limit is
// per credential, so it gets about its share of the accepted requests. A stage carries that share; its rates are
// judged against the share and reported for the whole test (divided by the share; the accepted rate by the part of
// the rung's arrivals the runner made, see arrivalShare), so every runner's finding is the whole test's, and
// runners' counts add up (mergeLadders).
import type { OperationId } from '../openapi/operations.generated.ts';

import type { FingerprintItem } from '../lib/fingerprint.ts';
import type { LadderStep } from './load-shapes.ts';
import { metricStat, type SummaryData } from './load-summary.ts';
import { retryAfterForm } from '../http/throttle.ts';

export interface LadderStage {
  name: string;
  /** Offered arrivals per second. */
  targetRate: number;
  durationSeconds: number;
  /** Iterations started (one request each). */
  iterations: number;
  /** Iterations k6 could not start for lack of VUs. */
  droppedIterations: number;
  /** 2xx responses. */
  ok: number;
  /** Rate-limit rejections (429 unless the target uses another status). */
  rateLimited: number;
  /** Every other failure: other statuses, transport errors. */
  failed: number;
  p95Ms: number;
  /** The part of the test this process ran (discovery/execution-segment.ts); 1 when not split. */
  share: number;
}

export interface ResponseSample {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface LadderOptions {
  kneeFactor?: number;
  kneeMinMs?: number;
  minDelivery?: number;
  maxErrorRatio?: number;
}

export type StageVerdict = 'sustained' | 'rate-limited' | 'failing' | 'latency-knee' | 'under-delivered';

/** A stage's rates are for the whole test: a split runner's own rates divided by its share. */
export interface StageReport {
  name: string;
  targetRate: number;
  achievedRate: number;
  acceptedRate: number;
  /** Arrivals k6 skipped for lack of VUs: the usual cause of under-delivery. */
  droppedIterations: number;
  p95Ms: number;
  verdict: StageVerdict;
}

export interface RejectionReport {
  status: number;
  retryAfter: string | null;
  /** X-RateLimit-* and RateLimit* headers of the rejection, names as received. */
  rateLimitHeaders: Record<string, string>;
  body: string;
}

/**
 * How far the rate limit estimate can be trusted. `margin` is the relative half-width of its interval: twice the
 * counting error (a split runner's share of the bucket's tokens is a sample, its spread √((1−p)/n)), one token per
 * rung edge, and never less than half the spread between the drained rungs' own rates (a limiter that is no token
 * bucket shows there). null when the estimate is a bound, not a measure.
 */
export interface LimitConfidence {
  level: 'high' | 'medium' | 'low';
  margin: number | null;
  /** What the estimate stands on, in one sentence. */
  basis: string;
}

export interface LadderAnalysis {
  /** Highest target rate sustained by every stage up to it; null when the first stage already was not. */
  sustainedRate: number | null;
  /** The first stage that was not sustained, and why. */
  firstLimited: { stage: string; targetRate: number; verdict: StageVerdict } | null;
  /** Accepted requests per second under rejection: the rate limit; null when nothing was rate-limited. */
  estimatedLimit: number | null;
  /** null with the estimate. */
  confidence: LimitConfidence | null;
  stages: StageReport[];
  rejection: RejectionReport | null;
}

const BODY_EXCERPT = 2000;

/** One operation's ladder as a runner reports it: the raw stages (for merging runners) and their analysis. */
export interface LadderResult {
  operationId: OperationId;
  operation: string;
  stages: LadderStage[];
  analysis: LadderAnalysis;
}

export function analyseLadder(stages: readonly LadderStage[], samples: readonly ResponseSample[], options: LadderOptions = {}): LadderAnalysis {
  const { kneeFactor = 3, kneeMinMs = 25, minDelivery = 0.9, maxErrorRatio = 0.01 } = options;
  const ordered = [...stages].sort((a, b) => a.targetRate - b.targetRate);
  const baselineP95 = ordered[0]?.p95Ms ?? 0;

  const verdictOf = (stage: LadderStage): StageVerdict => {
    if (stage.rateLimited > 0) return 'rate-limited';
    if (stage.failed > maxErrorRatio * Math.max(1, stage.iterations)) return 'failing';
    if (stage.p95Ms > kneeFactor * baselineP95 && stage.p95Ms - baselineP95 > kneeMinMs) return 'latency-knee';
    if (stage.iterations / stage.durationSeconds < minDelivery * stage.targetRate * stage.share) return 'under-delivered';
    return 'sustained';
  };
  const reports: StageReport[] = ordered.map((stage) => ({
    name: stage.name,
    targetRate: stage.targetRate,
    achievedRate: round(stage.iterations / stage.durationSeconds / stage.share),
    acceptedRate: round(stage.ok / stage.durationSeconds / arrivalShare(stage)),
    droppedIterations: stage.droppedIterations,
    p95Ms: stage.p95Ms,
    verdict: verdictOf(stage),
  }));

  const firstLimitedIndex = reports.findIndex((r) => r.verdict !== 'sustained');
  const sustained = firstLimitedIndex < 0 ? reports : reports.slice(0, firstLimitedIndex);
  const first = firstLimitedIndex < 0 ? undefined : reports[firstLimitedIndex];

  const limited = reports.filter((r) => r.verdict === 'rate-limited');
  const drained = limited.length > 1 ? limited.slice(1) : limited;
  const delivered = drained.filter((r) => r.achievedRate >= minDelivery * r.targetRate);
  const stageOf = (r: StageReport) => ordered.find((s) => s.name === r.name)!;
  const pooled = (rs: StageReport[]) =>
    round(rs.reduce((n, r) => n + r.acceptedRate * stageOf(r).durationSeconds, 0) / rs.reduce((n, r) => n + stageOf(r).durationSeconds, 0));
  const estimatedLimit = delivered.length > 0 ? pooled(delivered) : drained.length > 0 ? Math.max(...drained.map((r) => r.acceptedRate)) : null;

  let confidence: LimitConfidence | null = null;
  if (estimatedLimit !== null && limited.length === 1) {
    confidence = { level: 'low', margin: null, basis: 'one rung was refused, so its count holds the burst as well as the refill: the estimate reads high' };
  } else if (estimatedLimit !== null && delivered.length === 0) {
    confidence = { level: 'low', margin: null, basis: 'k6 offered less than 90% of every drained rung: the estimate can only read low' };
  } else if (estimatedLimit !== null) {
    confidence = pooledConfidence(
      delivered.map(stageOf),
      delivered.map((r) => r.acceptedRate),
      estimatedLimit,
    );
  }

  return {
    sustainedRate: sustained.length > 0 ? sustained[sustained.length - 1]!.targetRate : null,
    firstLimited: first ? { stage: first.name, targetRate: first.targetRate, verdict: first.verdict } : null,
    estimatedLimit,
    confidence,
    stages: reports,
    rejection: samples[0] ? rejectionReport(samples[0]) : null,
  };
}

/** The confidence of an estimate pooled over drained rungs the runner fully offered (see LimitConfidence). */
function pooledConfidence(stages: readonly LadderStage[], acceptedRates: readonly number[], estimate: number): LimitConfidence {
  // Each rung's tokens for the whole test (its accepted count over its share), and the variance of that count.
  const tokens = stages.reduce((n, s) => n + s.ok / arrivalShare(s), 0);
  const variance = stages.reduce((n, s) => n + (s.ok * Math.max(0, 1 - arrivalShare(s))) / arrivalShare(s) ** 2, 0);
  const counting = tokens > 0 ? (2 * Math.sqrt(variance) + stages.length) / tokens : 1;
  const spread = (Math.max(...acceptedRates) - Math.min(...acceptedRates)) / 2 / estimate;
  const margin = round(Math.max(counting, spread), 1000);
  const accepted = stages.reduce((n, s) => n + s.ok, 0);
  const share = stages[0]!.share < 1 ? `, a ${Math.round(stages[0]!.share * 100)}% share of the test's` : '';
  return {
    level: margin <= 0.1 && stages.length > 1 ? 'high' : margin <= 0.25 ? 'medium' : 'low',
    margin,
    basis: `${stages.length} drained rung${stages.length === 1 ? '' : 's'} pooled, ${accepted} accepted requests counted${share}`,
  };
}

/** "high confidence, ±0.6%", "low confidence": how a line and the page say it. */
export function confidenceText(confidence: LimitConfidence): string {
  return `${confidence.level} confidence${confidence.margin === null ? '' : `, ±${Math.round(confidence.margin * 1000) / 10}%`}`;
}

export function rejectionReport(sample: ResponseSample): RejectionReport {
  const rateLimitHeaders: Record<string, string> = {};
  let retryAfter: string | null = null;
  for (const [name, value] of Object.entries(sample.headers)) {
    if (/^retry-after$/i.test(name)) retryAfter = value;
    if (/^(x-)?ratelimit/i.test(name)) rateLimitHeaders[name] = value;
  }
  return { status: sample.status, retryAfter, rateLimitHeaders, body: sample.body.slice(0, BODY_EXCERPT) };
}

const round = (n: number, by = 100) => Math.round(n * by) / by;

/**
 * The part of a rung's arrivals a split runner made, which is the part of the bucket's tokens it can expect. Not its
 * segment: k6 does not split an arrival rate exactly (v0.48 gives the first of four runners 96 of a 68/s rung's 340
 * arrivals, 28%), so the segment would read its tokens 13% high. The rung's whole arrivals are taken as offered in
 * full, which a runner cannot check; an unsplit run uses its counts as they are.
 */
function arrivalShare(stage: LadderStage): number {
  if (stage.share >= 1 || stage.iterations === 0) return stage.share;
  return stage.iterations / (stage.targetRate * stage.durationSeconds);
}

/**
 * Seconds a rung's request waits before it leaves: up to one of this runner's arrival periods, at random. k6 offers a
 * rung's arrivals evenly spaced; the runners of a split test offer theirs interleaved, shifted by however much later
 * each one's setup() ended. A token bucket then hands its refills to whichever runner arrives first after each one:
 * by phase, not by share, so one runner's finding could read 30% high and another's 30% low. Arrivals displaced at
 * random take the tokens in proportion to their share, and on one runner they change nothing but the spacing.
 */
export function phaseJitter(targetRate: number, share: number, random: () => number): number {
  return random() / (targetRate * share);
}

/** The common tick of late runners: longer than setup() takes on a busy machine, short beside a ladder. */
export const START_TICK_MS = 10_000;

/**
 * Milliseconds a runner waits after its setup() before its ladder starts: until `atMs`, the start every runner of a
 * split test was given, or, when its setup() ended later than that (k6 was slow to start on a busy machine), until
 * the next whole `tickMs` after it. Runners agree on the ticks without talking to one another, so those whose setup()
 * ended within the same tick still start together; starting at once would start each at its own instant.
 */
export function startDelayMs(atMs: number, nowMs: number, tickMs: number): number {
  if (nowMs <= atMs) return atMs - nowMs;
  return atMs + Math.ceil((nowMs - atMs) / tickMs) * tickMs - nowMs;
}

/** Counters the rate-limit script adds per response; each rung reads them through a {scenario:…} submetric. */
export const LADDER_METRICS = { ok: 'ladder_ok', rateLimited: 'ladder_rate_limited', failed: 'ladder_failed' } as const;

const perRung = (metric: string, step: LadderStep) => `${metric}{scenario:${step.scenario}}`;
const EXPOSE_COUNT = 'count>=0';
const EXPOSE_P95 = 'p(95)>=0';

/**
 * Thresholds that always pass: k6 puts a submetric into the summary only when a threshold names it, and the
 * analysis needs each rung's counts and p95.
 */
export function ladderThresholds(steps: readonly LadderStep[]): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {};
  for (const step of steps) {
    for (const metric of [...Object.values(LADDER_METRICS), 'iterations', 'dropped_iterations']) thresholds[perRung(metric, step)] = [EXPOSE_COUNT];
    thresholds[perRung('http_req_duration', step)] = [EXPOSE_P95];
  }
  return thresholds;
}

/** Whether a threshold is one of ladderThresholds': it judges nothing, a report may set it apart. */
export const isRungThreshold = (metric: string, expression: string) =>
  /\{scenario:[^}]+\}$/.test(metric) && (expression === EXPOSE_COUNT || expression === EXPOSE_P95);

/** The rungs of a ladder as the summary of a process with `share` of the test saw them (no samples counts 0). */
export function ladderStagesFromSummary(data: SummaryData, steps: readonly LadderStep[], share: number): LadderStage[] {
  const count = (metric: string, step: LadderStep) => metricStat(data, perRung(metric, step), 'count') ?? 0;
  return steps.map((step) => ({
    name: step.scenario,
    targetRate: step.targetRate,
    durationSeconds: step.durationSeconds,
    iterations: count('iterations', step),
    droppedIterations: count('dropped_iterations', step),
    ok: count(LADDER_METRICS.ok, step),
    rateLimited: count(LADDER_METRICS.rateLimited, step),
    failed: count(LADDER_METRICS.failed, step),
    p95Ms: metricStat(data, perRung('http_req_duration', step), 'p(95)') ?? 0,
    share,
  }));
}

/**
 * The stages of several runners of one split ladder as one: counts add up, shares too (1 when every runner is
 * there), and the p95 is the highest runner's (percentiles do not add; an upper bound of the whole test's p95).
 */
export function mergeLadders(runners: ReadonlyArray<readonly LadderStage[]>): LadderStage[] {
  const byName = new Map<string, LadderStage>();
  for (const stages of runners) {
    for (const s of stages) {
      const seen = byName.get(s.name);
      byName.set(
        s.name,
        seen === undefined
          ? { ...s }
          : {
              ...seen,
              iterations: seen.iterations + s.iterations,
              droppedIterations: seen.droppedIterations + s.droppedIterations,
              ok: seen.ok + s.ok,
              rateLimited: seen.rateLimited + s.rateLimited,
              failed: seen.failed + s.failed,
              p95Ms: Math.max(seen.p95Ms, s.p95Ms),
              share: round(seen.share + s.share, 1e9),
            },
      );
    }
  }
  return [...byName.values()];
}

/** How a rejection says when to come back: "Retry-After 2 s", "Retry-After at <date>", "Retry-After absent". */
function retryAfterText(value: string | null): string {
  const form = retryAfterForm(value ?? undefined);
  if (form === 'seconds') return `Retry-After ${value!.trim()} s`;
  if (form === 'http-date') return `Retry-After at ${value!.trim()}`;
  return form === 'absent' ? 'Retry-After absent' : `Retry-After unreadable (${JSON.stringify(value)})`;
}

/**
 * How the target refused the ladder, as its text line and the load page say it. A 503 is what an overloaded target
 * says too: the ladder cannot tell the two apart, and the text says so instead of calling it a rate limit.
 */
export function refusalText(rejection: RejectionReport | null): string {
  if (!rejection) return 'no rejection seen';
  const ambiguous = rejection.status === 503 ? ' (an overload looks the same: could not tell it from a rate limit)' : '';
  const headers = Object.entries(rejection.rateLimitHeaders).map(([k, v]) => `, ${k}: ${v}`);
  return `refused with ${rejection.status}${ambiguous}, ${retryAfterText(rejection.retryAfter)}${headers.join('')}`;
}

/**
 * One text line and one fingerprint item for the ladder of one operation. A 503 is what an overloaded target says
 * too: the ladder cannot tell the two apart, and the line says so instead of calling it a rate limit.
 */
export function ladderFinding(operationId: OperationId, label: string, analysis: LadderAnalysis): { line: string; item: FingerprintItem } {
  const { rejection, estimatedLimit, sustainedRate, firstLimited, confidence } = analysis;
  const refused = refusalText(rejection);
  const limit = estimatedLimit === null ? 'no rate limit reached' : `rate limit ≈ ${estimatedLimit}/s${confidence ? ` (${confidenceText(confidence)})` : ''}`;
  const until = firstLimited ? `; first rung not sustained: ${firstLimited.targetRate}/s (${firstLimited.verdict})` : '';
  return {
    line: `${label}: sustained ${sustainedRate ?? 'none'}/s, ${limit}, ${refused}${until}`,
    item: {
      id: `rate.limit.${operationId}`,
      section: '8.2',
      operation: label,
      item: 'rate limit per credential (requests per second) and how it is refused',
      observed: {
        estimatedPerSecond: estimatedLimit === null ? null : twoSignificant(estimatedLimit),
        sustainedRung: sustainedRate,
        refusalStatus: rejection?.status ?? null,
        retryAfter: rejection ? retryAfterForm(rejection.retryAfter ?? undefined) : null,
        rateLimitHeaders: rejection
          ? Object.keys(rejection.rateLimitHeaders)
              .map((h) => h.toLowerCase())
              .sort()
          : null,
      },
    },
  };
}

/** Run-to-run noise stays out of the fingerprint: 47.3 → 47, 123.4 → 120. */
const twoSignificant = (n: number) => (n === 0 ? 0 : Number(n.toPrecision(2)));
