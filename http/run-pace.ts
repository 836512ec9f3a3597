// The pace of a whole run (spec §8.2: rate limits not shown): one grid of send slots that every request of the run books
// from, kept below the target's rate limit when the run knows it. Pure: the run's pace server (contract/target/pace-link.ts)
// holds one per run and feeds it the clock and every worker's sends and answers. docs/pace.md states what it promises.
//
// Two numbers: the target's limit (what it announced, or let through while the run pressed it: sends waiting their
// turn) and the pace the run keeps under it (a margin below, or as far below as the network's jitter requires to meet
// no throttle). Never faster than the pace: slots are 1/pace apart. The first send of a run, and the first after the
// run was idle, goes at once and the next a whole slot later; a send whose timer fired late (a busy machine) starts
// the slots again from it: the slots it missed are dropped, never caught up, so a late timer never turns into a burst
// that a fixed window throttles. Within the margin below the limit (a timer's millisecond) it keeps to its slot. So
// no two sends go closer than 1/limit, and any k sends after a send span k/pace less that margin of one slot.
//
// A busy machine still bunches the run's own sends (a worker sends late after its turn, the next on time) and reads
// their answers late. A throttle of sends the run bunched (its own send times, which each worker tells the pace, put
// more than the announced quota within a window of one another) says nothing against what the target announced: it
// neither counts against the announcement nor slows the pace kept under it (bunchedAround). The target is taken to
// have met a request no later after it left than the network's slowest half round trip (metAt), so the counter it
// announced reads in the order it kept, to the network's jitter, not in the order a busy machine read the answers.
//
// Where the limit comes from, first to last:
// - a window the target states (http/rate-headers.ts AnnouncedLimit: a policy's w), or one found from its counter that
//   the run's answers verified (its quota held as throttles came, its counter never came back within a window):
//   confirmed, the pace 3% below, never probed above, until its announcements contradict the throttles the run meets
//   sending evenly below it;
// - a probe: a run that starts from an estimate, or that a throttle bounded nothing, steps its pace 7% up each time it
//   has kept one PROBE_HOLD_S without a throttle; at its first throttle it keeps pressing until the throttles' pairs
//   measure what the target lets through (MEASURE_THROTTLES at most): that is the limit, confirmed, the pace a margin
//   below; without a measurement, the last pace that met none (or the estimate, throttled at once); never above the
//   rate a bucket's counter shows let through. Each throttle at a confirmed pace steps the pace 7% down (the limit
//   stays: jitter, not the rate), STEPS_DOWN times at most;
// - the throttles (ThrottleLearner), counted only while the run pressed the target, its pace never above the pace the
//   run had when they came; a throttle of a run that was not pressing bounds nothing;
// - the limit the run started with (MAX_RPS, the run before's, a baseline's).
// A limit learned or probed is never above what the throttles' pairs measured under pressure. MAX_RPS caps the pace.
import type { KnownLimit } from '../lib/fingerprint.ts';
import type { MetTimes } from './found-window.ts';
import { AnnouncedLimit, type Announcement } from './rate-headers.ts';

/** The run's pace: the limit it started with, the one it keeps to now (none: unpaced) and what it says of them. */
export interface PaceRecord {
  initial: KnownLimit | null;
  limit: KnownLimit | null;
  /** Announcements not trusted, probes and what they found: lines for the run's rate.limit evidence. */
  notes?: string[];
}

/** One answer of the run's credentials, as its worker saw it go and come back. */
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
/** The run's sends filled this share of its pace's slots at least: it pressed the target. */
const PRESSED_SHARE = 0.75;
/**
 * Pooled pairs whose throttles are fewer than this share of what they accepted show the run's own pace, not the
 * target's: a run asking for more than the target lets through meets one throttle a window against a fixed window, a
 * share of its excess against a bucket.
 */
const EXCESS = 0.03;
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
/**
 * Throttles a probe spends pressing at the pace first throttled, for pairs that measure the limit: two where a window
 * throttles once per window, more where a bucket refuses a share of every second.
 */
const MEASURE_THROTTLES = 4;
/** Steps of the pace down from a confirmed limit, each at a throttle of that pace, before the throttles teach the limit again. */
const STEPS_DOWN = 3;
/** The run's own send times kept, in quotas (50 sends at least): enough to tell whether a throttled send was bunched. */
const SENDS_KEPT_QUOTAS = 4;
/** Half round trips kept: their fastest quarter says how late the network's slowest is, however late the rest are read. */
const HALVES_KEPT = 51;

export const LEARNED_HERE = "this run's answers";
/** A limit the user set (MAX_RPS): the run's own pace, no vendor's. */
export const FROM_MAX_RPS = 'MAX_RPS';

const hundredths = (n: number) => Math.round(n * 100) / 100;

/** The pace a run keeps under `limit`: its own where it is slower than the limit, else the limit. */
export const paceOf = (limit: KnownLimit): number => limit.pace ?? limit.perSecond;

/** Whether two limits say the same (where they come from aside): the limit, the pace, how it was known and how sure. */
const sameLimit = (a: KnownLimit | undefined, b: KnownLimit | undefined) =>
  a?.perSecond === b?.perSecond && a?.pace === b?.pace && a?.basis === b?.basis && a?.confidence === b?.confidence;

/** Whether an answer says the target's rate limit was met: a 429, or a 503 with Retry-After (one without is an outage's). */
export function throttledForRate(status: number, retryAfter: string | undefined): boolean {
  return status === 429 || (status === 503 && retryAfter !== undefined);
}

/**
 * The limit a run starts with: MAX_RPS and the target's limit as the run before found it (else as a baseline's run
 * did), the slower pace of the two, so a run never goes faster than the target allows nor than its user asks.
 */
export function startingLimit(maxRps: number | undefined, known: KnownLimit | undefined): KnownLimit | undefined {
  const configured = maxRps === undefined ? undefined : { perSecond: maxRps, from: FROM_MAX_RPS };
  if (!configured || !known) return configured ?? known;
  return paceOf(known) < configured.perSecond ? known : configured;
}

/**
 * The limit the throttles show, counted while the run pressed the target: its sends filled the pace's slots (they
 * waited their turn), so the target, not the run, set how many it accepted. A run that sent no faster than it chose
 * to shows no rate the target holds it to (a bucket of burst 1 throttles two sends that happened to arrive close, at
 * any pace), nor does one going unpaced. An answer throttled for the rate shows the target's bucket empty when it
 * arrived. Between two throttles the answers accepted are what the bucket let through, no more than the limit allows,
 * less only if it filled to its brim on the way: so pairs of throttles with the run pressing throughout at one pace
 * (IDLE_MS: senders waiting out a Retry-After let the bucket fill) are pooled, and once they span SPAN_MS and their
 * throttles show the run asked for more than the target let through (EXCESS), their rate is the limit (a span that
 * begins and ends with the bucket empty holds none of its burst). Until then, a bound from above: the rate accepted
 * in the second before the first throttle the run met pressing, cut by a quarter at each throttle a second or more
 * later while it presses (the run keeps running into the limit), never below what any two throttles a
 * second apart showed from below. That bound from below alone is no limit: it is what a run that never pressed got
 * through at its own pace (a run whose tests thought between their requests read it as 1/s of 12/s). Counted on the
 * run's credentials only (per credential, as vendors commonly count; §8.2 does not say): a limit that counts other
 * requests too shows in throttles of the run's own, and is learned lower. Times are those the target met the answers at, so the round trip's jitter stays out of the spans.
 */
class ThrottleLearner {
  private accepted = 0;
  /** The answers of the last RECENT_MS, and which were accepted. */
  private readonly recent: Array<{ atMs: number; accepted: boolean }> = [];
  private firstAnswerMs: number | undefined;
  /** Whether the last throttle found the run pressing at its pace. */
  private pressed = false;
  private ceiling: { perSecond: number; cutAtMs: number } | undefined;
  /** From below: the most any two throttles a second or more apart showed, idle between or not. */
  private floor = 0;
  /** The last throttle, and the answers accepted by then. */
  private last: { atMs: number; accepted: number } | undefined;
  /** Answers accepted between pairs of throttles with the run pressing throughout, the pairs, and the time they span. */
  private readonly pooled = { accepted: 0, pairs: 0, ms: 0 };
  /** Since the last throttle: the answers, accepted or not, and the slowest pace the run had (0: unpaced at some point). */
  private since = { answers: 0, slowest: Number.POSITIVE_INFINITY };
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

  /** What the pooled pairs measured under pressure, once they span SPAN_MS and throttled the run's excess; undefined before. */
  get measured(): number | undefined {
    const { accepted, pairs, ms } = this.pooled;
    return ms >= SPAN_MS && accepted >= POOLED_ACCEPTED && pairs >= EXCESS * accepted ? hundredths((accepted * 1000) / ms) : undefined;
  }

  get lastPressed(): boolean {
    return this.pressed;
  }

  /** Pairs from the last throttle on only: those before it were of another pace. */
  measureAfresh(): void {
    Object.assign(this.pooled, { accepted: 0, pairs: 0, ms: 0 });
  }

  /**
   * What the target accepted over the last RECENT_MS, per second: a pace to start from, no bound. A handful of answers
   * (a bucket of burst 1 throttles the run's second request) over the time since the first one: read over a second,
   * they left the probe at 1/s, 10 s a step (a first run of 225 s, 6.3 times its floor).
   */
  recentRate(nowMs: number): number {
    this.prune(nowMs);
    const accepted = this.recent.filter((r) => r.accepted).length;
    const window = accepted < POOLED_ACCEPTED ? Math.max(100, Math.min(RECENT_MS, nowMs - (this.firstAnswerMs ?? nowMs))) : RECENT_MS;
    return hundredths(Math.max(MIN_PER_SECOND, (accepted * 1000) / window));
  }

  /**
   * An answer the target met at `metAtMs`, the run paced at `pace` per second (undefined: unpaced): on a throttle,
   * the limit it shows now (no margin), or undefined where it bounds nothing.
   */
  answered(metAtMs: number, throttled: boolean, pace: number | undefined): number | undefined {
    this.firstAnswerMs ??= metAtMs;
    this.prune(metAtMs);
    this.since = { answers: this.since.answers + 1, slowest: Math.min(this.since.slowest, pace ?? 0) };
    this.recent.push({ atMs: metAtMs, accepted: !throttled });
    if (!throttled) {
      this.accepted++;
      return undefined;
    }
    // The run filled the pace's slots over `ms`: it pressed (a sender thinking between its requests leaves one now and then).
    const pressing = (answers: number, ms: number) => pace !== undefined && answers >= (PRESSED_SHARE * pace * ms) / 1000;
    const window = Math.max(100, Math.min(RECENT_MS, metAtMs - this.firstAnswerMs));
    this.pressed = pressing(this.recent.length, window);
    if (!this.ceiling && this.pressed) {
      // Throttled pressing at its pace, the run asked more than the target lets through: the pace bounds it too.
      const accepted = (this.recent.filter((r) => r.accepted).length * 1000) / window;
      this.ceiling = { perSecond: Math.min(accepted, pace ?? accepted), cutAtMs: metAtMs };
    } else if (this.ceiling && this.pressed && metAtMs - this.ceiling.cutAtMs >= RECENT_MS) {
      // Throttled pressing a second on: the run keeps running into the limit. Only pressing: a run sending slower
      // than its pace sets how many were accepted itself, and its throttles say nothing of the limit.
      this.ceiling = { perSecond: this.ceiling.perSecond * CUT, cutAtMs: metAtMs };
    }
    if (this.last) {
      const [accepted, ms] = [this.accepted - this.last.accepted, metAtMs - this.last.atMs];
      // A bound from below only if it is one: each throttle finds less than a request's room left, not none.
      if (ms >= SPAN_MS) this.floor = Math.max(this.floor, ((accepted - 1) * 1000) / ms);
      // Paced throughout and never slower than now (no probe stepped up between): the pair is of this pace.
      const steady = pace !== undefined && this.since.slowest >= pace;
      if (steady && this.longestIdleMs < IDLE_MS && pressing(this.since.answers, ms)) {
        this.pooled.accepted += accepted;
        this.pooled.pairs++;
        this.pooled.ms += ms;
      }
    }
    this.last = { atMs: metAtMs, accepted: this.accepted };
    this.longestIdleMs = 0;
    this.since = { answers: 0, slowest: Number.POSITIVE_INFINITY };
    const learned = this.measured ?? (this.ceiling ? Math.max(this.floor, this.ceiling.perSecond) : 0);
    return learned > 0 ? hundredths(Math.max(MIN_PER_SECOND, learned)) : undefined;
  }

  private prune(nowMs: number): void {
    while (this.recent.length > 0 && this.recent[0]!.atMs <= nowMs - RECENT_MS) this.recent.shift();
  }
}

/** A probe stepping the pace up; `good`: the last pace that held without a throttle; `measuring`: throttled, pressing for a measurement. */
interface Probe {
  level: number;
  good: number | undefined;
  /** Sends at `level`, and since when: the first of them. */
  sends: number;
  heldSinceMs?: number;
  sinceMs: number;
  /** The pace it started from, and the limit it started with (an estimate, a window found; none for a throttle that bounded nothing). */
  from: number;
  bounded: boolean;
  /** Up to a window the target announced, found from its counter and not yet tested: its throttles test it. */
  toAnnounced?: true;
  measuring?: { throttles: number };
}

export class RunPace {
  private readonly initial: KnownLimit | undefined;
  private current: KnownLimit | undefined;
  private reported: KnownLimit | undefined;
  private nextSlotMs = Number.NEGATIVE_INFINITY;
  private readonly learner = new ThrottleLearner();
  /** What the throttles showed, never above the pace the run had at the first of them: a pace throttled is more than the target lets through. */
  private learned: { perSecond: number; below: number } | undefined;
  private readonly announcements = new AnnouncedLimit();
  /** Since when the run keeps to an announced limit: throttles of sends made after then contradict it. */
  private announcedSinceMs: number | undefined;
  private probe: Probe | undefined;
  /** What a probe confirmed (the limit and the pace under it) and when: sends made before then were at the probed pace. */
  private confirmed: { perSecond: number; pace: number; atMs: number; stepsDown: number; basis: KnownLimit['basis'] } | undefined;
  private probeThrottles = 0;
  /** A run probes once from what it knew: the estimate it started with, or up to a found window not yet tested. */
  private probed: boolean;
  /** And once from a throttle that bounded nothing, when it went unpaced. */
  private probedFromNothing = false;
  private readonly notes: string[] = [];
  /** How the run reads the announcements, as it last did. */
  private announcedNote: string | undefined;
  /** When the run's own sends on its credentials left, in order: what bunching is measured from. */
  private readonly sends: number[] = [];
  /** Half the round trips of the last answers: the fastest of them bound when the target met an answer read late. */
  private readonly halves: number[] = [];
  /** Throttles of sends the run bunched: none counted against an announced limit. */
  private bunchedThrottles = 0;

  constructor(
    known: KnownLimit | undefined,
    private readonly maxRps?: number,
  ) {
    this.initial = startingLimit(maxRps, known);
    this.current = this.initial;
    this.reported = this.initial;
    const room = maxRps === undefined || (known !== undefined && paceOf(known) < maxRps);
    if (known && this.initial === known && known.confidence !== 'confirmed' && room)
      this.probe = { level: paceOf(known), good: undefined, sends: 0, sinceMs: Number.NEGATIVE_INFINITY, from: paceOf(known), bounded: true };
    // A run paced at a confirmed limit probes nothing, not even up to a found window.
    this.probed = this.probe !== undefined || this.initial?.confidence === 'confirmed';
  }

  get limit(): KnownLimit | undefined {
    return this.current;
  }

  /** The pace the run keeps now; undefined unpaced. */
  private pace(): number | undefined {
    return this.current && paceOf(this.current);
  }

  /** How many ms until the next send may go (0 unpaced, or when its slot has come). */
  wait(nowMs: number): number {
    return this.current ? Math.max(0, this.nextSlotMs - nowMs) : 0;
  }

  /**
   * A send goes now, in its slot, the next a whole slot after it; the slots a late one missed are dropped. A timer's
   * own millisecond or two (within the margin the pace keeps below the limit, 3% of a slot) is no miss: the slots stay
   * where they were, so no two sends go closer than 1/limit, and the timers' granularity does not slow the pace.
   */
  take(nowMs: number): void {
    if (!this.current) return;
    const interval = 1000 / paceOf(this.current);
    this.nextSlotMs = (nowMs - this.nextSlotMs <= interval * (1 - MARGIN) ? this.nextSlotMs : nowMs) + interval;
    const probe = this.probe;
    if (!probe || probe.measuring) return;
    probe.heldSinceMs ??= nowMs;
    if (++probe.sends < Math.max(PROBE_MIN_SENDS, probe.level * PROBE_HOLD_S)) return;
    // Only a hold whose sends filled the pace's slots tests it: a run sending slower than its pace (its senders think
    // between requests, or there are too few of them) shows nothing of the limit; it holds again.
    if (nowMs - probe.heldSinceMs > (probe.sends * 1000) / (probe.level * PRESSED_SHARE)) {
      this.probe = { ...probe, sends: 0, heldSinceMs: nowMs };
      return;
    }
    const level = Math.min(this.maxRps ?? Number.POSITIVE_INFINITY, hundredths(probe.level * PROBE_STEP));
    // At MAX_RPS the probe stays there, stepping no further.
    const { heldSinceMs: _, ...rest } = probe;
    this.probe = level > probe.level ? { ...rest, level, good: probe.level, sends: 0 } : { ...rest, sends: Number.NEGATIVE_INFINITY };
    this.update(nowMs);
  }

  /** A send waits for its turn or is on its way to the target: the run is not idle. */
  busy(nowMs: number): void {
    this.learner.busy(nowMs);
  }

  /** Its answer came, or it went nowhere. */
  done(nowMs: number): void {
    this.learner.done(nowMs);
  }

  /** A send on the run's credentials left for the target, as it left (a worker late after its turn included). */
  sent(nowMs: number): void {
    let at = this.sends.length;
    while (at > 0 && this.sends[at - 1]! > nowMs) at--;
    this.sends.splice(at, 0, nowMs);
    // A throttled send is answered a round trip after it left: a few quotas of sends either side of it tell.
    if (this.sends.length > SENDS_KEPT_QUOTAS * Math.max(this.announcements.quota, 50)) this.sends.shift();
  }

  /**
   * The window an announced limit is counted in: its quota over its rate (a stated or found window, else the announced
   * limit the run keeps); a second where none is known.
   */
  private windowMs(): number {
    const quota = this.announcements.quota;
    const perSecond = this.announcements.rate()?.perSecond ?? (this.current?.basis === 'announced' ? this.current.perSecond : undefined);
    return quota > 0 && perSecond ? (1000 * quota) / perSecond : 1000;
  }

  /**
   * Whether the run's own sends around `sentAtMs` were bunched: more than the announced quota went within a window of
   * one another, with the margin the pace keeps below it (the network's jitter), that span holding this send. Sent
   * evenly at a pace below the quota they never are, so a throttle among them speaks of the target; bunched (a timer
   * that fired late, a worker that sent late after its turn), a window may throttle the run's own bunch whatever it
   * allows. No announced quota: nothing to be bunched against.
   */
  private bunchedAround(sentAtMs: number): boolean {
    const quota = this.announcements.quota;
    if (quota <= 0) return false;
    const span = this.windowMs() / MARGIN;
    const near = this.sends.filter((t) => t > sentAtMs - span && t < sentAtMs + span);
    for (let first = 0, last = 0; first < near.length && near[first]! <= sentAtMs; first++) {
      while (last + 1 < near.length && near[last + 1]! - near[first]! < span) last++;
      if (near[last]! >= sentAtMs && last - first + 1 > quota) return true;
    }
    return false;
  }

  /**
   * When the target met a request sent at `sentAtMs` and answered at `nowMs`: halfway, but never later after its send
   * than the network's slowest half round trip, read from the fastest quarter of the last answers. A busy machine
   * reads an answer late (its event loop was elsewhere, by tens of ms and more the busier it is): halfway would put it
   * up to half that lateness late, out of the order the target's counter kept, and a window's last answer after the
   * next one's first (its counter seen to come back within a window: no fixed window, a busy first run learned
   * 12.75/s of an announced 15/s from its throttles). Read from the median, the bound rose with the lateness itself.
   */
  private metAt(sentAtMs: number, nowMs: number): number {
    const half = (nowMs - sentAtMs) / 2;
    this.halves.push(half);
    if (this.halves.length > HALVES_KEPT) this.halves.shift();
    const sorted = [...this.halves].sort((a, b) => a - b);
    const fastest = sorted[0]!;
    // The network's slowest half round trip, read from its faster ones, so that a quarter of the answers read on time
    // suffice: the fastest quarter of a spread as even as a network's jitter spans a quarter of it (80-140 ms round
    // trips: 40 to 47.5 ms, so up to 70), four times it the whole.
    const slowest = fastest + 4 * (sorted[sorted.length >> 2]! - fastest);
    return sentAtMs + Math.min(half, slowest);
  }

  /** An answer of the run's credentials came back: true when the limit it would leave changed since it last said so. */
  answered(nowMs: number, answer: PacedAnswer): boolean {
    const met = { atMs: this.metAt(answer.sentAtMs, nowMs), leftMs: answer.sentAtMs, backMs: nowMs };
    const bunched = answer.throttled && this.bunchedAround(answer.sentAtMs);
    this.announcements.observe({ ...met, accepted: !answer.throttled }, answer.announced, bunched);
    if (answer.throttled) this.throttled(met, bunched);
    else this.learner.answered(met.atMs, false, this.pace());
    this.update(nowMs);
    const [now, before] = [this.leaving(), this.reported];
    this.reported = now;
    return !sameLimit(now, before);
  }

  /** A throttle the target met at about `atMs`, between when its send left and when its answer came. */
  private throttled(met: Required<MetTimes>, bunched: boolean): void {
    const { atMs: metAtMs, leftMs: sentAtMs, backMs: nowMs } = met;
    // Only a throttle the pace met sending evenly below the announced limit contradicts it; one of the run's own bunch
    // does not.
    const keptToAnnounced = this.announcedSinceMs !== undefined && sentAtMs >= this.announcedSinceMs;
    if (keptToAnnounced && bunched) this.bunchedThrottles++;
    else if (keptToAnnounced) this.announcements.throttledAtPace();
    // Every throttle counts towards what the pairs measure, whatever the pace does with it.
    const shown = this.learner.answered(metAtMs, true, this.pace());
    const probe = this.probe;
    // A probe up to the announced window is its test: a throttle of the run's own bunch tests it as any other (the
    // window counts it), but measures nothing of the pace below it, and does not end the probe there. Ended there, a
    // busy first run confirmed the pace it probed from (14.7/s of an announced 15) and its next bunches stepped it
    // down to 12.46/s: the window never came to be tested at its own rate.
    if (bunched && probe?.toAnnounced) {
      if (!keptToAnnounced) this.bunchedThrottles++;
      return;
    }
    if (probe && (probe.bounded || probe.good !== undefined)) {
      this.probeThrottles++;
      const counted = this.counted(probe, met);
      if (!probe.measuring) {
        probe.measuring = { throttles: 0 };
        this.learner.measureAfresh();
      }
      // Pressing on at the pace first throttled until the pairs measure the target, a few throttles at most; a
      // bucket's counter measures it at once.
      if (counted === undefined && this.learner.measured === undefined && ++probe.measuring.throttles < MEASURE_THROTTLES) return;
      this.confirm(probe, nowMs, counted);
      return;
    }
    if (probe) {
      // From a pace nothing bounded, throttled before any step: what the throttles show, once they show anything.
      // Its first second's sends arrive among the unpaced ones still on their way: they say nothing of its pace.
      // A throttle that finds it not pressing says nothing of its pace (a bunch a stalled target let arrive at once).
      if (sentAtMs < probe.sinceMs + RECENT_MS || shown === undefined || !this.learner.lastPressed) return;
      this.probe = undefined;
      this.learned = { perSecond: Math.min(shown, probe.level), below: probe.level };
      return;
    }
    if (this.confirmed && sentAtMs < this.confirmed.atMs) {
      this.probeThrottles++;
      return;
    }
    // Throttled at a confirmed pace: the network's jitter brought sends closer than the target takes them (a burst-1
    // bucket refuses one that arrives sooner than 1/rate after the one before), or a busy machine's late timers bunched
    // them, or a bucket's burst hid a pace above its rate for the probe's hold. The pace steps down, a few times; the
    // limit stays.
    if (!this.confirmed && this.initial?.confidence === 'confirmed' && this.current === this.initial)
      this.confirmed = { perSecond: this.initial.perSecond, pace: paceOf(this.initial), atMs: nowMs, stepsDown: 0, basis: this.initial.basis };
    // An announced limit's pace is not slowed for the run's own bunch: slowed, the runs after would keep it so.
    if (bunched && this.confirmed?.basis === 'announced') {
      if (!keptToAnnounced) this.bunchedThrottles++;
      return;
    }
    if (this.confirmed && this.confirmed.stepsDown < STEPS_DOWN) {
      this.probeThrottles++;
      const { pace: throttled, perSecond, basis } = this.confirmed;
      const pace = hundredths(throttled / PROBE_STEP);
      // The target did not let the pace through: a limit learned is no higher (a bucket's burst hid it for the
      // probe's hold); one it announced stands.
      const limit = basis === 'announced' ? perSecond : Math.min(perSecond, throttled);
      this.notes.push(`throttled at the confirmed pace of ${throttled}/s: its pace ${pace}/s${limit < perSecond ? `, the limit ${limit}/s at most` : ''}`);
      this.confirmed = { ...this.confirmed, perSecond: limit, pace, atMs: nowMs, stepsDown: this.confirmed.stepsDown + 1 };
      return;
    }
    // Throttled past that: the limit went down.
    this.confirmed = undefined;
    if (shown === undefined) {
      // Not pressing, the throttle bounds nothing. Unpaced, the run goes at what the target took over the last second,
      // and probes up from it: the throttle may be of two sends that happened to arrive close.
      if (!this.current && !this.probedFromNothing) {
        const from = this.learner.recentRate(nowMs);
        this.probedFromNothing = true;
        this.probe = { level: from, good: undefined, sends: 0, sinceMs: nowMs, from, bounded: false };
        this.notes.push(`throttled, the run not pressing: no bound; probes up from ${from}/s, what the target took in the last second`);
      }
      return;
    }
    const below = this.learned?.below ?? (this.current ? paceOf(this.current) : Number.POSITIVE_INFINITY);
    this.learned = { perSecond: Math.min(shown, below), below };
  }

  /**
   * A bucket's burst hides a pace above its rate for seconds (a 10/s bucket of burst 5 let 11.56/s through for 1.5 s),
   * but not from its counter: the rate it shows let through since the probe began, up to the throttle the target met
   * at `throttle` (its bucket empty then). Only a bucket's: a quota below a second's worth of the pace the probe
   * started from is no window of a second or more. A window's counter (a sliding log's too) shows only the pace the
   * run kept: 10.97/s of a 15/s log.
   */
  private counted(probe: Probe, throttle: MetTimes): number | undefined {
    const burst = this.announcements.quota > 0 && this.announcements.quota < probe.from && !this.announcements.rate();
    const shown = burst ? this.announcements.shownAtLeast(probe.sinceMs, throttle) : undefined;
    return shown === undefined ? undefined : hundredths(Math.max(MIN_PER_SECOND, shown));
  }

  /**
   * The probe ends: the rate a bucket's counter shows let through, else the limit its pressing measured, else the
   * last pace that met none (or the estimate it started from, throttled at once); its pace a margin below.
   */
  private confirm(probe: Probe, nowMs: number, counted: number | undefined): void {
    const measured = this.learner.measured;
    const { good, level, from } = probe;
    // The pace below met none for a while: a margin below it, jitter that a short while did not show meets none
    // either; the estimate the probe started from holds its margin already, so met none and throttled a step above,
    // it is kept as it is.
    const limit = Math.min(counted ?? measured ?? good ?? level, level);
    // A bucket's burst can hide a pace above its rate for the hold, a window's jitter a pace at its rate: a margin
    // below the slower of what met none and what was measured.
    const pace =
      counted !== undefined
        ? hundredths(limit)
        : measured === undefined && probe.bounded && good === from
          ? good
          : hundredths(Math.min(limit, good ?? limit) * MARGIN);
    const met = good === undefined ? 'the pace it started from' : `${good}/s met none`;
    const how =
      counted !== undefined ? `its counter shows ${counted}/s let through` : measured !== undefined ? `the throttles' pairs measured ${measured}/s` : '';
    this.notes.push(`probed ${level}/s: throttled; ${met}${how ? `, ${how}` : ''}: confirmed a limit of ${hundredths(limit)}/s, its pace ${pace}/s`);
    this.confirmed = { perSecond: hundredths(limit), pace, atMs: nowMs, stepsDown: 0, basis: 'probed' };
    this.probe = undefined;
    this.probed = true;
  }

  private update(nowMs: number): void {
    const rate = this.announcements.rate();
    // Stated, or found and verified by the run's own answers: the window the run keeps to, never probed above.
    const told = rate?.window === 'untested' ? undefined : rate;
    // Sends of the window the run went unpaced in may still be throttled: those made a window later contradict it.
    if (told && this.announcedSinceMs === undefined) this.announcedSinceMs = nowMs + (1000 * this.announcements.quota) / told.perSecond;
    if (told) this.announcedNote = `keeps to the announced ${told.how}`;
    if (told && this.probe) this.probe = undefined;
    for (const why of [this.announcements.distrusted, this.announcements.refuted]) if (why && !this.notes.includes(why)) this.notes.push(why);
    // A found window nothing has tested yet is no limit: kept to, nothing the run sent could break it. Above the pace,
    // the run probes up to it, once: its throttles test it (or break it), and end the probe.
    if (rate?.window === 'untested' && !this.probed && this.current && rate.perSecond * MARGIN > paceOf(this.current)) {
      if (this.maxRps === undefined || paceOf(this.current) < this.maxRps) {
        const from = paceOf(this.current);
        this.probed = true;
        this.probe = { level: from, good: undefined, sends: 0, sinceMs: nowMs, from, bounded: true, toAnnounced: true };
        this.notes.push(`probes from ${from}/s up to the announced ${rate.how}, untested`);
      }
    }
    const announced: KnownLimit | undefined = told && {
      perSecond: hundredths(told.perSecond),
      pace: hundredths(told.perSecond * MARGIN),
      from: LEARNED_HERE,
      basis: 'announced',
      confidence: 'confirmed',
    };
    const probed: KnownLimit | undefined = this.confirmed
      ? { perSecond: this.confirmed.perSecond, pace: this.confirmed.pace, from: LEARNED_HERE, basis: this.confirmed.basis ?? 'probed', confidence: 'confirmed' }
      : this.probe && (this.probe.good !== undefined || !this.probe.bounded)
        ? {
            perSecond: this.probe.level,
            pace: this.probe.level,
            from: LEARNED_HERE,
            basis: this.probe.bounded ? 'probed' : 'throttles',
            confidence: 'estimate',
          }
        : undefined;
    const learned: KnownLimit | undefined = this.learned && {
      perSecond: this.learned.perSecond,
      pace: hundredths(this.learned.perSecond * MARGIN),
      from: LEARNED_HERE,
      basis: 'throttles',
      confidence: 'estimate',
    };
    const next = this.measuredAtMost((told ? announced : probed) ?? learned ?? this.initial);
    const capped = next && this.maxRps !== undefined && paceOf(next) > this.maxRps ? { perSecond: this.maxRps, from: FROM_MAX_RPS } : next;
    // The same limit keeps its object: a throttle tells the run's starting limit by it.
    if (!sameLimit(capped, this.current)) this.current = capped;
  }

  /**
   * A limit learned or probed (here or by a run before) is never above what the throttles' pairs measured under
   * pressure: a bucket's burst hid a pace above its rate for the probe's hold (20/s of burst 20 was confirmed at 22.31/s).
   * An announced one stands (the target says it); a user's MAX_RPS is no vendor's limit.
   */
  private measuredAtMost(limit: KnownLimit | undefined): KnownLimit | undefined {
    const measured = this.learner.measured;
    if (!limit || measured === undefined || limit.basis === 'announced' || limit.from === FROM_MAX_RPS || limit.perSecond <= measured) return limit;
    return { ...limit, perSecond: measured, pace: Math.min(paceOf(limit), hundredths(measured * MARGIN)) };
  }

  /**
   * The limit as the run would leave it now: the one it keeps, but while a probe presses at a pace the target
   * throttled (measuring), that pace is more than the target lets through, so the last that met none (or the estimate
   * the probe started from) is the estimate. A run that ended there left its throttled pace as the limit: 14.45/s of
   * a 10/s bucket, which the next run confirmed at 12.62/s.
   */
  private leaving(): KnownLimit | undefined {
    const probe = this.probe;
    if (!this.current || !probe?.measuring) return this.current;
    const below = probe.good ?? probe.from;
    return below < this.current.perSecond ? { ...this.current, perSecond: below, pace: Math.min(below, paceOf(this.current)) } : this.current;
  }

  record(): PaceRecord {
    const probed = this.probeThrottles > 0 ? [`${this.probeThrottles} throttled answers at the probed pace`] : [];
    if (this.bunchedThrottles > 0)
      probed.push(
        `${this.bunchedThrottles} throttled answers of sends the run bunched (more than the quota within a window), none counted against the announced limit`,
      );
    const announced = this.announcedNote ? [this.announcedNote] : [];
    return { initial: this.initial ?? null, limit: this.leaving() ?? null, notes: [...announced, ...this.notes, ...probed] };
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
