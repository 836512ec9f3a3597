// A window found from a counter is a hypothesis, and what the run observed can break it. Where a quota Q is announced
// without its window (X-RateLimit-Limit), the counter (Remaining), read in the order the target met the answers, may
// fall only by what the target accepted and come back whole at once, W apart, as a fixed window's does. A fixed window
// of Q per W accepts Q at most within one of its windows, throttles only once Q were accepted in it, and accepts
// nothing more after its counter said none were left. A token bucket, or a sliding log, whose counter happened to come
// back whole at once (after an idle spell, after a burst) refills as it goes and accepts more: read as a fixed window
// it gives a rate far below the one it lets through (a 10/s bucket of burst 5 read as 5 per 4.3 s, 1.16/s). Only a
// window the run's answers tested without breaking it may stand over a limit the throttles showed. Pure.

/** An answer of the run's credentials as the target met it, and the counter it announced. */
export interface Met {
  atMs: number;
  /** For sure no sooner than its request left and no later than its answer came (absent: at `atMs`). */
  leftMs?: number;
  backMs?: number;
  accepted: boolean;
  remaining?: number;
  resetSeconds?: number;
  /** A refusal of sends the run bunched (http/run-pace.ts): no evidence against what the target announced. */
  bunched?: boolean;
}

/** When the target met an answer: about `atMs`, and for sure between `leftMs` and `backMs` where they are known. */
export type MetTimes = Pick<Met, 'atMs' | 'leftMs' | 'backMs'>;

/** The counter came back whole: the window began after `afterMs` (the old window's last answer) and by `atMs` (the new one's first, whose Reset said `resetSeconds`). */
export interface Jump {
  afterMs: number;
  atMs: number;
  resetSeconds?: number;
}

/** A window found from the counter, and how it is known: stated by its Reset, tested by throttles, or not yet tested. */
export interface FoundWindow {
  windowMs: number;
  known: 'stated' | 'tested' | 'untested';
  tested: number;
}

/**
 * The window `met`'s counter shows, and how it stood the answers; a `why` where they broke it; undefined before the
 * counter showed WINDOWS whole windows.
 */
export function foundWindow(quota: number, met: readonly Met[]): FoundWindow | { why: string } | undefined {
  const { jumps, lengths } = counterJumps(quota, met);
  if (lengths.length < WINDOWS) return undefined;
  const windowMs = [...lengths].sort((a, b) => a - b)[Math.floor(lengths.length / 2)]!;
  const verdict = judgeWindow(quota, windowMs, met, jumps);
  if (verdict.state === 'broken') return { why: verdict.why };
  const known = verdict.resetMatches ? 'stated' : verdict.tested >= TESTED ? 'tested' : 'untested';
  return { windowMs, known, tested: verdict.tested };
}

/**
 * Where the counter came back whole at once (a jump), and the lengths of the whole windows between: those where the
 * counter plus what was accepted stayed level (but for SLACK), between jumps whose answers bracket each start within
 * BRACKET of the length. A run waiting out a throttle across a window's start leaves it anywhere in a second: 1.36 s
 * was found for a 1 s window from such jumps. A run idle between windows makes one length look like several: the
 * median of many. A counter that came back stays back until the next jump: one the answers after it mostly fall
 * below again was answers read out of order (eight sends at once, one answer read late, its counter higher than the
 * four before it), no window's start.
 */
export function counterJumps(quota: number, met: readonly Met[]): { jumps: Jump[]; lengths: number[] } {
  const jumps: Jump[] = [];
  const lengths: number[] = [];
  // Each answer with a counter, and its level: the counter plus what was accepted by then, which a fixed window's keeps
  // until its end, and which rises by what the window before took at the next one's start.
  const points: Array<{ answer: Met; level: number }> = [];
  let accepted = 0;
  for (const answer of met) {
    if (answer.accepted) accepted++;
    if (answer.remaining !== undefined) points.push({ answer, level: answer.remaining + accepted });
  }
  const rise = Math.max(3, quota * JUMP_SHARE);
  /** Whether the counter stayed back after a rise at `i`: no more than SLACK answers before the next rise fell below it. */
  const stays = (i: number) => {
    let fell = 0;
    for (let k = i + 1; k < points.length && points[k]!.level < points[i]!.level + rise; k++) if (points[k]!.level < points[i]!.level - SLACK) fell++;
    return fell <= SLACK;
  };
  let start: { atMs: number; gap: number; least: number; most: number } | undefined;
  /** The highest level since the last start: what the counter regained is measured from it, not from the answer before. */
  let highest = Number.POSITIVE_INFINITY;
  /** When the counter was first seen since the last start: a start needs it seen falling for an edge first. */
  let sinceMs = Number.POSITIVE_INFINITY;
  for (const [i, { answer, level }] of points.entries()) {
    const before = points[i - 1]?.answer;
    // What the counter regained: answers read out of order put a level a few below the one before; the window's
    // highest level by then is past them. Within an edge of a start (or of the first answer: a burst of sends at a
    // run's start reaches the target in any order) the run cannot tell a start from answers read out of order.
    if (before && level - highest >= rise && answer.atMs - sinceMs >= EDGE_MS && stays(i)) {
      const atMs = (answer.atMs + before.atMs) / 2;
      const gap = answer.atMs - before.atMs;
      if (start && start.most - start.least <= SLACK && Math.max(gap, start.gap) <= (atMs - start.atMs) * BRACKET) lengths.push(atMs - start.atMs);
      jumps.push({ afterMs: before.atMs, atMs: answer.atMs, ...(answer.resetSeconds !== undefined ? { resetSeconds: answer.resetSeconds } : {}) });
      start = { atMs, gap, least: level, most: level };
      highest = level;
      sinceMs = answer.atMs;
      continue;
    }
    highest = i === 0 ? level : Math.max(highest, level);
    if (i === 0) sinceMs = answer.atMs;
    if (start) {
      start.least = Math.min(start.least, level);
      start.most = Math.max(start.most, level);
    }
  }
  return { jumps, lengths };
}

export type WindowVerdict =
  /** `tested`: windows whose throttle came once the quota was taken, as a fixed window's does; `resetMatches`: the target's Reset states the same window. */
  { state: 'standing'; tested: number; resetMatches: boolean } | { state: 'broken'; why: string };

/** Counts as the run reads them are off by this much when answers crossed on the way. */
const SLACK = 2;
/** The counter coming back by this share of the quota at once (and by 3 at least): a window begins again. */
const JUMP_SHARE = 0.25;
/** Whole windows between such jumps, the counter falling only by what the target accepted, before their length counts. */
const WINDOWS = 3;
/** A window's length counts when the answers either side of each of its starts are at most this share of it apart. */
const BRACKET = 0.25;
/**
 * Windows throttled as a found window predicts (its quota taken, then throttled, none accepted past it) before it is a
 * limit: a probe ends at its first throttle, so a run that probes up to a window tests one or two.
 */
export const TESTED = 2;
/** The times the run reckons the target met its answers at are off by about half a round trip's jitter; the window's length by as much. */
const EDGE_MS = 100;
const EDGE_SHARE = 0.1;
/** A span of this many windows overlaps one more of them at most, wherever they begin: a bound on the rate with no phase to get wrong. */
const RATE_WINDOWS = 3;
/** Jumps with their Reset that state the window before it counts as stated. */
const RESETS = 3;

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/**
 * Whether the answers break `quota` per `windowMs` as a fixed window, each jump of its counter the start of one.
 * `met` in the order the target met them. After a jump, up to the earliest its window can end (an edge short of it),
 * the answers are within one window wherever in the jump's gap it began: there the target may accept `quota` at most,
 * throttle only once they were taken, accept nothing once its counter said none were left, and its counter may not
 * come back (it falls by what the target accepts and is whole again only at the next start). Over any span of
 * RATE_WINDOWS windows it may accept RATE_WINDOWS + 1 quotas at most.
 */
export function judgeWindow(quota: number, windowMs: number, met: readonly Met[], jumps: readonly Jump[]): WindowVerdict {
  const edge = Math.max(EDGE_MS, windowMs * EDGE_SHARE);
  const window = `${quota} per ${seconds(windowMs)} s`;
  let tested = 0;
  let resets = 0;
  let resetsBroken = false;
  let from = 0;
  for (const [j, jump] of jumps.entries()) {
    while (from < met.length && met[from]!.atMs < jump.atMs) from++;
    // It ends where the next one begins, if that came first: a window's length read from a handful of starts is off
    // by tens of ms (1.06 s for a 1 s window), and the next window's first answers are no part of this one.
    const end = Math.min(jump.afterMs + windowMs, jumps[j + 1]?.atMs ?? Number.POSITIVE_INFINITY) - edge;
    // A throttle tests the window up to its latest end, before the next start: a run a little above the quota meets
    // it in the window's last tenth.
    const last = Math.min(jumps[j + 1]?.afterMs ?? Number.POSITIVE_INFINITY, jump.atMs + windowMs);
    let accepted = 0;
    let throttled = false;
    /** When the counter first said none were left, and what was accepted since then, an edge on. */
    let empty: { atMs: number; after: number } | undefined;
    /**
     * The counter plus what was accepted since the jump, at each answer, and the middle one of those an edge or more
     * before the answer judged: a fixed window's stays level until its end. Answers the run reckons closer than an
     * edge it cannot order (sends bunched on a busy machine reach the target within the network's jitter, in any
     * order): a counter 10 read after 9 and 8, all three met within 25 ms, came back by nothing; and answers read out
     * of order put a level a request or two below or above, which the middle one does not follow (the lowest did, and
     * two such, one each way, made a counter that came back by 3). A sliding log's or a bucket's rises and stays risen.
     */
    const levels: Array<{ atMs: number; level: number }> = [];
    let settledLevels = 0;
    const settled: number[] = [];
    for (let i = from; i < met.length && met[i]!.atMs <= Math.max(end, last); i++) {
      const answer = met[i]!;
      if (answer.atMs > end) {
        if (!answer.accepted && !throttled && accepted >= quota - SLACK) [throttled, tested] = [true, tested + 1];
        continue;
      }
      if (answer.accepted) {
        accepted++;
        if (empty && answer.atMs >= empty.atMs + edge && ++empty.after > SLACK)
          return broken(window, `the target accepted ${empty.after} more in one window after its counter said none were left`);
        if (accepted > quota + SLACK) return broken(window, `the target accepted ${accepted} within ${seconds(answer.atMs - jump.atMs)} s of one window`);
      } else if (!throttled && answer.atMs >= jump.atMs + edge) {
        throttled = true;
        if (accepted < quota - SLACK) return broken(window, `the target throttled one window after it accepted ${accepted}`);
        tested++;
      }
      // Within an edge of the start an answer may be the window before's, read late on a busy machine (its 0 just
      // after the next window's 14): its counter says nothing of this window's.
      if (answer.remaining === undefined || answer.atMs < jump.atMs + edge) continue;
      const now = answer.remaining + accepted;
      for (; settledLevels < levels.length && levels[settledLevels]!.atMs <= answer.atMs - edge; settledLevels++) {
        const { level } = levels[settledLevels]!;
        let at = settled.length;
        while (at > 0 && settled[at - 1]! > level) at--;
        settled.splice(at, 0, level);
      }
      const level = settled.length > 0 ? settled[settled.length >> 1]! : Number.POSITIVE_INFINITY;
      // Each answer reckoned within an edge before this one may have come after it: what it took is counted here, one
      // more each.
      const unordered = levels.length - settledLevels;
      if (now > level + SLACK + unordered)
        return broken(window, `its counter came back by ${now - level} within one window, as a sliding log's or a bucket's does`);
      levels.push({ atMs: answer.atMs, level: now });
      if (answer.remaining === 0) empty ??= { atMs: answer.atMs, after: 0 };
    }
    // A Reset read right at the window's start says its length, to the whole second it is rounded up to.
    if (jump.resetSeconds !== undefined && jump.atMs - jump.afterMs <= windowMs / 2) {
      const resetMs = jump.resetSeconds * 1000;
      if (resetMs >= windowMs - (jump.atMs - jump.afterMs) - edge && resetMs < windowMs + 1000) resets++;
      else resetsBroken = true;
    }
  }
  const span = RATE_WINDOWS * windowMs;
  const bound = (RATE_WINDOWS + 1) * quota + SLACK;
  const accepted = met.filter((m) => m.accepted).map((m) => m.atMs);
  for (let last = 0, first = 0; last < accepted.length; last++) {
    while (accepted[last]! - accepted[first]! > span) first++;
    if (last - first + 1 > bound) return broken(window, `the target accepted ${last - first + 1} within ${seconds(span)} s, a rate far above it`);
  }
  return { state: 'standing', tested, resetMatches: resets >= RESETS && !resetsBroken };
}

function broken(window: string, why: string): WindowVerdict {
  return { state: 'broken', why: `no fixed window of ${window}: ${why}` };
}
