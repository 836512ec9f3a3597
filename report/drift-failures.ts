// Contract failures in the drift report: a failure's fingerprint item (its id, what is expected where, what was
// observed: nothing of the run, so the same drift reads the same in every run) and what its entry and ticket show,
// all from the failure's data (lib/failure.ts).
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { operationLabel, renderEvidence, renderExpected, renderObserved, type RecordedFailure } from '../lib/failure.ts';
import { replayOf } from './replay.ts';
import type { EntryDetail } from './drift-report.ts';

export function failureItem(f: RecordedFailure): FingerprintItem {
  const item = `${f.pointer}: expected ${f.expected}`;
  return { id: f.id, section: f.section, operation: operationLabel(f), item, observed: f.observed, severity: f.severity };
}

/** What the entry of a failure shows: the expectation with why and its section, the value seen, the exchanges. */
export function failureDetail(f: RecordedFailure): EntryDetail {
  const replay = replayOf(f);
  return { documented: renderExpected(f), observed: renderObserved(f), evidence: renderEvidence(f), test: f.test, ...(replay ? { replay } : {}) };
}

/** How many other places a failure names before it counts the rest. */
const PLACES_NAMED = 10;

/**
 * The journal's failures joined to the run's: one failure per id, whoever found it first (a test at its call site, else
 * the engine), the others' places its evidence (the first ten, then how many more). Returns the failures of ids no
 * test found, to be added; the others gain the places.
 */
export function withJournal(found: readonly RecordedFailure[], journal: readonly RecordedFailure[]): RecordedFailure[] {
  const byId = new Map(found.map((f) => [f.id, f]));
  const more = new Map<RecordedFailure, number>();
  const added: RecordedFailure[] = [];
  for (const f of journal) {
    const same = byId.get(f.id);
    if (!same) {
      byId.set(f.id, f);
      added.push(f);
      continue;
    }
    const also = same.context.alsoFoundAt ?? [];
    if (same.test === f.test || also.includes(f.test)) continue;
    if (also.length < PLACES_NAMED) same.context.alsoFoundAt = [...also, f.test];
    else more.set(same, (more.get(same) ?? 0) + 1);
  }
  for (const [f, n] of more) f.context.alsoFoundAt = [...f.context.alsoFoundAt!, `and ${n} more`];
  return added;
}
