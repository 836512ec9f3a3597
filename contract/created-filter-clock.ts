// The Created filter's own clock (§4.1: CreatedFrom compares with the application's creation stamps), read by
// bisecting CreatedFrom around a dialog the run created, whatever serves the headers: the largest whole second at
// which the dialog is still listed is its creation stamp, and the create's send and answer bound when that was in the
// runner's clock. Pure: a generator of CreatedFrom instants (vendor ms, whole seconds) that its driver answers with
// whether the dialog was listed from then on; it returns the reading, or nothing when the filter never separates
// the dialog from the instants around it (a filter that is ignored, a dialog the list does not show).
import type { ClockReading } from './vendor-clock.ts';

const SECOND = 1000;
const wholeSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

/** The runner's instants around a create: its request sent, its answer received (ms). */
export interface CreateInterval {
  sentAt: number;
  answeredAt: number;
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
