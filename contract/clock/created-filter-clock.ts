// The Created filter's own clock (§4.1: CreatedFrom compares with the application's creation stamps), read by
// bisecting CreatedFrom around a dialog the run created, whatever serves the headers: the largest whole second at
// which the dialog is still listed is its creation stamp, and the create's send and answer bound when that was in the
// runner's clock. Pure: a generator of CreatedFrom instants (vendor ms, whole seconds) that its driver answers with
// whether the dialog was listed from then on; it returns the reading, or nothing when the filter never separates
// the dialog from the instants around it (a filter that is ignored, a dialog the list does not show).
import { UNVERIFIED_MARGIN_MS, type ClockReading, type CombinedClock } from './vendor-clock.ts';

const SECOND = 1000;
const wholeSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** The runner's instants around a create: its request sent, its answer received (ms). */
export interface CreateInterval {
  sentAt: number;
  answeredAt: number;
}

/**
 * Where a bisection starts, when the cheaper readings leave the clock open (none verified it, or one disagrees): from
 * the clock they settled on, as far as the farthest of them and at least the unverified margin, since a stamp an hour
 * off the Date header may be the wrong one (the filter then sides with the header). Nothing when they agree.
 */
export function bisectionStart(
  readings: readonly ClockReading[],
  cheap: CombinedClock,
): { guess: Pick<ClockReading, 'low' | 'high'>; reachMs: number } | undefined {
  if (cheap.clock.verified && cheap.disagreeing.length === 0) return undefined;
  const spread = readings.length ? Math.max(...readings.map((r) => r.high)) - Math.min(...readings.map((r) => r.low)) : 0;
  return {
    guess: { low: cheap.clock.offsetMs - cheap.clock.uncertaintyMs, high: cheap.clock.offsetMs + cheap.clock.uncertaintyMs },
    reachMs: Math.max(UNVERIFIED_MARGIN_MS, spread),
  };
}

/**
 * Bisects CreatedFrom for `created`, starting from `guess` (the offset bounds the other sources give) and galloping
 * outward, doubling, when the stamp lies outside them, at most `reachMs` beyond them. About log2 of the guess's width
 * in seconds plus two reads when the guess holds (5 for ±1.5 s), twice log2 of the error more when it does not.
 */
export function* bisectCreatedFrom(
  created: CreateInterval,
  guess: Pick<ClockReading, 'low' | 'high'>,
  reachMs: number,
): Generator<number, ClockReading | undefined, boolean> {
  // Listed at `low` (created at or after it), not at `high` (created before it), expected; each checked.
  let low = wholeSecond(created.sentAt + guess.low) - SECOND;
  let high = wholeSecond(created.answeredAt + guess.high) + 2 * SECOND;
  const [lowest, highest] = [low - reachMs, high + reachMs];
  let highKnown = false;
  for (let step = 2 * SECOND; !(yield low); step *= 2) {
    if (low === lowest) return undefined;
    [high, highKnown] = [low, true];
    low = Math.max(low - step, lowest);
  }
  if (!highKnown)
    for (let step = 2 * SECOND; yield high; step *= 2) {
      if (high === highest) return undefined;
      low = high;
      high = Math.min(high + step, highest);
    }
  while (high - low > SECOND) {
    const middle = low + Math.floor((high - low) / SECOND / 2) * SECOND;
    if (yield middle) low = middle;
    else high = middle;
  }
  // Listed from `low`, not from a second later: stamped in [low, low + 1 s) by a filter that takes its bound in,
  // a second later by one that leaves it out (§4.1 does not say which), at an instant between the create's send and answer.
  return { source: 'Created filter', low: low - created.answeredAt, high: low + 2 * SECOND - created.sentAt };
}
