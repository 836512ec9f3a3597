// What the Meaning column of spec §2.1 rules out, field by field: an `ip` that is no IP address, a `location` that is
// no city (an address, a number, a time), a negative `duration` or one longer than the dialog has existed, an
// `updated` before the dialog was created, in the future, or earlier than it read before (the last message's time
// cannot move back). What the words allow to be empty or unknown (a dialog started through the API may have no
// respondent's address or city) is a placeholder: recorded, never failed. What the other words of §2 imply of one
// value (a dialog's own data, a message's own identifier, the time a message was sent) is here too, each a check of
// the family meaning_conformance (sent_at_conformance for the time of sending). Pure.
import ipaddr from 'ipaddr.js';
import { showValue } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import { defineCheck } from './check.ts';
import { sameTextAsAny } from './stored-text.ts';

/** Values that say "none" or "unknown" rather than giving one: what the words allow for a dialog nobody opened. */
const PLACEHOLDER = /^(|\s+|-+|\?+|n\/?a|none|null|nil|undefined|unknown|not set|not available)$/i;

export type IpKind = 'an IP address' | 'empty or a placeholder' | 'not an IP address';

/** An address written the way a proxy may write it: "[::1]:443", "10.0.0.1:5060". */
const bareAddress = (value: string) =>
  value
    .trim()
    .replace(/^\[(.*)\](:\d+)?$/, '$1')
    .replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');

/** Values already told apart: a run's lists repeat a few addresses thousands of times, and ipaddr's parse of a miss throws. */
const addresses = new Map<string, boolean>();

/** Whether a value is an IPv4 address in dotted decimal or an IPv6 address, as node:net's isIP tells them. */
function isAddress(value: string): boolean {
  let known = addresses.get(value);
  if (known === undefined) {
    // Bounded: a recording of millions of distinct values keeps at most this many.
    if (addresses.size >= 10_000) addresses.clear();
    known = ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);
    addresses.set(value, known);
  }
  return known;
}

/** A letter no address has (hex digits aside): a word the vendor wrote instead of one ("api", "internal"). */
const WORD = /[g-zG-Z]|[^\p{ASCII}\P{L}]/u;

/**
 * §2.1 ip: "IP address of the user who started the dialog". A dialog nobody opened from a browser may have none:
 * empty, or a word the vendor writes instead ("unknown", "api") is a placeholder. What is no address and no such word
 * is not an IP address: the dialog's city, a number, a time, a malformed or a listed address ("10.0.0.1, 10.0.0.2").
 */
export function ipKind(value: string, location?: string): IpKind {
  if (PLACEHOLDER.test(value)) return 'empty or a placeholder';
  if (isAddress(bareAddress(value))) return 'an IP address';
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
  if (isAddress(bareAddress(value))) return 'an IP address';
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

/** A dialog as a list item or a record shows it, and where: the places of its findings differ (list positions as "*"). */
export interface DialogShown {
  dialog: { id?: unknown; ip?: unknown; location?: unknown; duration?: unknown };
  in: 'list item' | 'record';
}

/** The place of a field of a dialog shown as a list item or as a record, and its location as a reader wants it. */
const placeOf = ({ dialog, in: shown }: DialogShown, field: string) =>
  shown === 'list item' ? { at: `/*/${field}`, location: `$[…].${field} of ${String(dialog.id)}` } : { at: `/${field}` };

const detailsOf = ({ dialog }: DialogShown, value: unknown): Record<string, Json> => ({ dialog: (dialog.id ?? null) as Json, value: (value ?? null) as Json });

/** A check of one field's words on a dialog shown: what kinds of value they allow, and what is expected in words. */
function fieldMeaning<const N extends string, K extends string>(
  name: N,
  field: 'ip' | 'location',
  statement: string,
  kindOf: (dialog: DialogShown['dialog']) => K,
  allowed: readonly K[],
  expected: string,
) {
  return defineCheck({
    name,
    sections: ['2.1'],
    severity: 'medium',
    statement,
    evidence: 'exchange',
    places: [`/*/${field}`, `/${field}`],
    judge: (shown: DialogShown) => {
      const kind = kindOf(shown.dialog);
      return [{ ...placeOf(shown, field), holds: allowed.includes(kind), expected, observed: showValue(kind), details: detailsOf(shown, shown.dialog[field]) }];
    },
  });
}

export const ipMeaning = fieldMeaning(
  'meaning_conformance.ip',
  'ip',
  'ip is an IP address, or empty or a placeholder where the dialog has none; never the city, a number or a time',
  (d) => ipKind(String(d.ip), String(d.location)),
  IP_ALLOWED,
  'an IP address, or empty or a placeholder where the dialog has none (IP address of the user who started the dialog)',
);

export const locationMeaning = fieldMeaning(
  'meaning_conformance.location',
  'location',
  'location is a place name (letters, no address, number or time), or empty or a placeholder',
  (d) => locationKind(String(d.location)),
  LOCATION_ALLOWED,
  'a place name, or empty or a placeholder (City the dialog was started from)',
);

export const durationMeaning = defineCheck({
  name: 'meaning_conformance.duration',
  sections: ['2.1'],
  severity: 'high',
  statement: 'duration is a number of seconds, never negative; for a dialog whose creation was seen, no longer than it has existed',
  evidence: 'dialog',
  places: ['/*/duration', '/duration'],
  judge: (shown: DialogShown & { ageMs?: number }) => {
    const kind = durationKind(Number(shown.dialog.duration), shown.ageMs);
    return [
      {
        ...placeOf(shown, 'duration'),
        holds: kind === 'not negative' || kind === "within the dialog's age",
        expected:
          shown.ageMs === undefined
            ? 'a number of seconds, not negative (Dialog duration in seconds)'
            : 'at most the time the dialog has existed (Dialog duration in seconds)',
        observed: showValue(kind),
        details: {
          ...detailsOf(shown, shown.dialog.duration),
          ...(shown.ageMs === undefined ? {} : { secondsSinceCreate: Math.round(shown.ageMs / 1000) }),
        },
      },
    ];
  },
});

const DAY = 24 * 60 * MINUTE;

export const listedUpdated = defineCheck({
  name: 'meaning_conformance.listed_updated',
  sections: ['2.1'],
  severity: 'high',
  statement: 'updated of a list item is a time before tomorrow, empty, or a placeholder for no message yet (before 2000)',
  evidence: 'exchange',
  places: ['/*/updated'],
  judge: ({ id, updated, readMs }: { id: unknown; updated: string; readMs: number }) => {
    // A message's time, empty (V2 "can be an empty string"), or a placeholder for no message yet (0001-01-01): not
    // a time past tomorrow, nor text that is no time (§2.1).
    const kind = updatedKind(updated, { createdMs: PLACEHOLDER_BEFORE, readMs: readMs + DAY });
    const when = kind === 'between the creation and the read' ? 'a time before tomorrow' : kind;
    return [
      {
        at: '/*/updated',
        location: `$[…].updated of ${String(id)}`,
        holds: ['empty', 'a placeholder time', 'a time before tomorrow'].includes(when),
        expected: 'an ISO 8601 time before tomorrow, empty, or a placeholder before 2000 (Date and time of the last message)',
        observed: showValue(when),
        details: { dialog: id as Json, updated },
      },
    ];
  },
});

export const updatedInLife = defineCheck({
  name: 'meaning_conformance.updated',
  sections: ['2.1'],
  severity: 'high',
  statement: 'updated of a dialog whose creation was seen lies between its creation and the read, and never earlier than a read before',
  evidence: 'dialog',
  places: ['/updated'],
  judge: ({ updated, window, before }: { updated: string; window: { createdMs: number; readMs: number }; before?: string }) => {
    const kind = updatedKind(updated, window, before);
    return [
      {
        at: '/updated',
        holds: ['empty', 'a placeholder time', 'between the creation and the read'].includes(kind),
        expected: "empty, or a time between the dialog's creation and the read, never earlier than a read before (Date and time of the last message)",
        observed: showValue(kind),
        details: { updated, before: before ?? null },
      },
    ];
  },
});

export const ownData = defineCheck({
  name: 'meaning_conformance.data',
  sections: ['2.2'],
  severity: 'high',
  statement: 'the data of a dialog holds none of the values other dialogs were given as variables (Data collected in the dialog)',
  evidence: 'series',
  places: ['/data'],
  judge: ({ dialog, answers, othersGiven }: { dialog: string; answers: readonly string[]; othersGiven: readonly string[] }) => {
    // In any form a store may keep a text (stored-text.ts): a value trimmed or NFC-normalized is still its own.
    const foreign = answers.filter(sameTextAsAny(othersGiven));
    return [
      {
        at: '/data',
        holds: foreign.length === 0,
        expected: 'data collected in this dialog: none of the values another dialog was given',
        observed: showValue(foreign.length ? "another dialog's data" : 'its own data'),
        details: { dialog, foreign },
      },
    ];
  },
});

export const messageIdNew = defineCheck({
  name: 'meaning_conformance.message_id',
  sections: ['2.5'],
  severity: 'high',
  statement: 'each message a custom block sends gets a message_id no earlier message of the block was given',
  evidence: 'series',
  places: ['/message_id'],
  judge: ({ messageId, earlier }: { messageId: unknown; earlier: readonly unknown[] }) => [
    {
      at: '/message_id',
      holds: !earlier.includes(messageId),
      expected: '"a new identifier"',
      observed: showValue(earlier.includes(messageId) ? "an earlier message's identifier" : 'a new identifier'),
      details: { message_id: messageId as Json, earlier: earlier as Json[] },
    },
  ],
});

/** Five minutes: how far a message's created_at may lie from its send, in the vendor's clock. */
const SENT_AT_TOLERANCE_S = 300;

export const sentAt = defineCheck({
  name: 'sent_at_conformance',
  sections: ['2.5'],
  severity: 'medium',
  statement: "created_at of a sent message is the Unix timestamp in seconds of its sending, within 5 minutes of the send in the vendor's clock",
  evidence: 'exchange',
  places: ['/created_at'],
  judge: ({ createdAt, sent }: { createdAt: unknown; sent: { fromMs: number; toMs: number } }) => {
    const [from, to] = [Math.floor(sent.fromMs / 1000) - SENT_AT_TOLERANCE_S, Math.ceil(sent.toMs / 1000) + SENT_AT_TOLERANCE_S];
    const now = Math.round((sent.fromMs + sent.toMs) / 2000);
    const observed =
      typeof createdAt !== 'number'
        ? 'no number'
        : createdAt >= from && createdAt <= to
          ? 'now'
          : Math.abs(createdAt - now) > 1e9
            ? 'not in seconds'
            : 'another time';
    return [
      {
        at: '/created_at',
        holds: observed === 'now',
        expected: "the Unix timestamp (seconds) of sending, within 5 minutes of the send in the vendor's clock",
        observed: showValue(observed),
        details: { created_at: createdAt as Json, now },
      },
    ];
  },
});
