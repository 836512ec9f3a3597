// Contract failures as data. A matcher records each failure where it is raised (a test annotation of type
// CONTRACT_FAILURE: operation, stable place, expectation with its spec section, what was observed, redacted evidence);
// the drift report, the fingerprint, the mutation score and JUnit read that record. The message a test prints is a
// rendering of it, never read back.
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { ISO_DATE_TIME } from '../lib/shape.ts';

export const CONTRACT_PREFIX = 'contract.';
/** A failure against the learned contract (npm run contract -- --contract-from BASELINE), not against the spec. */
export const LEARNED_PREFIX = 'learned.';
/**
 * CONTRACT_FAILURES=record (the mutation run only): a contract failure is recorded and the test goes on, so a
 * drifted run does not restart a Playwright worker per failed test. Each failure that a normal run would not have
 * reached, because an earlier hard assertion of its test had already stopped it, is marked `unreached`.
 */
export const RECORD_ONLY_ENV = 'CONTRACT_FAILURES';
export const recordOnly = (env: Record<string, string | undefined>) => env[RECORD_ONLY_ENV] === 'record';
/** Annotation type of a recorded contract failure; its description is the JSON of a ContractFailure. */
export const CONTRACT_FAILURE = 'contract-failure';

export interface ContractFailure {
  /** operationId of the document, when the failure belongs to one operation. */
  operationId: string | null;
  /** How QA names the operation ("GET /v2/conversations"), or the operations a comparison spans. */
  operation: string;
  status: number | null;
  /**
   * The stable place: a JSON pointer into the answer with every list position written as a star, "status",
   * "content-type", "body", or the name of the semantic check ("filter CreatedFrom/CreatedTo").
   */
  pointer: string;
  /** The place as a reader wants it, run values included ("filter CreatedTo=2026-11-23T03:43:27Z"). */
  location: string;
  expected: string;
  /** Spec section of the expectation. */
  section: string;
  observed: string;
  /** The request and the answer that show it, secrets removed. */
  evidence?: string;
  /** Record-only runs: after a hard failure of the same test, where a normal run had stopped. */
  unreached?: true;
  /** The baseline whose learned document this answer breaks (--contract-from): a learned-contract failure. */
  learnedFrom?: string;
}

export interface RecordedFailure extends ContractFailure {
  /** Stable across runs: operation, status and pointer. */
  id: string;
  /** The test that failed ("[v2] file › title"). */
  test: string;
}

export const failureId = (f: Pick<ContractFailure, 'operation' | 'status' | 'pointer' | 'learnedFrom'>) =>
  `${f.learnedFrom ? LEARNED_PREFIX : CONTRACT_PREFIX}${f.operation} → ${f.status ?? '-'} ${f.pointer}`;

/** "OP → STATUS: LOCATION: expected X (spec §S), observed Y": how a failure reads in a message and a ticket. */
export function renderFailure(f: ContractFailure): string {
  return `${f.operation}${f.status === null ? '' : ` → ${f.status}`}: ${f.location}: expected ${f.expected} (spec §${f.section}), observed ${f.observed}`;
}

/** A failed test that recorded no contract failure (a thrown error, a timeout): named by the test itself. */
export function unexplainedFailure(test: string, firstLine: string): RecordedFailure {
  return {
    id: `${CONTRACT_PREFIX}test ${test}`,
    operationId: null,
    operation: '(test)',
    status: null,
    pointer: 'test',
    location: test,
    expected: 'the test to pass',
    section: '-',
    observed: firstLine || 'failed without a message',
    test,
  };
}

const ANY_TIME = new RegExp(ISO_DATE_TIME.source.slice(1, -1), 'g');

/**
 * Run-dependent values (UUIDs, times, large ids, list indexes) in a failure's texts replaced by placeholders, so the
 * fingerprint item of the same drift reads the same in every run.
 */
export function normaliseVolatile(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{uuid}')
    .replace(ANY_TIME, '{time}')
    .replace(/\[(?:"\d+"|\d+)\]/g, '[*]')
    .replace(/\b\d{4,}\b/g, '{n}');
}

export function failureItem(f: RecordedFailure): FingerprintItem {
  return {
    id: f.id,
    section: f.section,
    operation: f.operation,
    item: normaliseVolatile(`${f.pointer}: expected ${f.expected}`),
    observed: normaliseVolatile(f.observed),
  };
}
