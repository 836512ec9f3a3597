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
