// The pace of a whole run (spec §8.2: rate limits not shown): one grid of send slots that every request of the run books
// from, at the target's rate limit when the run knows it. Pure: the run's proxy (contract/target/auth-proxy.ts) holds one per
// run and feeds it the clock and every answer. docs/pace.md states what it promises.
//
// Never faster than the limit: slots are 1/limit apart. The first send of a run, and the first after the run was
// idle, goes at once and the next a whole slot later; a send whose timer fired late (a busy machine) keeps to the
// slots when it is within half a slot of its own, else the slots start again from it. So any k sends after a send
// span (k - 1/2)/limit at least, and k/limit unless that send's timer fired late.
//
// Where the limit comes from, first to last:
// - a window the target states (http/rate-headers.ts AnnouncedLimit: a policy's w, or a Reset that agrees with the
//   window found from its counter): its quota per window, 3% below, until its announcements contradict the throttles;
// - a probe that confirmed a limit: a run that starts from an estimate (learned by a run before) goes 7% faster each
//   time it has kept a pace PROBE_HOLD_S without a throttle; its first throttled answer ends the probe, back to 3%
//   below the last pace that met none (or the estimate, throttled at once), never above the rate a bucket's counter
//   shows let through, confirmed; each throttle at that pace steps it 7% down, STEPS_DOWN times at most;
// - the higher of a window found from the counter that the run's answers tested and did not break
//   (http/found-window.ts), and a probe still stepping up; a found window not yet tested paces nothing, so it cannot
//   keep the run too slow to break it;
// - the throttles (ThrottleLearner), never above the pace the run had when they came;
// - the limit the run started with (MAX_RPS, the run before's, a baseline's).
// MAX_RPS caps every one of them.
import type { KnownLimit } from '../lib/fingerprint.ts';
import { AnnouncedLimit, type Announcement } from './rate-headers.ts';

/** The run's pace: the limit it started with, the one it keeps to now (none: unpaced) and what it says of them. */
export interface PaceRecord {
  initial: KnownLimit | null;
  limit: KnownLimit | null;
  /** Announcements not trusted, probes and what they found: lines for the run's rate.limit evidence. */
  notes?: string[];
}

/** One answer of the run's credentials, as the proxy saw it go and come back. */
export interface PacedAnswer {
  throttled: boolean;
  sentAtMs: number;
  announced?: Announcement;
}

/** Pooled pairs this long show the rate to a request or two (the answers' jitter at either end). */
const SPAN_MS = 1_000;
/**
 * Pooled pairs that let this few through show no rate: against a fixed window the pairs across its start are idle
 * (every sender waits out its Retry-After) and only those within one window's burst of throttles, none accepted
 * between, are pooled: 15/s was learned as 1/s.
 */
const POOLED_ACCEPTED = 5;
/** Nothing sent nor waiting for this long between two throttles: the bucket may have filled, no pair. */
const IDLE_MS = 250;
/** The window whose accepted answers bound the rate at the run's first throttle. */
const RECENT_MS = 1_000;
/** Each throttle a second or more after the last cut lowers the bound from above by this, until pairs show the rate. */
const CUT = 0.75;
/** Below a learned or announced limit, so jitter in the network does not empty the target's bucket again. */
const MARGIN = 0.97;
/** A floor: throttles with nothing accepted between say "slower", not "never". */
const MIN_PER_SECOND = 1;
/** A probe's step above a pace that met no throttle; with MARGIN, the limit it confirms is within 10% of the target's. */
const PROBE_STEP = 1.07;
/** Seconds' worth of sends, each going as soon as the pace let it, at a pace before the probe steps above it. */
const PROBE_HOLD_S = 1.5;
const PROBE_MIN_SENDS = 10;
/** Steps back down from a probe's confirmation, each at a throttle of the pace it confirmed, before the throttles teach the limit again. */
const STEPS_DOWN = 3;

export const LEARNED_HERE = "this run's answers";
/** A limit the user set (MAX_RPS): the run's own pace, no vendor's. */
export const FROM_MAX_RPS = 'MAX_RPS';

const hundredths = (n: number) => Math.round(n * 100) / 100;

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

/**
 * The limit the throttles show. An answer throttled for the rate shows the target's bucket empty when it arrived.
 * Between two throttles the answers accepted are what the bucket let through, no more than the limit allows, less only
 * if it filled to its brim on the way: so pairs of throttles with the run never idle between them (IDLE_MS: senders
 * waiting out a Retry-After let the bucket fill) are pooled, and once they span SPAN_MS their rate is the limit. Until
 * then, a bound from above, the rate accepted in the second before the first throttle, cut by a quarter at each
 * throttle a second or more later (the run keeps running into the limit), never below what any two throttles a second
 * apart showed from below. Counted on the run's credentials only (per credential, as vendors commonly count; §8.2 does
 * not say): a limit that counts other requests too shows in throttles of the run's own, and is learned lower.
 */
class ThrottleLearner {
  private accepted = 0;
  /** Times of the answers accepted in the last RECENT_MS. */
  private readonly recent: number[] = [];
  private firstAnswerMs: number | undefined;
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

  busy(nowMs: number): void {
    if (this.outstanding++ === 0 && this.idleSinceMs !== undefined) this.longestIdleMs = Math.max(this.longestIdleMs, nowMs - this.idleSinceMs);
  }

  done(nowMs: number): void {
    if (--this.outstanding === 0) this.idleSinceMs = nowMs;
  }

  /** An answer came back: on a throttle, the limit it shows now (a margin below). */
  answered(nowMs: number, throttled: boolean): number | undefined {
    this.firstAnswerMs ??= nowMs;
    while (this.recent.length > 0 && this.recent[0]! <= nowMs - RECENT_MS) this.recent.shift();
    if (!throttled) {
      this.accepted++;
      this.recent.push(nowMs);
      return undefined;
    }
    if (!this.ceiling) {
      const window = Math.max(100, Math.min(RECENT_MS, nowMs - this.firstAnswerMs));
      this.ceiling = { perSecond: (this.recent.length * 1000) / window, cutAtMs: nowMs };
    } else if (nowMs - this.ceiling.cutAtMs >= RECENT_MS) {
      this.ceiling = { perSecond: this.ceiling.perSecond * CUT, cutAtMs: nowMs };
    }
    if (this.last) {
      const [accepted, ms] = [this.accepted - this.last.accepted, nowMs - this.last.atMs];
      // A bound from below only if it is one: each throttle finds less than a request's room left, not none.
      if (ms >= SPAN_MS) this.floor = Math.max(this.floor, ((accepted - 1) * 1000) / ms);
      if (this.longestIdleMs < IDLE_MS) {
        this.pooled.accepted += accepted;
        this.pooled.ms += ms;
      }
    }
    this.last = { atMs: nowMs, accepted: this.accepted };
    this.longestIdleMs = 0;
    const pooled = this.pooled.ms >= SPAN_MS && this.pooled.accepted >= POOLED_ACCEPTED;
    const learned = pooled ? (this.pooled.accepted * 1000) / this.pooled.ms : Math.max(this.floor, this.ceiling.perSecond);
    return hundredths(Math.max(MIN_PER_SECOND, learned * MARGIN));
  }
}

export class RunPace {
  private readonly initial: KnownLimit | undefined;
  private current: KnownLimit | undefined;
  private reported: KnownLimit | undefined;
  private nextSlotMs = Number.NEGATIVE_INFINITY;
  private lastTakeMs = Number.NEGATIVE_INFINITY;
  private readonly learner = new ThrottleLearner();
  /** What the throttles showed, and the pace the run had at the first of them (never learned above it). */
  private learned: { perSecond: number; below: number } | undefined;
  private readonly announcements = new AnnouncedLimit();
  /** Since when the run keeps to an announced limit: throttles of sends made after then contradict it. */
  private announcedSinceMs: number | undefined;
  /** Stepping up from the limit the run started with; `good`: the last pace held without a throttle. */
  private probe: { level: number; good: number | undefined; sends: number; sinceMs: number; from: number } | undefined;
  /** Where a probe's throttle brought the run back, and when: sends made before then were at the probed pace. */
  private confirmed: { perSecond: number; atMs: number; stepsDown: number } | undefined;
  private probeThrottles = 0;
  /** A run probes once: from the estimate it started with, or up to a found window not yet tested. */
  private probed: boolean;
  private readonly notes: string[] = [];
  /** How the run reads the announcements, as it last did. */
  private announcedNote: string | undefined;

  constructor(
    known: KnownLimit | undefined,
    private readonly maxRps?: number,
  ) {
    this.initial = startingLimit(maxRps, known);
    this.current = this.initial;
    this.reported = this.initial;
    const room = maxRps === undefined || (known !== undefined && known.perSecond < maxRps);
    if (known && this.initial === known && known.confidence !== 'confirmed' && room)
      this.probe = { level: known.perSecond, good: undefined, sends: 0, sinceMs: Number.NEGATIVE_INFINITY, from: known.perSecond };
    // A run paced at a confirmed limit probes nothing, not even up to a found window.
    this.probed = this.probe !== undefined || this.initial?.confidence === 'confirmed';
  }

  get limit(): KnownLimit | undefined {
    return this.current;
  }

  /** How many ms until the next send may go (0 unpaced, or when its slot has come). */
  wait(nowMs: number): number {
    return this.current ? Math.max(0, this.nextSlotMs - nowMs) : 0;
  }

  /** A send goes now, in its slot (see the head of this file); a probe counts it. */
  take(nowMs: number): void {
    if (!this.current) return;
    const interval = 1000 / this.current.perSecond;
    const paced = nowMs - this.lastTakeMs <= interval * 1.5;
    this.nextSlotMs = nowMs - this.nextSlotMs <= interval / 2 ? this.nextSlotMs + interval : nowMs + interval;
    this.lastTakeMs = nowMs;
    // Only sends the pace held back test it: a run sending slower than its pace shows nothing of the limit.
    if (this.probe && paced && ++this.probe.sends >= Math.max(PROBE_MIN_SENDS, this.probe.level * PROBE_HOLD_S)) {
      const level = Math.min(this.maxRps ?? Number.POSITIVE_INFINITY, hundredths(this.probe.level * PROBE_STEP));
      // At MAX_RPS the probe stays there, stepping no further.
      this.probe = level > this.probe.level ? { ...this.probe, level, good: this.probe.level, sends: 0 } : { ...this.probe, sends: Number.NEGATIVE_INFINITY };
      this.update(nowMs);
    }
  }

  /** A send waits for its turn or is on its way to the target: the run is not idle. */
  busy(nowMs: number): void {
    this.learner.busy(nowMs);
  }

  /** Its answer came, or it went nowhere. */
  done(nowMs: number): void {
    this.learner.done(nowMs);
  }

  /** An answer of the run's credentials came back: true when the limit changed since it last said so. */
  answered(nowMs: number, answer: PacedAnswer): boolean {
    // The target met it about halfway between its send and its answer.
    this.announcements.observe((answer.sentAtMs + nowMs) / 2, !answer.throttled, answer.announced);
    if (answer.throttled) this.throttled(nowMs, answer.sentAtMs);
    else this.learner.answered(nowMs, false);
    this.update(nowMs);
    const changed = this.current?.perSecond !== this.reported?.perSecond || this.current?.confidence !== this.reported?.confidence;
    this.reported = this.current;
    return changed;
  }

  private throttled(nowMs: number, sentAtMs: number): void {
    if (this.announcedSinceMs !== undefined && sentAtMs >= this.announcedSinceMs) this.announcements.throttledAtPace();
    if (this.probe) {
      this.probeThrottles++;
      // The pace below met none for a while: a margin below it, jitter that a short while did not show meets none
      // either; the estimate the probe started from holds its margin already (3% below what it was learned from), so
      // met none and throttled a step above, it is confirmed as it is. Throttled at that estimate, a margin below it.
      const { good, level, from } = this.probe;
      const clean = good === from ? good : hundredths((good ?? level) * MARGIN);
      // A bucket's burst hides a pace above its rate for seconds (a 10/s bucket of burst 5 let 11.56/s through for
      // 1.5 s), but not from its counter: never above the rate it shows let through since the probe began. Only a
      // bucket's: a quota below a second's worth of the pace the probe started from is no window of a second or more.
      // A window's counter (a sliding log's too) shows only the pace the run kept: 10.97/s of a 15/s log.
      const burst = this.announcements.quota > 0 && this.announcements.quota < this.probe.from && !this.announcements.rate();
      const shown = burst ? this.announcements.shownAtLeast(this.probe.sinceMs, (sentAtMs + nowMs) / 2) : undefined;
      const perSecond = shown !== undefined && shown < clean ? hundredths(Math.max(MIN_PER_SECOND, shown)) : clean;
      const met = this.probe.good === undefined ? 'the estimate it started from' : `${this.probe.good}/s met none`;
      const counted = perSecond < clean ? `, its counter shows ${perSecond}/s let through` : '';
      this.notes.push(`probed ${this.probe.level}/s: throttled; ${met}${counted}: confirmed ${perSecond}/s`);
      this.confirmed = { perSecond, atMs: nowMs, stepsDown: 0 };
      this.probe = undefined;
      return;
    }
    if (this.confirmed && sentAtMs < this.confirmed.atMs) {
      this.probeThrottles++;
      return;
    }
    // Throttled at the pace a probe confirmed: a bucket's burst hid a pace above its rate for the probe's hold (a 10/s
    // bucket of burst 5 let 11.56/s through for 1.5 s). Or at the confirmed limit the run started with: a busy
    // machine's late timers bunch sends that a burst-1 bucket refuses. A step back down, confirmed again, a few times,
    // where the throttles' learner, knowing no more than this throttle, took a burst-1 bucket of 20/s from 12.72/s to
    // 5.82/s.
    if (!this.confirmed && this.initial?.confidence === 'confirmed' && this.current === this.initial)
      this.confirmed = { perSecond: this.initial.perSecond, atMs: nowMs, stepsDown: 0 };
    if (this.confirmed && this.confirmed.stepsDown < STEPS_DOWN) {
      this.probeThrottles++;
      const perSecond = hundredths(this.confirmed.perSecond / PROBE_STEP);
      this.notes.push(`throttled at the confirmed ${this.confirmed.perSecond}/s: confirmed ${perSecond}/s`);
      this.confirmed = { perSecond, atMs: nowMs, stepsDown: this.confirmed.stepsDown + 1 };
      return;
    }
    // Throttled at a pace the run had confirmed: the limit went down.
    this.confirmed = undefined;
    const perSecond = this.learner.answered(nowMs, true)!;
    const below = this.learned?.below ?? this.current?.perSecond ?? Number.POSITIVE_INFINITY;
    this.learned = { perSecond, below };
  }

  private update(nowMs: number): void {
    const rate = this.announcements.rate();
    const told = rate?.window === 'untested' ? undefined : rate;
    // Sends of the window the run went unpaced in may still be throttled: those made a window later contradict it.
    if (told && this.announcedSinceMs === undefined) this.announcedSinceMs = nowMs + (1000 * this.announcements.quota) / told.perSecond;
    if (told) this.announcedNote = `keeps to the announced ${told.how}`;
    for (const why of [this.announcements.distrusted, this.announcements.refuted]) if (why && !this.notes.includes(why)) this.notes.push(why);
    // A found window nothing has tested yet is no limit: kept to, nothing the run sent could break it. Above the pace,
    // the run probes up to it, once: its throttles test it (or break it), and end the probe.
    if (rate?.window === 'untested' && !this.probed && this.current && rate.perSecond * MARGIN > this.current.perSecond) {
      if (this.maxRps === undefined || this.current.perSecond < this.maxRps) {
        this.probed = true;
        this.probe = { level: this.current.perSecond, good: undefined, sends: 0, sinceMs: nowMs, from: this.current.perSecond };
        this.notes.push(`probes from ${this.current.perSecond}/s up to the announced ${rate.how}, untested`);
      }
    }
    // A window the run found and tested, not one the target stated, may still be a whole-window look of another
    // limiter (a sliding log run in bursts): an estimate, which the next run probes, and this run's probe may go above.
    const announced: KnownLimit | undefined = told && {
      perSecond: hundredths(told.perSecond * MARGIN),
      from: LEARNED_HERE,
      basis: 'announced',
      confidence: told.window === 'stated' ? 'confirmed' : 'estimate',
    };
    const probed: KnownLimit | undefined = this.confirmed
      ? { perSecond: this.confirmed.perSecond, from: LEARNED_HERE, basis: 'probed', confidence: 'confirmed' }
      : this.probe?.good !== undefined
        ? { perSecond: this.probe.level, from: LEARNED_HERE, basis: 'probed', confidence: 'estimate' }
        : undefined;
    const learned: KnownLimit | undefined = this.learned && {
      perSecond: Math.min(this.learned.perSecond, this.learned.below),
      from: LEARNED_HERE,
      basis: 'throttles',
      confidence: 'estimate',
    };
    const higher = [announced, probed].filter((l) => l !== undefined).sort((a, b) => b.perSecond - a.perSecond)[0];
    // A probe's confirmation stands over a found window: else a run from a found window's estimate would probe, confirm
    // and leave the estimate again, and every next run would pay its probe.
    const next = (told?.window === 'stated' ? announced : this.confirmed ? probed : higher) ?? learned ?? this.initial;
    const capped = next && this.maxRps !== undefined && next.perSecond > this.maxRps ? { perSecond: this.maxRps, from: FROM_MAX_RPS } : next;
    if (capped?.perSecond !== this.current?.perSecond || capped?.basis !== this.current?.basis || capped?.confidence !== this.current?.confidence)
      this.current = capped;
  }

  record(): PaceRecord {
    const probed = this.probeThrottles > 0 ? [`${this.probeThrottles} throttled answers at the probed pace`] : [];
    const announced = this.announcedNote ? [this.announcedNote] : [];
    return { initial: this.initial ?? null, limit: this.current ?? null, notes: [...announced, ...this.notes, ...probed] };
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
