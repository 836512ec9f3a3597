// The vendor's clock against the runner's. The time filters (CreatedFrom/To, §4.1) compare with the vendor's stamps,
// so every window the suite sends is computed in the vendor's clock and widened by the uncertainty of knowing it.
// Measured at run start from the HTTP Date header (RFC 9110 §6.6.1: whole seconds) of a few answers: each answer
// bounds the offset between its send and its arrival; the bounds of several intersect. The API shows no creation
// stamp to compare with (a dialog's `updated` moves with messages, §2.1), so the Date header is the one clock it
// lets us read. Pure but for vendorClockOf.

import { basicAuthorization, type SuiteConfig } from '../config/suite-config.ts';

export interface VendorClock {
  /** Vendor time minus runner time (ms). */
  offsetMs: number;
  /** Half the width of what the offset may be (ms). */
  uncertaintyMs: number;
  /** How it was known. */
  source: 'Date header' | 'unknown';
}

/** Without a Date header the offset is unknown: the windows allow a minute either way, as the suite always did. */
export const UNKNOWN_CLOCK: VendorClock = { offsetMs: 0, uncertaintyMs: 60_000, source: 'unknown' };

/** An offset beyond this is said on a warning line (and recorded): the windows follow it. */
export const OFFSET_WARNING_MS = 30_000;

/** What one answer says: the vendor stamped its Date (truncated to the second) between the send and the arrival. */
export function offsetBounds(date: string, sentAt: number, receivedAt: number): [number, number] | undefined {
  const stamped = Date.parse(date);
  if (Number.isNaN(stamped)) return undefined;
  return [stamped - receivedAt, stamped + 999 - sentAt];
}

/** The offset from several answers' bounds (their intersection; their hull if they disagree). */
export function clockFrom(bounds: ReadonlyArray<[number, number]>): VendorClock {
  if (bounds.length === 0) return UNKNOWN_CLOCK;
  let low = Math.max(...bounds.map((b) => b[0]));
  let high = Math.min(...bounds.map((b) => b[1]));
  if (low > high) [low, high] = [Math.min(...bounds.map((b) => b[0])), Math.max(...bounds.map((b) => b[1]))];
  return { offsetMs: Math.round((low + high) / 2), uncertaintyMs: Math.ceil((high - low) / 2), source: 'Date header' };
}

/** The clock as a value that stays put from run to run (the observation clock.offset). */
export function offsetObserved(clock: VendorClock): string {
  if (clock.source === 'unknown') return 'unknown (no Date header)';
  const seconds = clock.offsetMs / 1000;
  if (Math.abs(seconds) <= 5) return 'within 5 s of the runner';
  return `${Math.abs(Math.round(seconds / 10) * 10)} s ${seconds < 0 ? 'behind' : 'ahead of'} the runner`;
}

/** The clock as a failure quotes it: "vendor clock 90.2 s behind the runner's (±0.6 s, Date header)". */
export function clockText(clock: VendorClock): string {
  if (clock.source === 'unknown') return 'vendor clock unknown (no Date header): windows allow 60 s either way';
  const s = clock.offsetMs / 1000;
  return `vendor clock ${Math.abs(s).toFixed(1)} s ${s < 0 ? 'behind' : 'ahead of'} the runner's (±${(clock.uncertaintyMs / 1000).toFixed(1)} s, ${clock.source})`;
}

/** A runner instant as the vendor's clock reads it, at the early or the late end of what it may be. */
export function inVendorClock(clock: VendorClock, runnerMs: number, end: 'early' | 'late'): number {
  // A second more: the vendor's stamps and the filters are whole seconds.
  const margin = clock.uncertaintyMs + 1000;
  return runnerMs + clock.offsetMs + (end === 'early' ? -margin : margin);
}

export const CLOCK_ENV = 'DIALOG_CONTRACT_VENDOR_CLOCK';

/** The run's clock, as global setup measured it (workers inherit it); unknown outside a run. */
export function runVendorClock(): VendorClock {
  const text = process.env[CLOCK_ENV];
  return text ? (JSON.parse(text) as VendorClock) : UNKNOWN_CLOCK;
}

/** The target's clock from a few authenticated reads of the V2 list (the preflight's read). */
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
