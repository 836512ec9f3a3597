// The vendor's clock against the runner's. The time filters (CreatedFrom/To, §4.1) compare with the application's own
// creation stamps, so every window the suite sends is computed in the application's clock and widened by how well it
// is known. Each source bounds the offset by a stamp and the runner's interval around the moment it stamps:
// - the HTTP Date header (RFC 9110 §6.6.1, whole seconds): a hint only, since a gateway in front may write its own
//   (nginx does by default), whatever the application's clock says;
// - `updated` after a message the run sent (§2.1: the time of the last message), whole seconds;
// - send_message's `created_at` (§2.5: the Unix time of sending), whole seconds;
// - the Created filter's boundary for a dialog the run created (§4.1), found by bisecting CreatedFrom
//   (created-filter-clock.ts): the clock the filters themselves use.
// Sources that agree narrow the offset; when they disagree beyond their uncertainties the application's stamps are
// trusted over the Date header, and a clock no application stamp confirms is not verified: its windows allow
// UNVERIFIED_MARGIN_MS either way. Pure but for vendorClockOf.

import { basicAuthorization, type SuiteConfig } from '../../config/suite-config.ts';

export type ClockSource = 'Date header' | 'updated after a message' | 'send_message created_at' | 'Created filter';

/** What one source says: the offset (vendor time minus runner time, ms) lies in [low, high]. */
export interface ClockReading {
  source: ClockSource;
  low: number;
  high: number;
}

export interface VendorClock {
  /** Vendor time minus runner time (ms). */
  offsetMs: number;
  /** Half the width of what the offset may be, as its sources bound it (ms). */
  uncertaintyMs: number;
  /** The sources that agree on it ("updated after a message, Date header"), or "unknown" without any. */
  source: string;
  /** Confirmed by the application's own stamps: a Date header alone may be a gateway's. */
  verified: boolean;
}

/**
 * How far a window reaches either way around a clock no application stamp confirms: an application clock off by
 * minutes behind a gateway that writes its own Date is what issue 32 met (90 s); within a quarter of an hour, a
 * window still tells a dialog created now from one created before or after it.
 */
export const UNVERIFIED_MARGIN_MS = 15 * 60_000;

/** Without a Date header and without an application stamp the offset is unknown. */
export const UNKNOWN_CLOCK: VendorClock = { offsetMs: 0, uncertaintyMs: 0, source: 'unknown', verified: false };

/** An offset beyond this is said on a warning line (and recorded): the windows follow it. */
export const OFFSET_WARNING_MS = 30_000;

const APPLICATION = (r: ClockReading) => r.source !== 'Date header';

/**
 * What one stamp says: the vendor stamped `stampMs` (whole seconds) between the runner's `sentAt` and `receivedAt`.
 * Whether a stamp is its instant truncated or rounded to the second is not shown (for the Date header, RFC 9110
 * §5.6.7 gives no finer form), so it may read up to half a second late as well as a second early: a server that
 * rounds must not pass for one whose clock disagrees.
 */
export function readingOf(source: ClockSource, stampMs: number, sentAt: number, receivedAt: number): ClockReading {
  return { source, low: stampMs - 500 - receivedAt, high: stampMs + 999 - sentAt };
}

/** What one answer's Date header says, or nothing when it has none that parses. */
export function offsetBounds(date: string, sentAt: number, receivedAt: number): [number, number] | undefined {
  const stamped = Date.parse(date);
  if (Number.isNaN(stamped)) return undefined;
  const { low, high } = readingOf('Date header', stamped, sentAt, receivedAt);
  return [low, high];
}

/** An application time as the API writes it (`updated`, ISO 8601): only with its zone is it an instant. */
export function zonedInstant(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/(Z|[+-]\d{2}:?\d{2})$/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const fromInterval = (low: number, high: number, source: string, verified: boolean): VendorClock => ({
  offsetMs: Math.round((low + high) / 2),
  uncertaintyMs: Math.ceil((high - low) / 2),
  source,
  verified,
});

/** The Date header's clock from several answers' bounds (their intersection; their hull if they disagree): a hint. */
export function clockFrom(bounds: ReadonlyArray<[number, number]>): VendorClock {
  if (bounds.length === 0) return UNKNOWN_CLOCK;
  let low = Math.max(...bounds.map((b) => b[0]));
  let high = Math.min(...bounds.map((b) => b[1]));
  if (low > high) [low, high] = [Math.min(...bounds.map((b) => b[0])), Math.max(...bounds.map((b) => b[1]))];
  return fromInterval(low, high, 'Date header', false);
}

/** A clock as the reading it is (the Date header's, for its combination with the application's stamps). */
export const readingOfClock = (clock: VendorClock, source: ClockSource): ClockReading => ({
  source,
  low: clock.offsetMs - clock.uncertaintyMs,
  high: clock.offsetMs + clock.uncertaintyMs,
});

const intersection = (readings: readonly ClockReading[]) => ({
  low: Math.max(...readings.map((r) => r.low)),
  high: Math.min(...readings.map((r) => r.high)),
});
const agree = (readings: readonly ClockReading[]) => {
  const { low, high } = intersection(readings);
  return low <= high;
};
const sourcesOf = (readings: readonly ClockReading[]) => [...new Set(readings.map((r) => r.source))].join(', ');

export interface CombinedClock {
  clock: VendorClock;
  /** The readings the clock rests on: the largest set that agrees, with the most application stamps. */
  agreeing: ClockReading[];
  /** The readings outside it: a Date header that is not the application's, a stamp that contradicts the others. */
  disagreeing: ClockReading[];
}

/**
 * The clock several readings give. The largest set of readings that agree (their bounds meet) wins, sets with more
 * application stamps first: so the application's stamps outweigh the Date header, two stamps that agree outweigh a
 * third that does not, and the Date header can side with one stamp against another. The clock is verified when the
 * winning set holds an application stamp and no other set does as well; else it is the hull of the contenders.
 */
export function combineReadings(readings: readonly ClockReading[]): CombinedClock {
  if (readings.length === 0) return { clock: UNKNOWN_CLOCK, agreeing: [], disagreeing: [] };
  const sets: ClockReading[][] = [];
  for (let mask = 1; mask < 1 << readings.length; mask++) {
    const set = readings.filter((_, i) => mask & (1 << i));
    if (agree(set)) sets.push(set);
  }
  const score = (set: ClockReading[]) => set.filter(APPLICATION).length * 100 + set.length;
  const best = Math.max(...sets.map(score));
  const winners = sets.filter((set) => score(set) === best);
  const winner = winners[0]!;
  const verified = winners.length === 1 && winner.some(APPLICATION);
  if (winners.length === 1) {
    const { low, high } = intersection(winner);
    return { clock: fromInterval(low, high, sourcesOf(winner), verified), agreeing: winner, disagreeing: readings.filter((r) => !winner.includes(r)) };
  }
  // Stamps that contradict one another with nothing to decide between them: every contender's bounds, unverified.
  const contenders = readings.filter((r) => winners.some((set) => set.includes(r)));
  const low = Math.min(...contenders.map((r) => r.low));
  const high = Math.max(...contenders.map((r) => r.high));
  return { clock: fromInterval(low, high, `${sourcesOf(contenders)} disagreeing`, false), agreeing: [], disagreeing: [...readings] };
}

/** How far either way of the offset a window reaches: the clock's uncertainty, or the unverified margin, and a second more. */
export function windowMarginMs(clock: VendorClock): number {
  // A second more: the vendor's stamps and the filters are whole seconds.
  return (clock.verified ? clock.uncertaintyMs : Math.max(clock.uncertaintyMs, UNVERIFIED_MARGIN_MS)) + 1000;
}

/** A runner instant as the vendor's clock reads it, at the early or the late end of what it may be. */
export function inVendorClock(clock: VendorClock, runnerMs: number, end: 'early' | 'late'): number {
  const margin = windowMarginMs(clock);
  return runnerMs + clock.offsetMs + (end === 'early' ? -margin : margin);
}

/** Does a reading fall within `toleranceMs` of what the clock allows? */
export function readingAgrees(reading: ClockReading, clock: VendorClock, toleranceMs: number): boolean {
  const margin = windowMarginMs(clock) + toleranceMs;
  return reading.high >= clock.offsetMs - margin && reading.low <= clock.offsetMs + margin;
}

/** An offset in steps that stay put from run to run: "within 5 s of the runner", "90 s behind the runner". */
function offsetClass(offsetMs: number): string {
  const seconds = offsetMs / 1000;
  if (Math.abs(seconds) <= 5) return 'within 5 s of the runner';
  return `${Math.abs(Math.round(seconds / 10) * 10)} s ${seconds < 0 ? 'behind' : 'ahead of'} the runner`;
}

/** The Date header's clock as a value that stays put from run to run (the observation clock.date-header). */
export function offsetObserved(clock: VendorClock): string {
  return clock.source === 'unknown' ? 'no Date header' : offsetClass(clock.offsetMs);
}

/** The application's clock as a value that stays put from run to run (the observation clock.offset): its class and the stamps that verified it. */
export function applicationObserved(combined: CombinedClock): string {
  if (!combined.clock.verified)
    return combined.clock.source.endsWith('disagreeing') ? "not verified: the application's stamps disagree" : 'not verified: no application stamp read';
  return `${offsetClass(combined.clock.offsetMs)}, by ${sourcesOf(combined.agreeing.filter(APPLICATION))}`;
}

/**
 * The clock as a failure quotes it: "vendor clock 90.2 s behind the runner's (±0.6 s, updated after a message)";
 * one no application stamp verified says what its windows allow.
 */
export function clockText(clock: VendorClock): string {
  const allowance = `windows reach ${UNVERIFIED_MARGIN_MS / 60_000} min either way`;
  if (clock.source === 'unknown') return `vendor clock unknown (no Date header, no application stamp): ${allowance}`;
  const s = clock.offsetMs / 1000;
  const known = `±${(clock.uncertaintyMs / 1000).toFixed(1)} s, ${clock.source}`;
  return `vendor clock ${Math.abs(s).toFixed(1)} s ${s < 0 ? 'behind' : 'ahead of'} the runner's (${known}${clock.verified ? '' : `, not verified: ${allowance}`})`;
}

export const CLOCK_ENV = 'DIALOG_CONTRACT_VENDOR_CLOCK';

/** The run's clock, as global setup measured it (workers inherit it); unknown outside a run. */
export function runVendorClock(): VendorClock {
  const text = process.env[CLOCK_ENV];
  return text ? (JSON.parse(text) as VendorClock) : UNKNOWN_CLOCK;
}

/** The target's Date header clock from a few authenticated reads of the V2 list (the preflight's read): a hint. */
export const vendorClockOf = (config: Pick<SuiteConfig, 'baseUrl' | 'login' | 'password'>): Promise<VendorClock> =>
  measureVendorClock(async () => {
    const res = await fetch(`${config.baseUrl}/api/v2/conversations?PageCount=1`, {
      headers: { authorization: basicAuthorization(config.login, config.password) },
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer();
    return res.headers.get('date');
  });

/** A few reads, each one's Date header against its send and arrival. */
export async function measureVendorClock(read: () => Promise<string | null>, samples = 3, clock: () => number = Date.now): Promise<VendorClock> {
  const bounds: Array<[number, number]> = [];
  for (let i = 0; i < samples; i++) {
    const sentAt = clock();
    const date = await read().catch(() => null);
    const b = date ? offsetBounds(date, sentAt, clock()) : undefined;
    if (b) bounds.push(b);
  }
  return clockFrom(bounds);
}

/**
 * How far this process's wall clock has moved against its monotonic clock since the process started (ms): an NTP
 * step, a suspended VM, a person setting the time. Every time the run computes in this process rests on the wall
 * clock, so a finding about time after such a step may be this runner's, not the vendor's.
 */
export function runnerClockStep(now = Date.now(), monotonic = performance.timeOrigin + performance.now()): number {
  return now - monotonic;
}

/** A step of the runner's clock beyond this makes a finding about time not judged (timers and rounding stay well below). */
export const RUNNER_CLOCK_STEP_MS = 1_000;

/** Why a finding about time is not judged after the runner's clock stepped, and what to fix. */
export const runnerClockWhy = (stepMs: number): string =>
  `this runner's clock moved ${(stepMs / 1000).toFixed(1)} s against its monotonic clock during the run (an NTP step, a suspended VM): a finding about time may be the runner's, not the vendor's; keep the runner's clock synchronised (NTP, slewing) and run again`;
