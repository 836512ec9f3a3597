// What a target announces of its rate limit (spec §8.2: rate limits not shown, so none of it is assumed present or
// true): the fields of draft-ietf-httpapi-ratelimit-headers as it stands (RateLimit-Policy `"name";q=15;w=1`, RateLimit
// `"name";r=3;t=1`), those of its earlier drafts (RateLimit-Limit, -Remaining, -Reset; a policy as `15;w=1`) and the
// common X-RateLimit-Limit, -Remaining, -Reset (Reset as seconds from now or as a Unix time). Pure: what one answer
// says (readAnnouncement), and what a run's answers say together, cross-checked against the target's throttles
// (AnnouncedLimit), for the run's pace (http/run-pace.ts).
import { type BareItem, type Item, type List, parseList } from 'structured-headers';
import { headerValue } from './throttle.ts';
import { counterJumps, foundWindow, TESTED as TESTED_WINDOWS, type Met, type MetTimes } from './found-window.ts';

export type AnnouncedStyle = 'RateLimit-Policy' | 'RateLimit-Limit' | 'X-RateLimit-Limit';

/** One answer's announcement: a quota of requests, the window when stated, and where the quota stands now. */
export interface Announcement {
  style: AnnouncedStyle;
  quota: number;
  /** Seconds; absent where the field states none (X-RateLimit-Limit, a bare RateLimit-Limit). */
  windowSeconds?: number;
  remaining?: number;
  /** Seconds until the quota is whole again. */
  resetSeconds?: number;
}

/** A Unix time in seconds is past this; a Reset below it counts seconds from now. */
const UNIX_SECONDS = 1e9;
const UNIX_MS = 1e12;

const whole = (value: BareItem | undefined): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/** A structured-field List, or none when the field is absent or does not parse. */
function list(headers: Record<string, string>, name: string): List | undefined {
  const value = headerValue(headers, name);
  if (value === undefined) return undefined;
  try {
    return parseList(value);
  } catch {
    return undefined;
  }
}

const items = (members: List | undefined): Item[] => (members ?? []).filter((m): m is Item => !Array.isArray(m[0]));

/** A plain number field (Remaining), read leniently: its first number. */
function count(headers: Record<string, string>, ...names: string[]): number | undefined {
  for (const name of names) {
    const n = Number.parseFloat(headerValue(headers, name) ?? '');
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return undefined;
}

/** A Reset: seconds from now, or a Unix time (seconds or ms) read against the target's own Date, else ours. */
function reset(headers: Record<string, string>, nowMs: number, ...names: string[]): number | undefined {
  const value = count(headers, ...names);
  if (value === undefined || value < UNIX_SECONDS) return value;
  const stated = Date.parse(headerValue(headers, 'date') ?? '');
  const now = Number.isNaN(stated) ? nowMs : stated;
  return Math.max(0, (value >= UNIX_MS ? value : value * 1000) - now) / 1000;
}

/** A policy as the fields state it: a quota, the window when stated, and its name in the current draft. */
interface Policy {
  name?: string;
  quota: number;
  windowSeconds?: number;
}

/** The policy that binds a steady pace: the lowest quota per second among those with a window, else the first. */
function binding(policies: Policy[]): Policy | undefined {
  const windowed = policies.filter((p) => p.windowSeconds);
  if (windowed.length === 0) return policies[0];
  return windowed.reduce((a, b) => (b.quota / b.windowSeconds! < a.quota / a.windowSeconds! ? b : a));
}

/** The current draft's `"name";q=15;w=1` (a String or Token with parameters), an earlier one's `15;w=1` or a bare `15`. */
function policies(members: List | undefined): Policy[] {
  return items(members).flatMap(([value, params]) => {
    const unit = params.get('qu');
    if (unit !== undefined && String(unit) !== 'requests') return [];
    const quota = whole(params.get('q')) ?? whole(value);
    const windowSeconds = whole(params.get('w')) || undefined;
    if (quota === undefined) return [];
    return [{ quota, ...(windowSeconds ? { windowSeconds } : {}), ...(typeof value === 'number' ? {} : { name: String(value) }) }];
  });
}

/** What one answer announces of the target's rate limit; undefined when it announces no quota. */
export function readAnnouncement(headers: Record<string, string>, nowMs: number): Announcement | undefined {
  const stated = policies(list(headers, 'ratelimit-policy'));
  const named = binding(stated.filter((p) => p.name !== undefined));
  if (named) {
    const limits = items(list(headers, 'ratelimit'));
    const params = (limits.find(([name]) => String(name) === named.name) ?? limits[0])?.[1];
    return announcement('RateLimit-Policy', named, whole(params?.get('r')), whole(params?.get('t')));
  }
  // Earlier drafts: RateLimit-Limit, its policies in it or in a RateLimit-Policy of bare numbers.
  const draft = binding([...policies(list(headers, 'ratelimit-limit')), ...stated]);
  if (draft && headerValue(headers, 'ratelimit-limit') !== undefined) {
    return announcement('RateLimit-Limit', draft, count(headers, 'ratelimit-remaining'), reset(headers, nowMs, 'ratelimit-reset'));
  }
  const x = binding(policies(list(headers, 'x-ratelimit-limit') ?? list(headers, 'x-rate-limit-limit')));
  return (
    x &&
    announcement(
      'X-RateLimit-Limit',
      x,
      count(headers, 'x-ratelimit-remaining', 'x-rate-limit-remaining'),
      reset(headers, nowMs, 'x-ratelimit-reset', 'x-rate-limit-reset'),
    )
  );
}

function announcement(style: AnnouncedStyle, policy: Policy, remaining: number | undefined, resetSeconds: number | undefined): Announcement {
  return {
    style,
    quota: policy.quota,
    ...(policy.windowSeconds !== undefined ? { windowSeconds: policy.windowSeconds } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetSeconds !== undefined ? { resetSeconds } : {}),
  };
}

/** Answers come back out of the order the target met them in, within about a round trip: settled after this. */
const SETTLE_MS = 1_000;
/** The counter as the run reads it is off by this much when answers crossed on the way. */
const SLACK = 2;
/** Spans shorter than this read a rate off the counter with too much of the answers' jitter in it (±30 ms is 3% of a second). */
const SHOWN_SPAN_MS = 2_000;
/**
 * How uncertain, at most, the time between two answers the target met may be for a rate counted over it: each was met
 * somewhere between when it left and when it came back. A target whose event loop stalled meets a request long after
 * it left: timed from when it left, a 15/s bucket's counter showed 9.09/s.
 */
const TIMED_WITHIN = 0.05;
/** Contradictions of one kind before an announcement is no longer trusted. */
const CONTRADICTIONS = 3;

/** Whether the time the target took from `from` to `to` is known within TIMED_WITHIN, however long each round trip took. */
function timedWithin(from: MetTimes, to: MetTimes): boolean {
  const shortest = (to.leftMs ?? to.atMs) - (from.backMs ?? from.atMs);
  const longest = (to.backMs ?? to.atMs) - (from.leftMs ?? from.atMs);
  return shortest > 0 && longest <= shortest * (1 + TIMED_WITHIN);
}

/**
 * A limit per second the target's announcements give, how the run read it, and how its window is known: `stated` (a
 * policy's `w`, or a Reset that agrees with the window found), `tested` (found, and throttled as it predicts), or
 * `untested` (found, and nothing the run sent yet could have broken it: no limit, a reason to probe up to it).
 */
export interface AnnouncedRate {
  perSecond: number;
  how: string;
  window: 'stated' | 'tested' | 'untested';
}

/**
 * What the run's answers announce together. A quota with its window (RateLimit-Policy's w) is a limit as it stands; a
 * quota without one (X-RateLimit-Limit) may have its window found from the counter, a hypothesis the answers test
 * (http/found-window.ts): a limit once they tested it or its Reset states it, none once they broke it. Not trusted,
 * and the run says why, once the target refuses CONTRADICTIONS times what the counter said was left, or throttles
 * CONTRADICTIONS answers of a run paced evenly below the limit it announced; refusals of the run's own bunch are
 * neither.
 */
export class AnnouncedLimit {
  private latest: Announcement | undefined;
  /** Answers not yet settled, in the order the target met them. */
  private readonly pending: Met[] = [];
  private accepted = 0;
  /** The last settled answer that carried the counter, with the accepted count then. */
  private last: { remaining: number; total: number } | undefined;
  /** Every settled answer: the evidence a window found from the counter is judged by. */
  private readonly settled: Met[] = [];
  private refutedWhy: string | undefined;
  private lies = 0;
  private throttledBelow = 0;
  private why: string | undefined;
  /** The most windows the answers ever showed throttled as a found window predicts. */
  private testedWindows = 0;

  /**
   * An answer of the run's credentials, met by the target at about `atMs` (between `leftMs` and `backMs` for sure);
   * `bunched`: a refusal of sends the run bunched, which says nothing against what the target announced.
   */
  observe(met: MetTimes & Pick<Met, 'accepted'>, announced: Announcement | undefined, bunched = false): void {
    if (announced) this.latest = announced;
    let at = this.pending.length;
    while (at > 0 && this.pending[at - 1]!.atMs > met.atMs) at--;
    const { remaining, resetSeconds } = announced ?? {};
    this.pending.splice(at, 0, {
      ...met,
      ...(remaining !== undefined ? { remaining } : {}),
      ...(resetSeconds !== undefined ? { resetSeconds } : {}),
      ...(bunched ? { bunched } : {}),
    });
    while (this.pending.length > 0 && this.pending[0]!.atMs <= met.atMs - SETTLE_MS) this.settle(this.pending.shift()!);
  }

  /** A throttled answer to a send the run made at a pace below the limit announced. */
  throttledAtPace(): void {
    if (++this.throttledBelow >= CONTRADICTIONS) this.distrust(`the target throttled ${this.throttledBelow} answers of the run paced below it`);
  }

  /** The quota last announced (0 before any). */
  get quota(): number {
    return this.latest?.quota ?? 0;
  }

  /** Why the announcements are not trusted; undefined while they are. */
  get distrusted(): string | undefined {
    return this.why;
  }

  /** Why the first window found from the counter is none; undefined while none was broken. */
  get refuted(): string | undefined {
    return this.refutedWhy;
  }

  /**
   * A rate the target let through at least, from its counter: for each answer met since `sinceMs` and SHOWN_SPAN_MS or
   * more before the throttle `at` and since its counter last came back whole at once (a window's start, a bucket filled
   * while the run was idle), what the target accepted after it until then less what the counter had left then (and one
   * for rounding), over the time between. The greatest of these; for a bucket emptied at `at`, its rate: its burst is
   * in the counter. Undefined without a counter, or without such a span (within one window: a window's counter shows
   * only the pace the run kept).
   */
  shownAtLeast(sinceMs: number, at: MetTimes): number | undefined {
    const span = [...this.settled, ...this.pending].filter((m) => m.atMs >= sinceMs && m.atMs < at.atMs);
    const lastJump = counterJumps(this.quota, span).jumps.at(-1)?.atMs ?? Number.NEGATIVE_INFINITY;
    // A bucket at its brim lets what it gains go: counted across it, the rate is a bound far below the target's (a
    // bucket of 10 kept full while the run thought between its requests, then emptied by a bunch, showed 4.65/s of
    // 15/s). From the last answer that found it full on, it only ran down.
    const lastFull = span.filter((m) => m.remaining !== undefined && m.remaining >= this.quota - 1).at(-1)?.atMs ?? Number.NEGATIVE_INFINITY;
    const answers = span.filter((m) => m.atMs >= Math.max(lastJump, lastFull));
    let after = 0;
    let most: number | undefined;
    for (let i = answers.length - 1; i >= 0; i--) {
      const met = answers[i]!;
      if (met.remaining !== undefined && at.atMs - met.atMs >= SHOWN_SPAN_MS && timedWithin(met, at))
        most = Math.max(most ?? 0, ((after - met.remaining - 1) * 1000) / (at.atMs - met.atMs));
      if (met.accepted) after++;
    }
    return most;
  }

  /** The limit the announcements give, while trusted. */
  rate(): AnnouncedRate | undefined {
    const told = this.latest;
    if (!told || this.why) return undefined;
    if (told.windowSeconds) return { perSecond: told.quota / told.windowSeconds, how: `${this.stated()} per ${told.windowSeconds} s`, window: 'stated' };
    const found = foundWindow(told.quota, this.settled);
    if (!found) return undefined;
    if ('why' in found) {
      this.refutedWhy ??= `${this.stated()}: ${found.why}`;
      return undefined;
    }
    // Windows once throttled as a fixed window's stay tested: the length re-estimated from more answers may move a
    // throttle near a window's end out of the count, not undo it (a first run kept 15/s for 40 s, then lost it).
    this.testedWindows = Math.max(this.testedWindows, found.tested);
    const known = found.known === 'untested' && this.testedWindows >= TESTED_WINDOWS ? 'tested' : found.known;
    const perSecond = (told.quota * 1000) / found.windowMs;
    const how = `${this.stated()} per a window of ${(found.windowMs / 1000).toFixed(2)} s, found from its counter`;
    const tested = { stated: ' as its Reset states', tested: ` and throttled as one in ${this.testedWindows} windows`, untested: '' }[known];
    return { perSecond, how: how + tested, window: known };
  }

  private stated(): string {
    return `${this.latest!.style} ${this.latest!.quota}`;
  }

  private distrust(why: string): void {
    this.why ??= `${this.stated()} not trusted: ${why}`;
  }

  private settle(point: Met): void {
    this.settled.push(point);
    if (point.accepted) this.accepted++;
    const last = this.last;
    if (point.remaining === undefined) return;
    this.last = { remaining: point.remaining, total: this.accepted };
    if (last && !point.accepted && !point.bunched && last.remaining > SLACK && this.accepted === last.total) {
      this.lies++;
      if (this.lies >= CONTRADICTIONS) this.distrust(`the target refused ${this.lies} times right after saying ${last.remaining} or more were left`);
    }
  }
}
