// Known drifts (baselines/acknowledged.yaml): a drift the vendor already has a ticket for is reported with its own
// severity, "acknowledged", with the ticket, and does not fail the run until its entry expires. An expired entry
// fails the run with one line naming it; an entry whose item the run exercised and found holding is reported as
// resolved. Pure:
// the entries come parsed and checked against baselines/acknowledged.schema.json.
import { OPERATIONS } from '../openapi/operations.generated.ts';

export interface Acknowledgement {
  /** The drift's stable id, as the drift report shows it ("contract.response_schema_conformance getV2Conversation 200 /source"). */
  id: string;
  reason: string;
  /** The vendor ticket. */
  ticket: string;
  acknowledgedBy: string;
  /** Last day (UTC, YYYY-MM-DD) the acknowledgement holds. */
  until: string;
}

export type AcknowledgementState = Acknowledgement & { expired: boolean };

/**
 * Whether an id has the form of a contract failure of this suite ("contract.CHECK OPERATIONID STATUS PLACE", or
 * "learned." for a learned-contract failure), with an operation of the document: a drift that can be acknowledged
 * before a local run has seen it (CI saw it on staging).
 */
export function isFailureId(id: string): boolean {
  const m = /^(?:contract|learned)\.[a-z]+(?:_[a-z]+)* (\S+) (?:[1-5]\d\d|-) \S.*$/.exec(id);
  return m !== null && (m[1] === '-' || Object.hasOwn(OPERATIONS, m[1]!));
}

/** Today as YYYY-MM-DD in UTC, the form `until` is compared in. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The entry for an id, and whether it has expired (`until` before `today`). */
export function acknowledgementOf(id: string, entries: readonly Acknowledgement[], today: string): AcknowledgementState | undefined {
  const entry = entries.find((e) => e.id === id);
  return entry && { ...entry, expired: entry.until < today };
}

/** Entries whose drift this run did not see (the caller keeps those the run exercised: report/run-reach.ts). */
export function resolvedEntries(entries: readonly Acknowledgement[], seen: ReadonlySet<string>): Acknowledgement[] {
  return entries.filter((e) => !seen.has(e.id));
}

/** One line for an expired entry: what to do about it. */
/** How every report names an acknowledgement: its ticket, its date (and whether it passed), who, and why. */
export const acknowledgementText = (a: AcknowledgementState) =>
  `${a.ticket} until ${a.until}${a.expired ? ' (EXPIRED)' : ''}, by ${a.acknowledgedBy}: ${a.reason}`;

export function expiredLine(entry: Acknowledgement): string {
  return `acknowledged drift "${entry.id}" expired on ${entry.until} (ticket ${entry.ticket}): renew it with npm run acknowledge, or have the vendor fix it`;
}

/** One line for a resolved entry: the run exercised its item and found it holding. */
export function resolvedLine(entry: Acknowledgement): string {
  return `acknowledged drift "${entry.id}" was exercised by this run and found holding (ticket ${entry.ticket}): resolved, remove its entry from baselines/acknowledged.yaml`;
}

/** Adds or replaces the entry for its id; entries stay sorted by id so the file diffs cleanly. */
export function withAcknowledgement(entries: readonly Acknowledgement[], entry: Acknowledgement): Acknowledgement[] {
  return [...entries.filter((e) => e.id !== entry.id), entry].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
