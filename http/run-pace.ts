// The pace of a whole run (spec §8.2: rate limits not shown): one token bucket that every request of the run books its
// send from, at the target's rate limit when the run knows it, and what the run learns of that limit from the answers
// the target throttles. Pure: the run's proxy (contract/target/auth-proxy.ts) holds one per run and feeds it the clock.
//
// Learning: an answer throttled for the rate (a 429, or a 503 that says when to come back) shows the target's bucket
// empty when it arrived. Between two throttles the answers accepted are what the bucket let through, no more than the
// limit allows, less only if it filled to its brim on the way: so pairs of throttles with the run never idle between
// them (IDLE_MS: senders waiting out a Retry-After let the bucket fill) are pooled, and once they span SPAN_MS their
// rate is the limit. Until then the run goes at a bound from above, the rate accepted in the second before the first
// throttle, cut by a quarter at each throttle a second or more later (the run keeps running into the limit), never
// below what any two throttles a second apart showed from below. The limit is the run's credentials' (per credential,
// as vendors commonly count; §8.2 does not say): the caller counts as accepted, and holds to the pace, only the
// requests sent with them, not those without credentials nor a custom block's calls on its own token. A limit that
// counts those too shows in throttles of the run's own, and the pace learns lower. The estimate is kept to with a
// margin, and never above the limit the run started with.
import type { KnownLimit } from '../lib/fingerprint.ts';

/** The run's pace: the limit it started with and the one it keeps to now (none: unpaced). */
export interface PaceRecord {
  initial: KnownLimit | null;
  limit: KnownLimit | null;
}

/** Pooled pairs this long show the rate to a request or two (the answers' jitter at either end). */
const SPAN_MS = 1_000;
/** Nothing sent nor waiting for this long between two throttles: the bucket may have filled, no pair. */
const IDLE_MS = 250;
/** The window whose accepted answers bound the rate at the run's first throttle. */
const RECENT_MS = 1_000;
/** Each throttle a second or more after the last cut lowers the bound from above by this, until pairs show the rate. */
const CUT = 0.75;
/** Below the estimate, so jitter in the network does not empty the target's bucket again. */
const MARGIN = 0.97;
/** A floor: throttles with nothing accepted between say "slower", not "never". */
const MIN_PER_SECOND = 1;

export const LEARNED_HERE = "this run's throttled answers";
/** A limit the user set (MAX_RPS): the run's own pace, no vendor's. */
export const FROM_MAX_RPS = 'MAX_RPS';

/** Whether an answer says the target's rate limit was met: a 429, or a 503 with Retry-After (one without is an outage's). */
export function throttledForRate(status: number, retryAfter: string | undefined): boolean {
  return status === 429 || (status === 503 && retryAfter !== undefined);
}

/**
 * The limit a run starts with: MAX_RPS and the target's limit as the run before found it (else as a baseline's run
 * did), the lower of the two, so a run never goes faster than the target allows nor than its user asks.
 */
export function startingLimit(maxRps: number | undefined, known: KnownLimit | undefined): KnownLimit | undefined {
  const configured = maxRps === undefined ? undefined : { perSecond: maxRps, from: FROM_MAX_RPS };
  if (!configured || !known) return configured ?? known;
  return known.perSecond < configured.perSecond ? known : configured;
}

export class RunPace {
  private current: KnownLimit | undefined;
  private nextSlotMs = 0;
  private accepted = 0;
  /** Times of the answers accepted in the last RECENT_MS. */
  private readonly recent: number[] = [];
  private firstAnswerMs: number | undefined;
  /** From above: at the first throttle the rate of the second before, cut at each throttle a second or more later. */
  private ceiling: { perSecond: number; cutAtMs: number } | undefined;
  /** From below: the most any two throttles a second or more apart showed, idle between or not. */
  private floor = 0;
  /** The last throttle, and the answers accepted by then. */
  private last: { atMs: number; accepted: number } | undefined;
  /** Answers accepted between pairs of throttles with the run busy throughout, and the time the pairs span. */
  private readonly pooled = { accepted: 0, ms: 0 };
  /** Sends waiting for their turn or on their way; since when none, and the longest such spell since the last throttle. */
  private outstanding = 0;
  private idleSinceMs: number | undefined;
  private longestIdleMs = 0;

  constructor(private readonly initial: KnownLimit | undefined) {
    this.current = initial;
  }

  get limit(): KnownLimit | undefined {
    return this.current;
  }

  /** How many ms until the next send may go (0 unpaced, or when its slot has come). */
  wait(nowMs: number): number {
    return this.current ? Math.max(0, this.nextSlotMs - nowMs) : 0;
  }

  /**
   * A send goes now: the next one 1/limit later. A timer that fired late is caught up within half a slot, so a busy
   * machine does not slow the pace; nothing more is banked while the run is idle.
   */
  take(nowMs: number): void {
    if (!this.current) return;
    const interval = 1000 / this.current.perSecond;
    this.nextSlotMs = Math.max(this.nextSlotMs, nowMs - interval / 2) + interval;
  }

  /** A send waits for its turn or is on its way to the target: the run is not idle. */
  busy(nowMs: number): void {
    if (this.outstanding++ === 0 && this.idleSinceMs !== undefined) this.longestIdleMs = Math.max(this.longestIdleMs, nowMs - this.idleSinceMs);
  }

  /** Its answer came, or it went nowhere. */
  done(nowMs: number): void {
    if (--this.outstanding === 0) this.idleSinceMs = nowMs;
  }

  /** An answer came back, throttled for the rate or not: true when the limit changed. */
  answered(nowMs: number, throttled: boolean): boolean {
    this.firstAnswerMs ??= nowMs;
    while (this.recent.length > 0 && this.recent[0]! <= nowMs - RECENT_MS) this.recent.shift();
    if (!throttled) {
      this.accepted++;
      this.recent.push(nowMs);
      return false;
    }
    if (!this.ceiling) {
      const window = Math.max(100, Math.min(RECENT_MS, nowMs - this.firstAnswerMs));
      this.ceiling = { perSecond: (this.recent.length * 1000) / window, cutAtMs: nowMs };
    } else if (nowMs - this.ceiling.cutAtMs >= RECENT_MS) {
      this.ceiling = { perSecond: this.ceiling.perSecond * CUT, cutAtMs: nowMs };
    }
    if (this.last) {
      const [accepted, ms] = [this.accepted - this.last.accepted, nowMs - this.last.atMs];
      if (ms >= SPAN_MS) this.floor = Math.max(this.floor, (accepted * 1000) / ms);
      if (this.longestIdleMs < IDLE_MS) {
        this.pooled.accepted += accepted;
        this.pooled.ms += ms;
      }
    }
    this.last = { atMs: nowMs, accepted: this.accepted };
    this.longestIdleMs = 0;
    const learned = this.pooled.ms >= SPAN_MS ? (this.pooled.accepted * 1000) / this.pooled.ms : Math.max(this.floor, this.ceiling.perSecond);
    const perSecond = Math.round(Math.max(MIN_PER_SECOND, learned * MARGIN) * 100) / 100;
    if ((this.initial && perSecond >= this.initial.perSecond) || perSecond === this.current?.perSecond) return false;
    this.current = { perSecond, from: LEARNED_HERE };
    return true;
  }

  record(): PaceRecord {
    return { initial: this.initial ?? null, limit: this.current ?? null };
  }
}

/**
 * Sends waiting for their turn in a run's pace, the first ones (`first`: the probes', one at a time, a chain the run's
 * end waits for) ahead of the rest, in the order they came otherwise; but never two turns in a row while another send
 * waits: at a low limit the probes' chain, back before each next turn, took every turn, and the API tests waited out
 * the probes' whole budget (20 s at 5/s), past their timeouts. Each counts as busy from its arrival.
 */
export class TurnQueue<T> {
  private readonly waiting: Array<{ first: boolean; send: T }> = [];
  private lastWasFirst = false;

  constructor(private readonly pace: RunPace) {}

  add(send: T, first: boolean, nowMs: number): void {
    this.pace.busy(nowMs);
    const at = first ? this.waiting.findIndex((w) => !w.first) : -1;
    this.waiting.splice(at < 0 ? this.waiting.length : at, 0, { first, send });
  }

  /** The sends whose turn has come, each taking its slot, and in how many ms the next one's comes (none waiting: undefined). */
  due(nowMs: number): { go: T[]; nextInMs: number | undefined } {
    const go: T[] = [];
    while (this.waiting.length > 0) {
      const wait = this.pace.wait(nowMs);
      if (wait > 0) return { go, nextInMs: wait };
      this.pace.take(nowMs);
      this.pace.done(nowMs);
      const other = this.lastWasFirst ? this.waiting.findIndex((w) => !w.first) : -1;
      const [next] = this.waiting.splice(Math.max(0, other), 1);
      this.lastWasFirst = next!.first;
      go.push(next!.send);
    }
    return { go, nextInMs: undefined };
  }
}
