// Failure ids of suites before failures named their check ("contract.GET /v2/conversation/{uuid} → 200 /source"),
// as saved baselines and baselines/acknowledged.yaml may hold them: read, never written. Each is matched to a failure
// of this run by operation, status and place and takes its id; one without a match keeps its id (a failure the
// vendor fixed, an acknowledgement now resolved) and, in a baseline, is still a failure.
import { OPERATIONS, type OperationId } from '../openapi/operations.generated.ts';
import type { FailureSeverity, RecordedFailure } from '../lib/failure.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';

interface LegacyId {
  severity: FailureSeverity;
  operationId: OperationId | null;
  /** null: the old id gave no status ("-"), any status matches. */
  status: number | null;
  pointer: string;
}

const ARROW = ' → ';
/** Old labels that named no operation of the document: the custom block's call was checked after its create. */
const OLD_LABELS: Record<string, OperationId> = { 'custom block call to CALLBACK_PUBLIC_URL': 'postV2DialogCreate' };
const byLabel = new Map(Object.entries(OPERATIONS).map(([id, op]) => [op.label as string, id as OperationId]));

/** An old id's parts; undefined for an id of today's form or an observation's. */
function parseLegacy(id: string): LegacyId | undefined {
  const severity = id.startsWith('contract.') ? 'breaking' : id.startsWith('learned.') ? 'learned' : undefined;
  if (!severity) return undefined;
  const rest = id.slice(id.indexOf('.') + 1);
  if (rest.startsWith('test ')) return { severity, operationId: null, status: null, pointer: rest.slice('test '.length) };
  const arrow = rest.indexOf(ARROW);
  if (arrow < 0) return undefined;
  const label = rest.slice(0, arrow).split(' vs ')[0]!;
  const operationId = byLabel.get(label) ?? OLD_LABELS[label];
  const after = rest.slice(arrow + ARROW.length);
  const space = after.indexOf(' ');
  if (!operationId || space < 0) return undefined;
  const status = after.slice(0, space);
  return { severity, operationId, status: status === '-' ? null : Number(status), pointer: after.slice(space + 1) };
}

/** An old place names the failure's: the same, or (records against list items) one field of an old list of them. */
function samePlace(old: string, pointer: string): boolean {
  const RECORD = 'record vs list item ';
  if (old.startsWith(RECORD) && pointer.startsWith(RECORD)) return old.slice(RECORD.length).split(',').includes(pointer.slice(RECORD.length));
  return old === pointer;
}

/** The failure of this run an old id names, if any. */
function matchOf(id: string, failures: readonly RecordedFailure[]): { legacy: LegacyId; match?: RecordedFailure } | undefined {
  const legacy = parseLegacy(id);
  if (!legacy) return undefined;
  const match = failures.find(
    (f) =>
      f.severity === legacy.severity &&
      f.operationId === legacy.operationId &&
      (legacy.status === null || f.status === legacy.status) &&
      (legacy.operationId === null ? f.test === legacy.pointer : samePlace(legacy.pointer, f.pointer)),
  );
  return { legacy, ...(match ? { match } : {}) };
}

/** Entries (acknowledgements) with old ids renamed to the ids of this run's failures they name, and the renames. */
export function adoptLegacyIds<T extends { id: string }>(
  entries: readonly T[],
  failures: readonly RecordedFailure[],
): { entries: T[]; renamed: Array<[string, string]> } {
  const renamed: Array<[string, string]> = [];
  const out = entries.map((entry) => {
    const match = matchOf(entry.id, failures)?.match;
    if (!match) return entry;
    renamed.push([entry.id, match.id]);
    return { ...entry, id: match.id };
  });
  return { entries: out, renamed };
}

/** A baseline's items with old failure ids renamed as above, and every old failure item given its severity. */
export function adoptLegacyItems(items: readonly FingerprintItem[], failures: readonly RecordedFailure[]): FingerprintItem[] {
  return items.map((item) => {
    const found = item.severity ? undefined : matchOf(item.id, failures);
    return found ? { ...item, id: found.match?.id ?? item.id, severity: found.legacy.severity } : item;
  });
}
