// Assertions that read like a vendor ticket: operation, place, expected with its spec section, observed, evidence.
import { expect as base } from '@playwright/test';
import { contractValidators, type CheckOptions } from '../openapi/validators.ts';
import type { ApiResponse } from './client.ts';
import { redactKnown } from './redact.ts';

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
  status?: number;
  location: string;
  expected: string;
  section: string;
  observed: string;
  evidence?: string;
}

export function formatFinding(f: Finding): string {
  const head = `${f.operation}${f.status === undefined ? '' : ` → ${f.status}`}: ${f.location}: expected ${f.expected} (spec §${f.section}), observed ${f.observed}`;
  return f.evidence ? `${head}\n${f.evidence}` : head;
}

export const expect = base.extend({
  /** Documented status (or the one `expectation` names), documented content type, schema, empty body on 204. */
  toMatchContract(res: ApiResponse, expectation: StatusExpectation = {}) {
    const wanted = expectation.status === undefined ? undefined : [expectation.status].flat();
    const met = wanted === undefined || wanted.some((w) => (w === '2XX' ? res.status >= 200 && res.status < 300 : w === res.status));
    const lines: string[] = [];
    if (wanted && !met) {
      lines.push(
        formatFinding({
          operation: res.operation.label,
          status: res.status,
          location: 'status',
          expected: `${wanted.join(' or ')}${expectation.because ? ` ${expectation.because}` : ''}`,
          section: expectation.section ?? '7',
          observed: String(res.status),
        }),
      );
    }
    for (const p of contractValidators().check(res.operationId, { status: res.status, contentType: res.contentType, body: res.text }, expectation)) {
      lines.push(p.message);
    }
    const pass = lines.length === 0;
    return {
      pass,
      name: 'toMatchContract',
      message: () => (pass ? `${res.operation.label} → ${res.status} conforms to the contract` : redactKnown(`${lines.join('\n')}\n${res.evidence()}`)),
    };
  },

  /** A semantic finding: passes when `ok` is true. */
  toHold(ok: boolean, finding: Finding) {
    return { pass: ok, name: 'toHold', message: () => redactKnown(formatFinding(finding)) };
  },
});
