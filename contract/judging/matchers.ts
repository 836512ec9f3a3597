// How a test's evidence meets the checks (checks/): a test gathers evidence and calls a check by name (`judge`, or
// `judgeSoft` to go on after a failure); every answer is held to the document (`toMatchContract`). A check the run
// leaves out (--checks, --exclude-checks) is not judged; one judged is counted for the coverage report. A failing
// finding becomes a failure (lib/failure.ts) at the answer judged, recorded as data on the running test (a
// CONTRACT_FAILURE annotation) before it is rendered as the message: reports read the data, never the message. Whether
// the test goes on after it is Playwright's: `expect` stops it, `expect.soft` does not. What a run does with recorded
// failures (acknowledgements, the record-only mode of the mutation run) is the `contractFailures` fixture's.
import { expect as base, test, type TestInfo } from '@playwright/test';
import { failuresOf, type AnyCheck, type Check, type CheckRegistry, type JudgedAt } from '../../checks/check.ts';
import { BUILT_IN, builtIn, type CheckName, type InputOf } from '../../checks/registry.ts';
import { responseChecks, responseFailures, type StatusExpectation } from '../../checks/response.ts';
import { CONTRACT_FAILURE, NOT_JUDGED, renderFailure, type Failure, type FailureSeverity, type UnjudgedCheck } from '../../lib/failure.ts';
import type { Json } from '../../lib/json.ts';
import type { ApiResponse } from '../core/api-response.ts';
import { redactKnown, redactKnownIn } from '../../http/redact.ts';
import { RUNNER_CLOCK_STEP_MS, runnerClockStep, runnerClockWhy } from '../clock/vendor-clock.ts';

/** The answers that show a finding besides the one judged, and the run's values that explain it. */
export interface Shown {
  /** A comparison of two operations (V1 against V2): the other operation's answer. */
  against?: ApiResponse;
  /** Other answers that show it: the read that shows an action's effect. */
  shownBy?: readonly ApiResponse[];
  /** Values of the run: the dialog, the window sent, the clock. */
  details?: Record<string, unknown>;
  /** The place with the run's values, where the test knows it better than the check. */
  location?: string;
  severity?: FailureSeverity;
  /** The finding is about time as this runner measures it (a window, an age): details naming a clock are too. */
  timed?: boolean;
}

/** Annotation type of what a test judged: JudgedCounts as JSON. */
export const CHECKS_JUDGED = 'checks-judged';

/** How often a test judged each check, and how often it failed: counted for the coverage report. */
export type JudgedCounts = Record<string, { judged: number; failed: number }>;

/** The checks of a test's run and what the test judged: per test, set by the fixtures before it runs. */
const perTest = new WeakMap<TestInfo, { registry: CheckRegistry; judged: JudgedCounts }>();

/** Before a test: the checks its run makes. */
export const startChecks = (info: TestInfo, registry: CheckRegistry): void => void perTest.set(info, { registry, judged: {} });

/** After a test: what it judged. */
export const judgedIn = (info: TestInfo): JudgedCounts => perTest.get(info)?.judged ?? {};

/** The running test's checks, if a test is running (the run's setup sends requests outside any). */
function current() {
  try {
    return perTest.get(test.info());
  } catch {
    return undefined;
  }
}

/** Whether the run makes a check (all outside a test); a check made is counted. */
function judging(name: string, failed: number): boolean {
  const checks = current();
  if (checks && !checks.registry.runs(name)) return false;
  if (checks) {
    const seen = (checks.judged[name] ??= { judged: 0, failed: 0 });
    seen.judged++;
    seen.failed += failed > 0 ? 1 : 0;
  }
  return true;
}

/** Whether the running test's run makes a check. */
export const runsCheck = (name: string): boolean => current()?.registry.runs(name) ?? true;

/** The team's checks of a kind the running test's run makes (CHECKS_MODULE): the project's are called by name. */
export function teamChecksOf(evidence: AnyCheck['evidence']): AnyCheck[] {
  const checks = current();
  return checks ? checks.registry.all().filter((c) => c.evidence === evidence && !BUILT_IN.includes(c) && checks.registry.runs(c.name)) : [];
}

/** Values as JSON keeps them: a value JSON cannot hold (undefined) becomes null, so "missing" still shows. */
const asJson = (details: Record<string, unknown>): Record<string, Json> =>
  Object.fromEntries(Object.entries(details).map(([k, v]) => [k, JSON.parse(JSON.stringify(v ?? null)) as Json]));

/** Where a failure is raised: the answer judged, the other it is held against, and the answers that show it. */
function judgedAt(res: ApiResponse, shown: Shown): JudgedAt {
  return {
    operationId: res.operationId,
    status: res.status,
    ...(shown.against ? { comparedWith: shown.against.operationId } : {}),
    exchanges: [res, ...(shown.against ? [shown.against] : []), ...(shown.shownBy ?? [])].map((r) => r.exchange()),
    ...(shown.details ? { details: asJson(shown.details) } : {}),
    ...(shown.location ? { location: shown.location } : {}),
    ...(shown.severity ? { severity: shown.severity } : {}),
  };
}

/** Records failures on the running test, secrets removed, and returns the message that renders them. */
function record(failures: readonly Failure[]): string {
  const clean = failures.map((f) => redactKnownIn(f));
  for (const f of clean) test.info().annotations.push({ type: CONTRACT_FAILURE, description: JSON.stringify(f) });
  return redactKnown(clean.map(renderFailure).join('\n'));
}

/**
 * What toMatchContract finds at an answer: the response checks the run makes (each counted as judged), and with
 * --contract-from what the baseline's learned document adds to the spec; each failure with the exchange that shows it.
 * Recorded nowhere: a generated case is judged so, only its smallest failing case recorded; what it was held to is
 * journalled beside its exchange all the same, so the engine judges the run's HAR as the case was judged.
 */
export function contractFailures(res: ApiResponse, expectation: StatusExpectation): Failure[] {
  const made = responseChecks(expectation).filter((c) => runsCheck(c.name));
  // What the test held the answer to, beside its exchange: the engine judges the run's HAR as this test did.
  const { status, because, section, check, bodyNotShown } = expectation;
  if (status !== undefined || check !== undefined || bodyNotShown)
    res.noteExpectation?.(JSON.parse(JSON.stringify({ status, because, section, check, bodyNotShown })));
  const only = { ...expectation, only: made.map((c) => (c.name === expectation.check ? 'status_code_conformance' : c.name)) } as StatusExpectation;
  const failures = responseFailures(res.contracts.spec, res.operationId, res.answer, only);
  for (const check of made) judging(check.name, failures.filter((f) => f.check === check.name).length);
  const learned = res.contracts.learned;
  if (learned) {
    const known = new Set(failures.map((f) => `${f.check} ${f.pointer} ${f.expected}`));
    for (const f of responseFailures(learned.validators, res.operationId, res.answer, { ...only, severity: 'learned' })) {
      if (known.has(`${f.check} ${f.pointer} ${f.expected}`)) continue;
      const expected = `${f.expected}, as baseline ${learned.baseline} observed`;
      failures.push({ ...f, expected, context: { ...f.context, details: { baseline: learned.baseline } } });
    }
  }
  if (failures.length === 0) return failures;
  // The exchange (clipped, redacted) only for a failure: a passing check is the common case.
  const exchanges = [res.exchange()];
  return failures.map((f) => ({ ...f, context: { ...f.context, exchanges } }));
}

/**
 * The fields a test goes on by: the identifiers it reads the dialog by, the status and `updated` it judges §3 and an
 * action's effect by, the data it finds variables and files in, the paging it walks. A schema failure there leaves
 * the rest of the test meaningless (a request to a dialog it cannot name, a second failure of the same cause); one
 * anywhere else (a missing `source`, an `ip` of the wrong type) leaves it meaningful, so the test goes on gathering
 * the evidence its other checks and observations need, and fails at its end.
 */
const GOES_BY = new Set(['id', 'dialogId', 'dialogUUID', 'status', 'updated', 'data', 'meta']);

/** Whether a test may go on after this failure of its answer: a field nothing further reads (see GOES_BY). */
export function goesOnAfter(f: Pick<Failure, 'check' | 'pointer'>): boolean {
  if (f.check !== 'response_schema_conformance') return false;
  const field = f.pointer.split('/').find((segment) => segment !== '' && segment !== '*');
  return field !== undefined && !GOES_BY.has(field);
}

export const expect = base.extend({
  /**
   * The answer conforms: no server error, the status the expectation names (else one the document lists), the
   * documented content type and schema, an empty body where none is documented; and, with --contract-from, what the
   * baseline's learned document adds to the spec. Each response check the run leaves out is not made.
   */
  toMatchContract(res: ApiResponse, expectation: StatusExpectation = {}) {
    const failures = contractFailures(res, expectation);
    if (failures.length === 0) {
      return { pass: true, name: 'toMatchContract', message: () => `${res.operation.label} → ${res.status} conforms to the contract` };
    }
    if (failures.every(goesOnAfter)) {
      // Recorded, the test failed at its end; it goes on meanwhile.
      expect.soft(res).toPassCheck(failures);
      return { pass: true, name: 'toMatchContract', message: () => `${res.operation.label} → ${res.status}: failures recorded, the test goes on` };
    }
    const message = record(failures);
    return { pass: false, name: 'toMatchContract', message: () => message };
  },

  /** The failures a check found at this answer (see judge): none passes. */
  toPassCheck(res: ApiResponse, failures: readonly Failure[]) {
    if (failures.length === 0) return { pass: true, name: 'toPassCheck', message: () => `${res.operation.label} → ${res.status}: the check holds` };
    const message = record(failures);
    return { pass: false, name: 'toPassCheck', message: () => message };
  },
});

/**
 * A check on the evidence a test gathered, at the answer `res` (its operation and status name a failure); `soft`:
 * the test goes on after a failure. A check the run leaves out is not made. Raised only where it fails: a passing
 * expect is still a Playwright step, and every step captures a stack (per item and per request the largest cost of a
 * run, bench/contract.ts).
 */
export function judgeWith<I>(res: ApiResponse, check: Check<I>, input: I, shown: Shown = {}, soft = false): void {
  if (!runsCheck(check.name)) return;
  const findings = check.judge(input);
  const failing = findings.filter((f) => !f.holds);
  judging(check.name, failing.length);
  if (failing.length === 0) return;
  const failures = failuresOf(check, failing, judgedAt(res, shown));
  // A finding about time after this runner's clock stepped is the runner's, not the vendor's: not judged.
  const step = runnerClockStep();
  if ((shown.timed || shown.details?.clock !== undefined) && Math.abs(step) > RUNNER_CLOCK_STEP_MS) {
    for (const f of failures) checkNotJudged(res, check.name as CheckName, { pointer: f.pointer, why: runnerClockWhy(step), section: f.section });
    return;
  }
  (soft ? expect.soft(res) : expect(res)).toPassCheck(failures);
}

/**
 * `expect(res).toMatchContract(expectation)` (`soft`: `expect.soft`), a Playwright step only where it fails, as judge
 * is: the helpers that read many answers (a list's pages, a walk's steps, a dialog's create) hold each to the contract
 * this way, a step per answer being most of what they cost.
 */
export function matchContract(res: ApiResponse, expectation: StatusExpectation = {}, soft = false): void {
  const failures = contractFailures(res, expectation);
  if (failures.length === 0) return;
  // A schema failure at a field nothing further reads lets the test go on gathering evidence (goesOnAfter).
  (soft || failures.every(goesOnAfter) ? expect.soft(res) : expect(res)).toPassCheck(failures);
}

/**
 * What a check of the project finds wrong at the answer `res`, recorded nowhere: a generated case is judged so, and
 * only the smallest that fails is recorded (contract/api/generated-cases.ts). A check the run leaves out finds nothing.
 */
export function failuresOfCheck<N extends CheckName>(res: ApiResponse, name: N, input: InputOf<N>, shown: Shown = {}): Failure[] {
  const check = builtIn(name);
  if (!runsCheck(check.name)) return [];
  return failuresOf(
    check,
    check.judge(input).filter((f) => !f.holds),
    judgedAt(res, shown),
  );
}

/** A check of the project, by name, on the evidence a test gathered: a failure stops the test. */
export const judge = <N extends CheckName>(res: ApiResponse, name: N, input: InputOf<N>, shown?: Shown): void => judgeWith(res, builtIn(name), input, shown);

/** A check of the project, by name: the test goes on after a failure. */
export const judgeSoft = <N extends CheckName>(res: ApiResponse, name: N, input: InputOf<N>, shown?: Shown): void =>
  judgeWith(res, builtIn(name), input, shown, true);

/**
 * A helper that cannot go on with what it met, where the check that would name it is left out of the run
 * (--exclude-checks): the test stops, skipped with the reason, never a failure without a check.
 */
export function notJudged(reason: string): never {
  test.skip(true, `not judged: ${reason}`);
  throw new Error(reason);
}

/**
 * A check of the project the run could not judge, at the answer `res`, with why (lib/failure.ts UnjudgedCheck): what it
 * needs (a V1 twin, a listed dialog) could not be found. Recorded on the running test as data, as a failure is, but
 * neither failing it nor ever becoming a ticket; the test goes on with its other checks. A check the run leaves out is
 * not run, so not "not judged" either.
 */
export function checkNotJudged(res: ApiResponse, name: CheckName, at: { pointer: string; why: string; section?: string }): void {
  if (!runsCheck(name)) return;
  const entry: UnjudgedCheck = {
    check: name,
    operationId: res.operationId,
    pointer: at.pointer,
    section: at.section ?? builtIn(name).sections[0]!,
    why: redactKnown(at.why),
  };
  test.info().annotations.push({ type: NOT_JUDGED, description: JSON.stringify(entry) });
}
