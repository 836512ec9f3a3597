// Finds the largest value a target accepts for a size limit (PageCount, text length, variables size) with at most
// ⌈log2(upper − lower)⌉ + 2 requests. Pure: no I/O, so the same search runs in k6 (sync http), Node and Playwright.
//
// Strategy. The answer is one of range + 2 outcomes: "even `lower` is rejected", a limit in lower..upper−1, or
// "no limit up to `upper`". A budget of b requests tells 2^b outcomes apart; the bound gives b0 = ⌈log2 range⌉ + 2,
// so 2^b0 ≥ 4·range: plain bisection needs ⌈log2(range + 2)⌉ and leaves about one request spare. The search spends
// that spare on an exponential start that makes small limits cheap:
//   1. "is it small?": one probe at lower − 1 + 2^⌊b0/2⌋ (e.g. 256 for 1..10000, 2048 for 1..1 MiB);
//   2. rejected (small limit): geometric probes from lower up (offsets 1, growth, growth², ...) until a rejection;
//   3. bisection of the bracket (largest accepted, smallest rejected), or of the rest when step 1 was accepted.
// A naive doubling from `lower` would cost about 2·log2(limit) and break the bound for large limits, so every probe
// is clamped so that both answers leave at most 2^(b−1) outcomes for the b−1 requests left. That invariant
// (outcomes ≤ 2^budget) proves the bound; when the budget gets tight the clamp turns any probe into bisection.
import { drive, driveAsync } from './drive.ts';

export interface LimitSearchOptions {
  /** Smallest value worth trying (an integer); rejected means the target accepts nothing in range. */
  lower: number;
  /** Largest value worth trying (an integer); accepted means "no limit up to upper". */
  upper: number;
  /** Factor by which the geometric probes grow before the first rejection. Default 4. */
  growth?: number;
}

export interface LimitProbe {
  value: number;
  accepted: boolean;
}

export type LimitSearchOutcome =
  | 'found' // limit accepted, limit + 1 rejected
  | 'below-lower' // lower itself was rejected: limit is null
  | 'above-upper' // upper was accepted: no limit up to upper, firstRejected is null
  | 'inconclusive'; // the driver could not tell (answered null); limit and firstRejected are the bracket so far

export interface LimitSearchResult {
  outcome: LimitSearchOutcome;
  /** Largest accepted value, or null when no value was accepted. */
  limit: number | null;
  /** Smallest rejected value, or null when no value was rejected. */
  firstRejected: number | null;
  /** Number of probes the search asked for. */
  requests: number;
  /** The guarantee: requests ≤ bound. */
  bound: number;
  probes: LimitProbe[];
}

/** ⌈log2(upper − lower)⌉ + 2, the most requests a search over lower..upper may use (2 for a one-value range). */
export function requestBound(lower: number, upper: number): number {
  return ceilLog2(Math.max(1, upper - lower)) + 2;
}

/**
 * The search as a generator: it yields the next value to try and expects `true` (accepted), `false` (rejected) or
 * `null` (no clear answer: the search stops with outcome "inconclusive"). Returns the result when done.
 */
export function* searchLimit(options: LimitSearchOptions): Generator<number, LimitSearchResult, boolean | null> {
  const { lower, upper, growth = 4 } = options;
  if (!Number.isSafeInteger(lower) || !Number.isSafeInteger(upper) || lower > upper) {
    throw new RangeError(`searchLimit needs integers lower <= upper, got ${lower}..${upper}`);
  }
  if (!(growth > 1)) throw new RangeError(`searchLimit growth must be > 1, got ${growth}`);

  const bound = requestBound(lower, upper);
  const smallThreshold = 2 ** Math.floor(bound / 2);
  const probes: LimitProbe[] = [];
  let accepted = lower - 1; // largest value known accepted (lower − 1: none yet)
  let rejected = upper + 1; // smallest value known rejected (upper + 1: none yet)
  let phase: 'small?' | 'grow' | 'bisect' = smallThreshold < upper - lower ? 'small?' : 'grow';
  let step = 1;

  const result = (outcome: LimitSearchOutcome): LimitSearchResult => ({
    outcome,
    limit: accepted >= lower ? accepted : null,
    firstRejected: rejected <= upper ? rejected : null,
    requests: probes.length,
    bound,
    probes,
  });

  while (rejected - accepted > 1) {
    const outcomes = rejected - accepted; // the limit is one of accepted .. rejected − 1
    const half = 2 ** (bound - probes.length - 1); // outcomes either answer may leave for the budget after this probe
    const wanted = phase === 'small?' ? smallThreshold : phase === 'grow' ? step : Math.floor(outcomes / 2);
    const offset = Math.min(Math.max(wanted, outcomes - half, 1), half, outcomes - 1);
    const value = accepted + offset;

    const answer = yield value;
    if (answer === null) return result('inconclusive');
    probes.push({ value, accepted: answer });
    if (answer) accepted = value;
    else rejected = value;

    if (phase === 'small?') phase = answer ? 'bisect' : 'grow';
    else if (phase === 'grow' && answer) step = Math.ceil(step * growth);
    else phase = 'bisect';
  }
  if (accepted < lower) return result('below-lower');
  if (accepted >= upper) return result('above-upper');
  return result('found');
}

/** Runs the search with a synchronous probe (k6 http). */
export function runLimitSearch(options: LimitSearchOptions, probe: (value: number) => boolean | null): LimitSearchResult {
  return drive(searchLimit(options), probe);
}

/** Runs the search with an asynchronous probe (fetch, undici, Playwright's request context). */
export function runLimitSearchAsync(options: LimitSearchOptions, probe: (value: number) => Promise<boolean | null>): Promise<LimitSearchResult> {
  return driveAsync(searchLimit(options), probe);
}

function ceilLog2(n: number): number {
  let bits = 0;
  while (2 ** bits < n) bits++;
  return bits;
}
