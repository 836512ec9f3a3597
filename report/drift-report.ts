// The drift report: this run's fingerprint against a baseline, each item with a severity and a vendor ticket text.
// Pure: the reporter hands in the items and what it knows of each (documented text, evidence, test); files are
// written elsewhere.
import type { FingerprintItem } from '../lib/fingerprint.ts';
import type { FailureSeverity } from '../lib/failure.ts';
import { stableStringify } from '../lib/json.ts';
import { REPLAY_VARIABLES } from './replay.ts';
import type { Reach } from './run-reach.ts';
import { acknowledgementOf, acknowledgementText, resolvedEntries, type Acknowledgement, type AcknowledgementState } from './acknowledged.ts';

export const ADDITIVE_PREFIX = 'additive.';

export const SEVERITIES = ['breaking', 'learned', 'acknowledged', 'changed', 'additive', 'new', 'unreached', 'unchanged', 'fixed'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const SEVERITY_LABEL: Record<Severity, string> = {
  breaking: 'breaking contract failure',
  learned: 'learned-contract failure: what the vendor did in the baseline (--contract-from) it no longer does',
  acknowledged: 'known drift with a vendor ticket (baselines/acknowledged.yaml)',
  changed: 'undocumented behaviour changed since baseline',
  additive: 'additive: a field the document does not declare',
  new: 'new observation',
  unreached: 'not observed: this run did not set out to observe it, or a test of this run failed before recording it (its failure is the one to look at)',
  unchanged: 'unchanged since baseline',
  fixed: 'fixed: a contract failure of the baseline no longer seen',
};

/** How an item compares with the baseline; null when the run has none. */
export type Change = 'added' | 'changed' | 'removed' | 'unchanged';

/** An observation as a test recorded it (contract/core/observation.ts), with the test that recorded it. */
export interface RecordedObservation extends Omit<FingerprintItem, 'operation'> {
  operation?: string;
  evidence?: string;
  test: string;
}

/** What the fingerprint does not carry but a ticket needs. */
export interface EntryDetail {
  /** What the spec says: the documented expectation, or that the item is not shown. */
  documented: string;
  /** Shown instead of the fingerprint's normalised value (a failure's observed text as the test printed it). */
  observed?: string;
  evidence?: string;
  /** The request that shows it as a curl command (report/replay.ts curlCommand): credentials as references only. */
  replay?: string;
  test?: string;
}

export interface DriftEntry {
  id: string;
  severity: Severity;
  change: Change | null;
  operation: string;
  section: string;
  item: string;
  documented: string;
  observed: string;
  /** The baseline's value, when it had the item and it differs. */
  before?: string;
  /** The entry of baselines/acknowledged.yaml for this drift, when there is one (expired or not). */
  acknowledgement?: AcknowledgementState;
  test?: string;
  evidence?: string;
  replay?: string;
  ticket: string;
  /**
   * The ids of every entry of one root cause, when there are several (the same finding of one check at one field, seen
   * at several operations or places): they share one ticket, which lists where each was seen.
   */
  cause?: string[];
}

export interface DriftReport {
  /** Name of the baseline compared with, or null. */
  baseline: string | null;
  counts: Record<Severity, number>;
  /** Items added, changed or removed since the baseline and not acknowledged (what --strict fails on). */
  changes: number;
  entries: DriftEntry[];
  /** Acknowledgements past their date whose drift is still there: each fails the run. */
  expired: Acknowledgement[];
  /** Acknowledgements whose drift this run exercised and found holding: their entries can go. */
  resolved: Acknowledgement[];
}

export interface Baseline {
  name: string;
  items: readonly FingerprintItem[];
}

type Kind = FailureSeverity | 'additive' | 'observation';

/** A failure by the severity its check gave it; an observation of an undeclared field is additive. */
export const kindOf = (item: Pick<FingerprintItem, 'id' | 'severity'>): Kind =>
  item.severity ?? (item.id.startsWith(ADDITIVE_PREFIX) ? 'additive' : 'observation');

export const showValue = (value: unknown): string => (value === undefined ? 'missing' : typeof value === 'string' ? value : stableStringify(value, 0));

/**
 * One fingerprint item per observation id. Tests that record the same id alike collapse into one; if they saw
 * different values, all of them are kept, sorted, so the item does not depend on which test ran first.
 */
export function mergeObservations(recorded: readonly RecordedObservation[]): {
  items: FingerprintItem[];
  details: Map<string, Pick<EntryDetail, 'evidence' | 'test'>>;
  /** Every test that recorded each id. */
  observers: Map<string, string[]>;
} {
  const byId = new Map<string, RecordedObservation[]>();
  for (const o of [...recorded].sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0))) {
    byId.set(o.id, [...(byId.get(o.id) ?? []), o]);
  }
  const items: FingerprintItem[] = [];
  const details = new Map<string, Pick<EntryDetail, 'evidence' | 'test'>>();
  const observers = new Map<string, string[]>();
  for (const [id, seen] of byId) {
    observers.set(id, [...new Set(seen.map((o) => o.test))]);
    const first = seen[0]!;
    const distinct = new Map(seen.map((o) => [stableStringify(o.observed, 0), o.observed]));
    const observed = distinct.size === 1 ? first.observed : { variants: [...distinct.keys()].sort().map((k) => distinct.get(k)) };
    items.push({ id, section: first.section, operation: first.operation ?? '', item: first.item, observed });
    const evidence = seen.find((o) => o.evidence)?.evidence;
    details.set(id, { test: first.test, ...(evidence ? { evidence } : {}) });
  }
  return { items, details, observers };
}

function severityOf(kind: Kind, change: Change | null, acknowledged: AcknowledgementState | undefined): Severity {
  // A failure gone since the baseline is the vendor's fix: reported, never a ticket, never what --strict fails on.
  if ((kind === 'breaking' || kind === 'learned') && change === 'removed') return 'fixed';
  const observation = change === 'changed' || change === 'removed' ? 'changed' : change === 'unchanged' ? 'unchanged' : 'new';
  const drift = kind === 'observation' ? observation : kind;
  // Only a drift can be acknowledged, and only until its entry expires.
  return acknowledged && !acknowledged.expired && (drift === 'breaking' || drift === 'learned' || drift === 'changed') ? 'acknowledged' : drift;
}

export function ticketText(entry: Omit<DriftEntry, 'ticket'>, baseline: string | null): string {
  const lines = [
    `[Dialog Bot Service] ${entry.operation || 'API'}: ${entry.item} (${SEVERITY_LABEL[entry.severity]})`,
    '',
    `Specification: §${entry.section}`,
    `Documented: ${entry.documented}`,
    `Observed: ${entry.observed}`,
    ...(entry.before !== undefined ? [`Observed before (baseline ${baseline}): ${entry.before}`] : []),
    ...(entry.test ? [`Found by: ${entry.test}`] : []),
    ...(entry.acknowledgement ? [`Acknowledged: ${acknowledgementText(entry.acknowledgement)}`] : []),
    `Reference: ${entry.id}`,
    '',
    entry.evidence ??
      (entry.test
        ? 'Evidence: no single request shows it; see the test named above in the Playwright HTML report.'
        : 'Evidence: none, the item was not observed in this run.'),
    ...(entry.replay ? ['', `Reproduce, with ${REPLAY_VARIABLES} set:`, entry.replay] : []),
  ];
  return lines.join('\n');
}

/**
 * What makes contract failures one root cause: one check family finding the same at the same field (list positions and
 * the operation aside) and seeing the same there. A missing `source` seen in the V2 record and in the V2 list is one
 * ticket; transitions that all fail for one status string are one id already.
 */
function causeKey(item: FingerprintItem): string | undefined {
  const kind = kindOf(item);
  if (kind !== 'breaking' && kind !== 'learned') return undefined;
  const m = /^((?:contract|learned)\.\S+) \S+ \S+ (.+)$/.exec(item.id);
  if (!m) return undefined;
  const pointer = m[2]!;
  const field = pointer.startsWith('/')
    ? pointer
        .split('/')
        .filter((p) => p !== '' && p !== '*')
        .join('/')
    : pointer;
  const finding = item.item.startsWith(pointer) ? item.item.slice(pointer.length) : item.item;
  return `${m[1]} ${field}${finding} ${showValue(item.observed)}`;
}

/** The ticket of one root cause seen at several places: the first entry's, with every place it was seen. */
export function causeTicketText(members: readonly DriftEntry[], baseline: string | null): string {
  const [first] = members as [DriftEntry, ...DriftEntry[]];
  const lines = ticketText(first, baseline).split('\n');
  const at = lines.findIndex((l) => l.startsWith('Reference: '));
  const places = members.map((m) => `- ${m.operation || 'API'}: ${m.item}${m.test ? `, found by ${m.test}` : ''} (${m.id})`);
  return [
    `[Dialog Bot Service] ${causeOperations(members)}: ${causeItem(first)} (${SEVERITY_LABEL[first.severity]})`,
    ...lines.slice(1, at).filter((l) => !l.startsWith('Found by: ')),
    `Seen at ${members.length} places (one cause, one ticket):`,
    ...places,
    ...lines.slice(at + 1),
  ].join('\n');
}

/** The operations of a cause, each once, in order. */
export const causeOperations = (members: readonly Pick<DriftEntry, 'operation'>[]): string => [...new Set(members.map((m) => m.operation || 'API'))].join(', ');

/** What a cause's ticket calls the item: the field without the list positions of one place. */
export const causeItem = (entry: Pick<DriftEntry, 'item'>): string => entry.item.replace(/^\/(?:\*\/)*/, '');

const bySeverityThenId = (a: DriftEntry, b: DriftEntry) =>
  SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Every current item as an entry, plus every baseline item this run no longer has; acknowledged drifts get their own
 * severity until their entry expires.
 */
export function buildDriftReport(
  items: readonly FingerprintItem[],
  detail: (id: string) => EntryDetail,
  baseline?: Baseline,
  acknowledgements: readonly Acknowledgement[] = [],
  today = '9999-12-31',
  /**
   * Whether this run set out to observe an item (report/run-reach.ts): an item of the baseline it did not reach is
   * unreached (no change, no ticket: a filter left it out, or a failed test stopped before it, whose failure is the
   * one to look at), an acknowledged drift it did not reach is not resolved. By default every item is reached.
   */
  reach: (id: string) => Reach = () => ({ reached: true }),
): DriftReport {
  const before = new Map(baseline?.items.map((i) => [i.id, i]));
  const name = baseline?.name ?? null;
  const entry = (fields: Omit<DriftEntry, 'ticket'>): DriftEntry => ({ ...fields, ticket: ticketText(fields, name) });
  const acknowledged = (id: string) => acknowledgementOf(id, acknowledgements, today);
  const entries: DriftEntry[] = items.map((item) => {
    const previous = before.get(item.id);
    const observed = showValue(item.observed);
    const change: Change | null = !baseline ? null : !previous ? 'added' : showValue(previous.observed) === observed ? 'unchanged' : 'changed';
    const { documented, observed: shown, evidence, replay, test } = detail(item.id);
    const acknowledgement = acknowledged(item.id);
    return entry({
      id: item.id,
      severity: severityOf(kindOf(item), change, acknowledgement),
      change,
      operation: item.operation,
      section: item.section,
      item: item.item,
      documented,
      observed: shown ?? observed,
      ...(change === 'changed' ? { before: showValue(previous!.observed) } : {}),
      ...(test ? { test } : {}),
      ...(evidence ? { evidence } : {}),
      ...(replay ? { replay } : {}),
      ...(acknowledgement ? { acknowledgement } : {}),
    });
  });
  const current = new Set(items.map((i) => i.id));
  for (const gone of baseline?.items.filter((i) => !current.has(i.id)) ?? []) {
    const acknowledgement = acknowledged(gone.id);
    // An item this run never set out to observe, or whose test failed before it, says nothing of the vendor.
    const reached = reach(gone.id);
    entries.push(
      entry({
        id: gone.id,
        severity: reached.reached ? severityOf(kindOf(gone), 'removed', acknowledgement) : 'unreached',
        // Not a change: the run did not look.
        change: reached.reached ? 'removed' : null,
        operation: gone.operation,
        section: gone.section,
        item: gone.item,
        documented: detail(gone.id).documented,
        observed: reached.reached ? 'not observed in this run' : `not reached: ${reached.why}`,
        before: showValue(gone.observed),
        ...(acknowledgement ? { acknowledgement } : {}),
      }),
    );
  }
  entries.sort(bySeverityThenId);
  // One root cause, one ticket: the entries of a cause share the ticket that lists where each was seen.
  const causes = new Map<string, DriftEntry[]>();
  for (const item of items) {
    const key = causeKey(item);
    const found = entries.find((e) => e.id === item.id);
    if (key && found && (found.severity === 'breaking' || found.severity === 'learned')) causes.set(key, [...(causes.get(key) ?? []), found]);
  }
  for (const members of causes.values()) {
    if (members.length < 2) continue;
    const ticket = causeTicketText(members, name);
    for (const m of members) Object.assign(m, { ticket, cause: members.map((x) => x.id) });
  }
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, entries.filter((e) => e.severity === s).length])) as Record<Severity, number>;
  const changes = entries.filter(
    (e) => e.change !== null && e.change !== 'unchanged' && e.severity !== 'acknowledged' && e.severity !== 'fixed' && e.severity !== 'unreached',
  ).length;
  const live = entries.filter(
    (e) => e.change !== 'removed' && e.severity !== 'unchanged' && e.severity !== 'new' && e.severity !== 'additive' && e.severity !== 'unreached',
  );
  return {
    baseline: name,
    counts,
    changes,
    entries,
    expired: live.flatMap((e) => (e.acknowledgement?.expired ? [e.acknowledgement] : [])),
    resolved: resolvedEntries(acknowledgements, new Set(live.map((e) => e.id))).filter((a) => reach(a.id).reached),
  };
}

/**
 * Whether a run whose contract failures are `failureIds` passes by baselines/acknowledged.yaml: every one of them is a
 * drift the vendor has a ticket for, and no acknowledgement has passed its date. The main command and the judge alike.
 */
export function acknowledgedOnly(report: Pick<DriftReport, 'entries' | 'expired'>, failureIds: Iterable<string>): boolean {
  const acknowledged = new Set(report.entries.filter((e) => e.severity === 'acknowledged').map((e) => e.id));
  const ids = [...failureIds];
  return ids.length > 0 && report.expired.length === 0 && ids.every((id) => acknowledged.has(id));
}

/** Whether an entry is filed with the vendor: a contract failure, or a change where the specification is silent. */
export const hasTicket = (e: Pick<DriftEntry, 'severity'>): boolean => e.severity === 'breaking' || e.severity === 'changed';

/** One line per change since the baseline, for the console. */
export function changeLines(report: DriftReport): string[] {
  return report.entries
    .filter((e) => e.change !== null && e.change !== 'unchanged')
    .map((e) => `  ${e.change!.padEnd(8)} ${e.id}: ${e.before === undefined ? '' : `${e.before} → `}${e.observed}`);
}
