// Assertions on an answer that read like a vendor ticket. Each matcher takes the response, as `observe` does: the
// operation, its label, the status and the exchange come from it. A failure (lib/failure.ts) is built once here and
// recorded as data on the running test (a CONTRACT_FAILURE annotation) before it is rendered as the message:
// reports read the data, never the message. Whether the test goes on after it is Playwright's: `expect` stops it,
// `expect.soft` does not. What a run does with recorded failures (acknowledgements, the record-only mode of the
// mutation run) is the `contractFailures` fixture's (api-test.ts).
import { expect as base, test } from '@playwright/test';
import type { StatusExpectation } from '../../openapi/validators.ts';
import {
  CONTRACT_FAILURE,
  NOT_JUDGED,
  renderFailure,
  showValue,
  type Failure,
  type FailureSeverity,
  type SemanticCheck,
  type UnjudgedCheck,
} from '../../lib/failure.ts';
import { stableStringify, type Json } from '../../lib/json.ts';
import type { ApiResponse } from '../core/api-response.ts';
import { redactKnown, redactKnownIn } from '../../http/redact.ts';

/** What a semantic check observed, and what the spec asks of it: a value to equal, or a stated rule it must hold. */
type Verdict = { observed: unknown; equals: unknown } | { observed: unknown; expected: string; holds: (observed: unknown) => boolean };

/**
 * A semantic check of an answer: its name, the stable place and section, what was observed (no value of the run:
 * those go in `details`) and what the spec asks. The answer the matcher takes is the one judged: its operation and
 * status name the failure.
 */
export type Judgement = Verdict & {
  check: SemanticCheck;
  /** The stable place: a JSON pointer into the answer, or a named place ("status of the dialog afterwards"). */
  at: string;
  section: string;
  /** The place with the run's values, as a reader wants it. */
  location?: string;
  /** Values of the run that explain the verdict: the dialog, the window sent, the values compared. */
  details?: Record<string, unknown>;
  /** A comparison of two operations (V1 against V2): the other operation's answer. */
  against?: ApiResponse;
  /** Other answers that show it: the read that shows an action's effect. */
  shownBy?: readonly ApiResponse[];
  severity?: FailureSeverity;
};

/** Values as JSON keeps them: a value JSON cannot hold (undefined) becomes null, so "missing" still shows. */
const asJson = (details: Record<string, unknown>): Record<string, Json> =>
  Object.fromEntries(Object.entries(details).map(([k, v]) => [k, JSON.parse(JSON.stringify(v ?? null)) as Json]));

/** Whether a judgement holds: the observation equals the value asked for, or meets the stated rule. */
export const holds = (j: Judgement): boolean => ('equals' in j ? stableStringify(j.observed) === stableStringify(j.equals) : j.holds(j.observed));

/** Records failures on the running test, secrets removed, and returns the message that renders them. */
function record(failures: readonly Failure[]): string {
  const clean = failures.map((f) => redactKnownIn(f));
  for (const f of clean) test.info().annotations.push({ type: CONTRACT_FAILURE, description: JSON.stringify(f) });
  return redactKnown(clean.map(renderFailure).join('\n'));
}

/** The failure of a judgement that does not hold, built from the answer it judges. */
function judgementFailure(res: ApiResponse, j: Judgement): Failure {
  const shown = [res, ...(j.against ? [j.against] : []), ...(j.shownBy ?? [])];
  return {
    check: j.check,
    severity: j.severity ?? 'breaking',
    operationId: res.operationId,
    ...(j.against ? { comparedWith: j.against.operationId } : {}),
    status: res.status,
    pointer: j.at,
    expected: 'equals' in j ? showValue(j.equals) : j.expected,
    section: j.section,
    observed: showValue(j.observed),
    context: {
      ...(j.location ? { location: j.location } : {}),
      ...(j.details ? { details: asJson(j.details) } : {}),
      exchanges: shown.map((r) => r.exchange()),
    },
  };
}

export const expect = base.extend({
  /**
   * The answer conforms: no server error, the status the expectation names (else one the document lists), the
   * documented content type and schema, an empty body where none is documented; and, with --contract-from, what the
   * baseline's learned document adds to the spec.
   */
  toMatchContract(res: ApiResponse, expectation: StatusExpectation = {}) {
    const failures = res.contracts.spec.check(res.operationId, res.answer, expectation);
    const learned = res.contracts.learned;
    if (learned) {
      const known = new Set(failures.map((f) => `${f.check} ${f.pointer} ${f.expected}`));
      for (const f of learned.validators.check(res.operationId, res.answer, { ...expectation, severity: 'learned' })) {
        if (known.has(`${f.check} ${f.pointer} ${f.expected}`)) continue;
        const expected = `${f.expected}, as baseline ${learned.baseline} observed`;
        failures.push({ ...f, expected, context: { ...f.context, details: { baseline: learned.baseline } } });
      }
    }
    if (failures.length === 0) {
      return { pass: true, name: 'toMatchContract', message: () => `${res.operation.label} → ${res.status} conforms to the contract` };
    }
    // The exchange (clipped, redacted) only for a failure: a passing check is the common case.
    const exchanges = [res.exchange()];
    const message = record(failures.map((f) => ({ ...f, context: { ...f.context, exchanges } })));
    return { pass: false, name: 'toMatchContract', message: () => message };
  },

  /** A semantic check of the answer (see Judgement). */
  toHold(res: ApiResponse, judgement: Judgement) {
    if (holds(judgement)) return { pass: true, name: 'toHold', message: () => `${res.operation.label} → ${res.status}: ${judgement.at} holds` };
    const message = record([judgementFailure(res, judgement)]);
    return { pass: false, name: 'toHold', message: () => message };
  },
});

/**
 * Soft checks raised only where they fail. A passing expect is still a Playwright step, and every step captures a
 * stack: per item and per request that was the largest cost of a run (bench/contract.ts). Failures read the same.
 */
export function holdEach(res: ApiResponse, ...judgements: readonly Judgement[]): void {
  for (const judgement of judgements) if (!holds(judgement)) expect.soft(res).toHold(judgement);
}

/**
 * A check of the answer that the run could not judge, with why (lib/failure.ts UnjudgedCheck): recorded on the running
 * test as data, as a failure is, but neither failing it nor ever becoming a ticket. The test goes on with its other
 * checks.
 */
export function notJudged(res: ApiResponse, unjudged: Omit<UnjudgedCheck, 'operationId'>): void {
  const entry: UnjudgedCheck = { ...unjudged, operationId: res.operationId, why: redactKnown(unjudged.why) };
  test.info().annotations.push({ type: NOT_JUDGED, description: JSON.stringify(entry) });
}
