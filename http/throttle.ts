// Waiting out throttling (spec §8.2: rate limits not shown). Pure: the Playwright client, the Node clients and the
// k6 scripts ask this module whether to send again and after how long; each sleeps in its own way. A 429 or 503 is
// never a finding by itself: it is waited out (Retry-After in seconds or as an HTTP date, else exponential backoff
// with jitter) within a bound of retries per request and of waiting per run, and recorded.
import type { KnownLimit } from '../lib/fingerprint.ts';
import type { RateLimitObserved } from '../lib/observations.ts';

export const THROTTLE_STATUSES: readonly number[] = [429, 503];

export interface ThrottleSettings {
  /** Sends of one request after its first answer was throttled. */
  maxRetries: number;
  /** Seconds of waiting the whole run may spend on throttled requests. */
  maxWaitSeconds: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = { maxRetries: 6, maxWaitSeconds: 300 };

/** Backoff without Retry-After: the first wait is about BASE seconds, doubling per attempt up to CAP. */
const BACKOFF_BASE_SECONDS = 0.5;
const BACKOFF_CAP_SECONDS = 30;

export interface ThrottledAnswer {
  status: number;
  headers: Record<string, string>;
}

export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === wanted) return headers[key];
  return undefined;
}

/** Retry-After as seconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - nowMs) / 1000);
}

/** Which form the Retry-After header took: what the rate-limit observation records. */
export function retryAfterForm(value: string | undefined): 'seconds' | 'http-date' | 'absent' | 'unreadable' {
  if (value === undefined) return 'absent';
  if (/^\s*\d+\s*$/.test(value)) return 'seconds';
  return Number.isNaN(Date.parse(value)) ? 'unreadable' : 'http-date';
}

/** Exponential backoff with equal jitter: half the step for sure, the other half at random. */
export function backoffSeconds(attempt: number, random: () => number): number {
  const step = Math.min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempt - 1));
  return step / 2 + (random() * step) / 2;
}

export type ThrottleDecision =
  | { throttled: false }
  | { throttled: true; retry: true; waitSeconds: number; basis: 'retry-after' | 'backoff' }
  | { throttled: true; retry: false; why: string };

/**
 * What to do with an answer to the `attempt`-th send of a request (1 for the first), when the run has already
 * waited `waitedSeconds` on throttles.
 */
export function throttleDecision(
  answer: ThrottledAnswer,
  attempt: number,
  waitedSeconds: number,
  settings: ThrottleSettings,
  random: () => number,
  nowMs: number,
): ThrottleDecision {
  if (!THROTTLE_STATUSES.includes(answer.status)) return { throttled: false };
  if (attempt > settings.maxRetries) {
    return { throttled: true, retry: false, why: `still ${answer.status} after ${settings.maxRetries} retries (THROTTLE_MAX_RETRIES)` };
  }
  // An HTTP-date Retry-After is in the target's clock: measured against its own Date header, never against ours
  // (a vendor clock 90 s behind would otherwise read as "retry now", RFC 9110 §10.2.3).
  const stated = Date.parse(headerValue(answer.headers, 'date') ?? '');
  const told = retryAfterSeconds(headerValue(answer.headers, 'retry-after'), Number.isNaN(stated) ? nowMs : stated);
  const waitSeconds = told ?? backoffSeconds(attempt, random);
  const left = settings.maxWaitSeconds - waitedSeconds;
  if (waitSeconds > left) {
    return {
      throttled: true,
      retry: false,
      why: `the target asks for ${waitSeconds.toFixed(1)} s more and only ${Math.max(0, left).toFixed(1)} s of THROTTLE_MAX_WAIT_S=${settings.maxWaitSeconds} are left`,
    };
  }
  return { throttled: true, retry: true, waitSeconds, basis: told === undefined ? 'backoff' : 'retry-after' };
}

/** Headers that describe a rate limit: Retry-After, X-RateLimit-*, RateLimit-* (IETF draft), lower-cased names. */
export function rateLimitHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (/^(retry-after|x-ratelimit-.+|ratelimit(-.+)?|x-rate-limit-.+)$/i.test(name)) out[name.toLowerCase()] = value;
  }
  return out;
}

/** One throttled answer, as the run records it. */
export interface ThrottleRecord {
  operationId: string;
  status: number;
  retryAfter: string | null;
  /** Rate-limit headers of the answer (names lower-cased). */
  headers: Record<string, string>;
  /** How long the client waited before sending again; null when it gave up. */
  waitSeconds: number | null;
  /** Requests the recording client had sent when this answer came, this one included. */
  requestNumber: number;
  /** Seconds since the run started. */
  atSeconds: number;
}

export interface RateLimitFinding {
  /** The compared value: stable for one vendor, whatever the run's timing. */
  observed: RateLimitObserved;
  /** Figures that move from run to run: when the first throttle came, how many, how long the run waited. */
  evidence: string;
}

/**
 * The rate-limit observation of a whole run, from every throttle any client of the run recorded. A run paced at a
 * limit it knew (`carried`: from the run before or a baseline, with how the target refused then) meets none: it
 * records that refusal, saying so, since a run that keeps to the limit cannot see it again.
 */
export function rateLimitFinding(
  records: readonly ThrottleRecord[],
  requests: number,
  seconds: number,
  carried?: { limit: KnownLimit; refusal: RateLimitObserved },
): RateLimitFinding {
  const sent = `${requests} requests in ${seconds.toFixed(1)} s`;
  if (records.length === 0 && carried?.refusal.limited) {
    return {
      observed: carried.refusal,
      evidence: `not met in this run: no 429 or 503 among ${sent}, paced at the limit of ${carried.limit.perSecond}/s that ${carried.limit.from} found; the refusal is as that run met it`,
    };
  }
  if (records.length === 0) return { observed: { limited: false }, evidence: `no 429 or 503 among ${sent}` };
  const sorted = [...records].sort((a, b) => a.atSeconds - b.atSeconds);
  const first = sorted[0]!;
  const distinct = <T>(values: T[]) => [...new Set(values)].sort();
  const waited = records.reduce((sum, r) => sum + (r.waitSeconds ?? 0), 0);
  const gaveUp = records.filter((r) => r.waitSeconds === null).length;
  return {
    observed: {
      limited: true,
      statuses: distinct(records.map((r) => r.status)),
      retryAfter: distinct(records.map((r) => retryAfterForm(r.retryAfter ?? undefined))),
      headers: distinct(records.flatMap((r) => Object.keys(r.headers))),
    },
    evidence: [
      `first throttled: ${first.status} on ${first.operationId} after ${first.requestNumber} requests of its client and ${first.atSeconds.toFixed(1)} s of the run`,
      `its rate-limit headers: ${JSON.stringify(first.headers)}`,
      `throttled answers: ${records.length} of ${sent}; waited ${waited.toFixed(1)} s in all${gaveUp ? `; gave up ${gaveUp} times` : ''}`,
    ].join('\n'),
  };
}
