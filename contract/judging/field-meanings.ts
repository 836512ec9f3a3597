// What the Meaning column of spec §2.1 rules out, field by field: an `ip` that is no IP address, a `location` that is
// no city (an address, a number, a time), a negative `duration` or one longer than the dialog has existed, an
// `updated` before the dialog was created, in the future, or earlier than it read before (the last message's time
// cannot move back). What the words allow to be empty or unknown (a dialog started through the API may have no
// respondent's address or city) is a placeholder: recorded, never failed. Pure.
import { isIP } from 'node:net';
import type { Judgement } from './matchers.ts';

/** Values that say "none" or "unknown" rather than giving one: what the words allow for a dialog nobody opened. */
const PLACEHOLDER = /^(|\s+|-+|\?+|n\/?a|none|null|nil|undefined|unknown|not set|not available)$/i;

export type IpKind = 'an IP address' | 'empty or a placeholder' | 'not an IP address';

/** An address written the way a proxy may write it: "[::1]:443", "10.0.0.1:5060". */
const bareAddress = (value: string) =>
  value
    .trim()
    .replace(/^\[(.*)\](:\d+)?$/, '$1')
    .replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');

/** A letter no address has (hex digits aside): a word the vendor wrote instead of one ("api", "internal"). */
const WORD = /[g-zG-Z]|[^\p{ASCII}\P{L}]/u;

/**
 * §2.1 ip: "IP address of the user who started the dialog". A dialog nobody opened from a browser may have none:
 * empty, or a word the vendor writes instead ("unknown", "api") is a placeholder. What is no address and no such word
 * is not an IP address: the dialog's city, a number, a time, a malformed or a listed address ("10.0.0.1, 10.0.0.2").
 */
export function ipKind(value: string, location?: string): IpKind {
  if (PLACEHOLDER.test(value)) return 'empty or a placeholder';
  if (isIP(bareAddress(value)) !== 0) return 'an IP address';
  if (location !== undefined && location.trim() !== '' && value.trim().toLowerCase() === location.trim().toLowerCase()) return 'not an IP address';
  return WORD.test(value) ? 'empty or a placeholder' : 'not an IP address';
}

export type LocationKind = 'a place name' | 'empty or a placeholder' | 'an IP address' | 'a number or a time';

/** An ISO 8601 date, with or without its time. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}.*)?$/;

/**
 * §2.1 location: "City the dialog was started from": a name, so it has letters ("Praha 4" and "Tomsk-7" are places),
 * and is no address and no time.
 */
export function locationKind(value: string): LocationKind {
  if (PLACEHOLDER.test(value)) return 'empty or a placeholder';
  if (isIP(bareAddress(value)) !== 0) return 'an IP address';
  return /\p{L}/u.test(value) && !ISO_DATE.test(value.trim()) ? 'a place name' : 'a number or a time';
}

const IP_ALLOWED: readonly IpKind[] = ['an IP address', 'empty or a placeholder'];
const LOCATION_ALLOWED: readonly LocationKind[] = ['a place name', 'empty or a placeholder'];

const MINUTE = 60_000;

/** Whether an ISO 8601 time names its zone (Z or an offset): one without names a wall-clock time in some zone. */
export const hasZone = (iso: string) => /(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso.trim());

/** An ISO time as epoch ms, a zone-less one read as UTC wall-clock time; NaN when it is no time. */
export function wallClockMs(iso: string): number {
  const text = iso.trim().replace(' ', 'T');
  return Date.parse(hasZone(text) ? text : `${text}Z`);
}

/**
 * Whether an ISO time can name an instant within [fromMs, toMs]: exactly when it names its zone; in some zone of the
 * world (a whole quarter hour within ±14 h of UTC) when it does not, as §2.1 shows no zone for `updated`.
 */
export function mayBeWithin(iso: string, fromMs: number, toMs: number): boolean {
  const ms = wallClockMs(iso);
  if (Number.isNaN(ms)) return false;
  if (hasZone(iso)) return ms >= fromMs && ms <= toMs;
  for (let quarters = -56; quarters <= 56; quarters++) {
    const instant = ms - quarters * 15 * MINUTE;
    if (instant >= fromMs && instant <= toMs) return true;
  }
  return false;
}

/** Before this a time is a placeholder for "no message yet" (0001-01-01, the Unix epoch), not a message's time. */
const PLACEHOLDER_BEFORE = Date.UTC(2000, 0, 1);

export type UpdatedKind =
  | 'empty'
  | 'a placeholder time'
  | 'not a time'
  | 'between the creation and the read'
  | 'before the dialog was created'
  | 'after the read'
  | 'earlier than it read before';

/**
 * `updated` of a dialog the run created (§2.1: "Date and time of the last message"), read at `readMs`: a message
 * time lies between the dialog's creation and the read (both in the vendor's clock, widened by how well it is
 * known), and never earlier than an earlier read showed (`before`, the last non-empty value seen).
 */
export function updatedKind(value: string, window: { createdMs: number; readMs: number }, before?: string): UpdatedKind {
  if (value === '') return 'empty';
  const ms = wallClockMs(value);
  if (Number.isNaN(ms)) return 'not a time';
  if (ms < PLACEHOLDER_BEFORE) return 'a placeholder time';
  // Two times both with a zone are instants; two without are wall-clock times of one zone; a mixed pair is neither.
  const earlier = before === undefined || before === '' || hasZone(before) !== hasZone(value) ? NaN : wallClockMs(before);
  if (earlier >= PLACEHOLDER_BEFORE && ms < earlier) return 'earlier than it read before';
  if (mayBeWithin(value, window.createdMs, window.readMs)) return 'between the creation and the read';
  // Zone-less: neither end can be told; a zoned time says which.
  return ms > window.readMs ? 'after the read' : 'before the dialog was created';
}

export type DurationKind = 'not negative' | 'negative' | "within the dialog's age" | 'longer than the dialog has existed';

/**
 * §2.1 duration: "Dialog duration in seconds". Never negative; for a dialog the run created, no longer than it has
 * existed (`ageMs`, from just before its create to the read; a second more for rounding to whole seconds).
 */
export function durationKind(seconds: number, ageMs?: number): DurationKind {
  if (seconds < 0) return 'negative';
  if (ageMs === undefined) return 'not negative';
  return seconds <= Math.ceil(ageMs / 1000) + 1 ? "within the dialog's age" : 'longer than the dialog has existed';
}

/** One field of a dialog held to its words: what they allow, what was seen (in words that hold still), the value. */
export interface FieldMeaning {
  field: 'ip' | 'location' | 'duration';
  expected: string;
  observed: string;
  holds: boolean;
  value: unknown;
}

/**
 * ip, location and duration of one dialog (a list item or a record) against §2.1's words; `ageMs`, for a dialog the
 * run created, how long it has existed at most, which bounds its duration.
 */
export function dialogFieldMeanings(dialog: { ip: unknown; location: unknown; duration: unknown }, ageMs?: number): FieldMeaning[] {
  const ip = ipKind(String(dialog.ip), String(dialog.location));
  const location = locationKind(String(dialog.location));
  const duration = durationKind(Number(dialog.duration), ageMs);
  return [
    {
      field: 'ip',
      expected: 'an IP address, or empty or a placeholder where the dialog has none (IP address of the user who started the dialog)',
      observed: ip,
      holds: IP_ALLOWED.includes(ip),
      value: dialog.ip,
    },
    {
      field: 'location',
      expected: 'a place name, or empty or a placeholder (City the dialog was started from)',
      observed: location,
      holds: LOCATION_ALLOWED.includes(location),
      value: dialog.location,
    },
    {
      field: 'duration',
      expected:
        ageMs === undefined
          ? 'a number of seconds, not negative (Dialog duration in seconds)'
          : 'at most the time the dialog has existed (Dialog duration in seconds)',
      observed: duration,
      holds: duration === 'not negative' || duration === "within the dialog's age",
      value: dialog.duration,
    },
  ];
}

/** A field's meaning as the soft check at `at` (§2.1): what a list item's and a record's checks both say. */
export const meaningJudgement = (m: FieldMeaning, at: string, details: Record<string, unknown>, location?: string): Judgement => ({
  check: 'meaning_conformance',
  at,
  section: '2.1',
  expected: m.expected,
  observed: m.observed,
  holds: () => m.holds,
  details,
  ...(location === undefined ? {} : { location }),
});
