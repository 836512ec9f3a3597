// The target's health during a run, apart from what it answers: a network between the suite and a staging service
// drops a connection or answers 502 from a gateway now and then, and a service goes down. Neither is contract drift.
// Pure: the client feeds every send's outcome in and asks what to do; the run decides its verdict from the outage.
//
// - A transient failure (502 or 504 from a gateway, a reset or refused connection, no answer in time) of a request
//   that may be sent twice is sent again, a bounded number of times with backoff; each one is recorded, none fails
//   a test by itself. A 5xx that persists on the same request is the vendor's (§7, not_a_server_error).
// - A request that must not be sent twice (POST, a GET that creates a dialog) is never resent: a transient failure
//   leaves its test inconclusive.
// - An outage: no answer worth judging for OUTAGE_S seconds while requests keep failing (transport failures, 5xx
//   from a gateway, 503 without Retry-After, across operations). Then the run stops: the target went down.
//   429, and 503 with Retry-After, are throttling (http/throttle.ts), not an outage.

/** What a send came back with, as far as health goes. */
export type SendOutcome = { kind: 'answer'; status: number; retryAfter?: boolean } | { kind: 'transport'; what: string };

/** A failure the network or a gateway may cause and a resend may not meet again. */
export type TransientKind = 'bad-gateway' | 'gateway-timeout' | 'reset' | 'refused' | 'timeout' | 'other-transport';

export interface HealthSettings {
  /** Resends of a transient failure of one request that may be sent twice. */
  maxResends: number;
  /** Seconds without an answer worth judging, failures meanwhile, after which the target is down. */
  outageSeconds: number;
}

export const DEFAULT_HEALTH: HealthSettings = { maxResends: 3, outageSeconds: 10 };

/** Why a connection gave no answer, in one line: the error's code (what transientKind reads) and its message. */
export const failureLine = (err: unknown): string => `${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message}`.replace(/[\r\n]+/g, ' ');

/** The transient kind of an outcome, or undefined for an answer to judge (or to wait out, as 429 is). */
export function transientKind(outcome: SendOutcome): TransientKind | undefined {
  if (outcome.kind === 'answer') return outcome.status === 502 ? 'bad-gateway' : outcome.status === 504 ? 'gateway-timeout' : undefined;
  const what = outcome.what;
  if (/ECONNRESET|socket hang up|UND_ERR_SOCKET|other side closed|EPIPE/i.test(what)) return 'reset';
  if (/ECONNREFUSED|connect.*refused/i.test(what)) return 'refused';
  if (/timeout|timed out|ETIMEDOUT|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT/i.test(what)) return 'timeout';
  return 'other-transport';
}

/** Does an outcome count towards an outage: a failure to get an answer, or an answer that says the service is not there. */
export function failing(outcome: SendOutcome): boolean {
  if (outcome.kind === 'transport') return true;
  // 503 without Retry-After: overloaded or down (with Retry-After it is throttling, waited out elsewhere).
  return outcome.status === 502 || outcome.status === 504 || (outcome.status === 503 && !outcome.retryAfter);
}

/** Backoff before resend `resend` (1 for the first): 0.25, 0.5, 1 s …, with jitter. */
export function resendDelaySeconds(resend: number, random: () => number): number {
  const step = Math.min(4, 0.25 * 2 ** (resend - 1));
  return step / 2 + (random() * step) / 2;
}

export interface Outage {
  /** When the failures began (epoch ms): the last answer worth judging came before. */
  since: number;
  /** When the outage was told (epoch ms). */
  at: number;
  /** What was seen since, e.g. "14 × 503 without Retry-After, 3 × connection refused on 5 operations". */
  seen: string;
}

const DESCRIBE: Record<string, string> = {
  'bad-gateway': '502',
  'gateway-timeout': '504',
  reset: 'connection reset',
  refused: 'connection refused',
  timeout: 'no answer in time',
  'other-transport': 'no answer',
};

/** A streak of failures: when it began, what was seen and on which operations. Plain data, shared between processes. */
export interface FailureStreak {
  since: number;
  seen: Record<string, number>;
  operations: string[];
}

/**
 * One send's outcome added to the current streak (undefined: none): the streak after it (undefined once an answer
 * worth judging came), and the outage once failures have gone on for `outageSeconds` with no such answer in between
 * (and at least three of them, so one slow request is never an outage). The run's workers share the streak.
 */
export function recordOutcome(
  streak: FailureStreak | undefined,
  operationId: string,
  outcome: SendOutcome,
  at: number,
  settings: HealthSettings = DEFAULT_HEALTH,
): { streak: FailureStreak | undefined; outage?: Outage } {
  if (!failing(outcome)) return { streak: undefined };
  const what = outcome.kind === 'answer' && outcome.status === 503 ? '503 without Retry-After' : DESCRIBE[transientKind(outcome) ?? 'other-transport']!;
  const next: FailureStreak = {
    since: streak?.since ?? at,
    seen: { ...streak?.seen, [what]: (streak?.seen[what] ?? 0) + 1 },
    operations: [...new Set([...(streak?.operations ?? []), operationId])],
  };
  const count = Object.values(next.seen).reduce((a, b) => a + b, 0);
  if (count < 3 || at - next.since < settings.outageSeconds * 1000) return { streak: next };
  const kinds = Object.entries(next.seen)
    .map(([k, n]) => `${n} × ${k}`)
    .join(', ');
  const ops = next.operations.length;
  return { streak: next, outage: { since: next.since, at, seen: `${kinds} on ${ops} operation${ops === 1 ? '' : 's'}` } };
}

/** The one line a run ends with when the target went down. */
export function outageLine(outage: Outage): string {
  return `the target went down at ${new Date(outage.since).toISOString()} (then ${outage.seen}, no answer to judge for ${Math.round((outage.at - outage.since) / 1000)} s): try again when the service is up`;
}
