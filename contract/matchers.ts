// Assertions that read like a vendor ticket: operation, place, expected with its spec section, observed, evidence.
// Each failure is recorded as data where it is raised (a CONTRACT_FAILURE annotation of the test, report/drift-failures.ts)
// before it is rendered as the message: reports read the data, never the message.
import { expect as base, test } from '@playwright/test';
import { contractValidators, type CheckOptions } from '../openapi/validators.ts';
import { acknowledgementOf, acknowledgementText, utcDay, type Acknowledgement } from '../report/acknowledged.ts';
import { CONTRACT_FAILURE, failureId, recordOnly, renderFailure, type ContractFailure } from '../report/drift-failures.ts';
import { readAcknowledgements } from './acknowledgements.ts';
import { learnedContract } from './learned-contract.ts';
import type { ApiResponse } from './api-response.ts';
import { redactKnown, redactKnownIn } from '../http/redact.ts';

export interface StatusExpectation extends CheckOptions {
  /** The status (or statuses, or any success) this request must get. */
  status?: number | number[] | '2XX';
  /** Why: the request's situation, e.g. "for a request without Authorization". */
  because?: string;
  /** Spec section that documents the expected status. */
  section?: string;
}

/** A semantic check (pagination, filters, state) described the way a drift is reported. */
export interface Finding {
  operation: string;
  operationId?: string;
  status?: number;
  /**
   * The stable place: a JSON pointer into the answer ("/meta/pagination/total"), "status", or the name of the
   * check ("filter CreatedFrom/CreatedTo"); no value of the run in it.
   */
  pointer: string;
  /** The place as a reader wants it, run values included; the pointer when not given. */
  location?: string;
  expected: string;
  section: string;
  observed: string;
  evidence?: string;
}

let acknowledged: Acknowledgement[] | undefined;

/** baselines/acknowledged.yaml as this worker read it; a broken file is the run reporter's to report. */
function acknowledgements(): Acknowledgement[] {
  try {
    acknowledged ??= readAcknowledgements();
  } catch {
    acknowledged = [];
  }
  return acknowledged;
}

const RECORD_ONLY = recordOnly(process.env);
/** Tests (by test id) that met a hard failure in a record-only run: a normal run stops there. */
const stopped = new Set<string>();

/** Playwright does not hand custom matchers `isSoft`; the step title it builds says it ("Expect \"soft toHold\""). */
const isSoft = (context: object) => /^Expect "soft /.test(String((context as { title?: unknown }).title ?? ''));

/**
 * Records failures on the running test, secrets removed, and returns the message that renders them. A failure the
 * vendor already has a ticket for also gets Playwright's kind of note, an "acknowledged" annotation, shown wherever
 * the test is; it stays a failure.
 */
function record(failures: ContractFailure[], evidence: string | undefined, hard: boolean): string {
  const testId = test.info().testId;
  const unreached = RECORD_ONLY && stopped.has(testId);
  if (RECORD_ONLY && hard) stopped.add(testId);
  const clean = failures.map((f): ContractFailure => redactKnownIn({ ...f, ...(unreached ? { unreached: true as const } : {}) }));
  const today = utcDay(Date.now());
  for (const f of clean) {
    test.info().annotations.push({ type: CONTRACT_FAILURE, description: JSON.stringify(f) });
    const known = acknowledgementOf(failureId(f), acknowledgements(), today);
    if (known) test.info().annotations.push({ type: 'acknowledged', description: `${failureId(f)}: ${acknowledgementText(known)}` });
  }
  return redactKnown([...clean.map(renderFailure), ...(evidence ? [evidence] : [])].join('\n'));
}

export const expect = base.extend({
  /** Documented status (or the one `expectation` names), documented content type, schema, empty body on 204. */
  toMatchContract(res: ApiResponse, expectation: StatusExpectation = {}) {
    const wanted = expectation.status === undefined ? undefined : [expectation.status].flat();
    const met = wanted === undefined || wanted.some((w) => (w === '2XX' ? res.status >= 200 && res.status < 300 : w === res.status));
    const of = { operationId: res.operationId, operation: res.operation.label, status: res.status };
    const failures: ContractFailure[] = [];
    if (wanted && !met) {
      const expected = `${wanted.join(' or ')}${expectation.because ? ` ${expectation.because}` : ''}`;
      failures.push({ ...of, pointer: 'status', location: 'status', expected, section: expectation.section ?? '7', observed: String(res.status) });
    }
    const answer = { status: res.status, contentType: res.contentType, contentLength: res.headers['content-length'], body: res.text };
    const problems = contractValidators().check(res.operationId, answer, expectation);
    for (const p of problems) failures.push({ ...of, pointer: p.pointer, location: p.location, expected: p.expected, section: p.section, observed: p.observed });
    // Held to a baseline's learned document as well (--contract-from): what it adds to the spec, and only that.
    const learned = learnedContract();
    if (learned) {
      const known = new Set(problems.map((p) => p.message));
      for (const p of learned.validators.check(res.operationId, answer, expectation)) {
        if (known.has(p.message)) continue;
        failures.push({ ...of, pointer: p.pointer, location: p.location, expected: `${p.expected}, as baseline ${learned.baseline} observed`, section: p.section, observed: p.observed, learnedFrom: learned.baseline });
      }
    }
    const pass = failures.length === 0;
    if (pass) return { pass: true, name: 'toMatchContract', message: () => `${res.operation.label} → ${res.status} conforms to the contract` };
    // The evidence (clipped, redacted) only for a failure: a passing check is the common case.
    const evidence = res.evidence();
    const message = record(failures.map((f) => ({ ...f, evidence })), evidence, !isSoft(this));
    return { pass: RECORD_ONLY, name: 'toMatchContract', message: () => message };
  },

  /** A semantic finding: passes when `ok` is true. */
  toHold(ok: boolean, finding: Finding) {
    const failure: ContractFailure = {
      operationId: finding.operationId ?? null,
      operation: finding.operation,
      status: finding.status ?? null,
      pointer: finding.pointer,
      location: finding.location ?? finding.pointer,
      expected: finding.expected,
      section: finding.section,
      // JSON.stringify of a missing field is undefined, whatever its type says: a missing value reads "absent".
      observed: finding.observed ?? 'absent',
      ...(finding.evidence ? { evidence: finding.evidence } : {}),
    };
    const message = ok ? `${finding.operation}: ${failure.location} holds` : record([failure], finding.evidence, !isSoft(this));
    return { pass: ok || RECORD_ONLY, name: 'toHold', message: () => message };
  },
});

/**
 * Soft checks raised only where they fail. A passing expect is still a Playwright step, and every step captures a
 * stack: per item and per request that was the largest cost of a run (bench/contract.ts). Failures read the same.
 */
export function holdEach(...checks: Array<[ok: boolean, finding: Finding]>): void {
  for (const [ok, finding] of checks) if (!ok) expect.soft(false).toHold(finding);
}
