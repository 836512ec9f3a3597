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
// burst/T. The highest of them is taken, as a stage that k6 under-delivered can only understate r. (A bucket of burst
// 1 loses refills to its cap under evenly spaced arrivals and lets through less than r: the estimate needs burst ≥ 2.)
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

export interface LadderAnalysis {
  /** Highest target rate sustained by every stage up to it; null when the first stage already was not. */
  sustainedRate: number | null;
  /** The first stage that was not sustained, and why. */
  firstLimited: { stage: string; targetRate: number; verdict: StageVerdict } | null;
  /** Accepted requests per second under rejection: the rate limit; null when nothing was rate-limited. */
  estimatedLimit: number | null;
  stages: StageReport[];
  rejection: RejectionReport | null;
}

const BODY_EXCERPT = 2000;

export function analyseLadder(stages: readonly LadderStage[], samples: readonly ResponseSample[], options: LadderOptions = {}): LadderAnalysis {
  const { kneeFactor = 3, kneeMinMs = 25, minDelivery = 0.9, maxErrorRatio = 0.01 } = options;
  const ordered = [...stages].sort((a, b) => a.targetRate - b.targetRate);
  const baselineP95 = ordered[0]?.p95Ms ?? 0;

  const verdictOf = (stage: LadderStage): StageVerdict => {
    if (stage.rateLimited > 0) return 'rate-limited';
    if (stage.failed > maxErrorRatio * Math.max(1, stage.iterations)) return 'failing';
    if (stage.p95Ms > kneeFactor * baselineP95 && stage.p95Ms - baselineP95 > kneeMinMs) return 'latency-knee';
    if (stage.iterations / stage.durationSeconds < minDelivery * stage.targetRate) return 'under-delivered';
    return 'sustained';
  };
  const reports: StageReport[] = ordered.map((stage) => ({
    name: stage.name,
    targetRate: stage.targetRate,
    achievedRate: round(stage.iterations / stage.durationSeconds),
    acceptedRate: round(stage.ok / stage.durationSeconds),
    droppedIterations: stage.droppedIterations,
    p95Ms: stage.p95Ms,
    verdict: verdictOf(stage),
  }));

  const firstLimitedIndex = reports.findIndex((r) => r.verdict !== 'sustained');
  const sustained = firstLimitedIndex < 0 ? reports : reports.slice(0, firstLimitedIndex);
  const first = firstLimitedIndex < 0 ? undefined : reports[firstLimitedIndex];

  const limited = reports.filter((r) => r.verdict === 'rate-limited');
  const drained = limited.length > 1 ? limited.slice(1) : limited;

  return {
    sustainedRate: sustained.length > 0 ? sustained[sustained.length - 1]!.targetRate : null,
    firstLimited: first ? { stage: first.name, targetRate: first.targetRate, verdict: first.verdict } : null,
    estimatedLimit: drained.length > 0 ? Math.max(...drained.map((r) => r.acceptedRate)) : null,
    stages: reports,
    rejection: samples[0] ? rejectionReport(samples[0]) : null,
  };
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

const round = (n: number) => Math.round(n * 100) / 100;

/** Counters the rate-limit script adds per response; each rung reads them through a {scenario:…} submetric. */
export const LADDER_METRICS = { ok: 'ladder_ok', rateLimited: 'ladder_rate_limited', failed: 'ladder_failed' } as const;

const perRung = (metric: string, step: LadderStep) => `${metric}{scenario:${step.scenario}}`;

/**
 * Thresholds that always pass: k6 puts a submetric into the summary only when a threshold names it, and the
 * analysis needs each rung's counts and p95.
 */
export function ladderThresholds(steps: readonly LadderStep[]): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {};
  for (const step of steps) {
    for (const metric of [...Object.values(LADDER_METRICS), 'iterations', 'dropped_iterations']) thresholds[perRung(metric, step)] = ['count>=0'];
    thresholds[perRung('http_req_duration', step)] = ['p(95)>=0'];
  }
  return thresholds;
}

/** The rungs of a ladder as the summary saw them (a metric without samples counts 0). */
export function ladderStagesFromSummary(data: SummaryData, steps: readonly LadderStep[]): LadderStage[] {
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
  }));
}

/** How a rejection says when to come back: "Retry-After 2 s", "Retry-After at <date>", "Retry-After absent". */
function retryAfterText(value: string | null): string {
  const form = retryAfterForm(value ?? undefined);
  if (form === 'seconds') return `Retry-After ${value!.trim()} s`;
  if (form === 'http-date') return `Retry-After at ${value!.trim()}`;
  return form === 'absent' ? 'Retry-After absent' : `Retry-After unreadable (${JSON.stringify(value)})`;
}

/**
 * One text line and one fingerprint item for the ladder of one operation. A 503 is what an overloaded target says
 * too: the ladder cannot tell the two apart, and the line says so instead of calling it a rate limit.
 */
export function ladderFinding(operationId: OperationId, label: string, analysis: LadderAnalysis): { line: string; item: FingerprintItem } {
  const { rejection, estimatedLimit, sustainedRate, firstLimited } = analysis;
  const ambiguous = rejection?.status === 503 ? ' (an overload looks the same: could not tell it from a rate limit)' : '';
  const headers = rejection && Object.keys(rejection.rateLimitHeaders).length ? `, ${Object.entries(rejection.rateLimitHeaders).map(([k, v]) => `${k}: ${v}`).join(', ')}` : '';
  const refused = rejection ? `refused with ${rejection.status}${ambiguous}, ${retryAfterText(rejection.retryAfter)}${headers}` : 'no rejection seen';
  const limit = estimatedLimit === null ? 'no rate limit reached' : `rate limit ≈ ${estimatedLimit}/s`;
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
        rateLimitHeaders: rejection ? Object.keys(rejection.rateLimitHeaders).map((h) => h.toLowerCase()).sort() : null,
      },
    },
  };
}

/** Run-to-run noise stays out of the fingerprint: 47.3 → 47, 123.4 → 120. */
const twoSignificant = (n: number) => (n === 0 ? 0 : Number(n.toPrecision(2)));
