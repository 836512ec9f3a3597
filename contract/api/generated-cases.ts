// Generated cases run as a fast-check property against the target: each case sent, judged by the registry's checks
// (recorded nowhere while fast-check looks for the smallest failing input), and, on a failure, shrunk for at most
// SHRINK_BUDGET cases more before only the smallest case that fails is recorded, with the seed, the focus and the path
// that replay it. The same seed and the same target answers give the same cases, the same shrinking and the same
// failure. Each case takes its requests from the run's probe budget as it goes: a budget that runs out ends the cases
// (contract/core/probe-budget.ts BudgetExhausted), and what they found so far stands.
import fc, { type Arbitrary } from 'fast-check';
import { expect } from '../judging/matchers.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { Failure } from '../../lib/failure.ts';
import type { Json } from '../../lib/json.ts';
import { BudgetExhausted } from '../core/probe-budget.ts';

/**
 * Cases tried after a failure to find a smaller one that fails, at most: each costs the requests of a case, taken
 * from the probe budget one at a time. Enough to bring an integer down 50 halvings (a PageCount past a limit to the
 * limit's next) or a text to its one character that fails.
 */
export const SHRINK_BUDGET = 50;

/** What a case's answers broke, and the answer a failure is raised at. */
export interface CaseVerdict {
  response: ApiResponse;
  failures: Failure[];
}

/**
 * What one focus's cases came to: how many ran, the smallest case that failed, if one did, and why the cases ended
 * early, if they did (the probe budget ran out).
 */
export interface GeneratedOutcome<C> {
  seed: number;
  ran: number;
  failed?: { input: C; path: string; shrinks: number; verdict: CaseVerdict };
  stopped?: string;
}

/**
 * Runs `cases` cases of `arbitrary` through `judge`: the first failure is shrunk for up to SHRINK_BUDGET more cases,
 * unless it is not `worthShrinking` (then the cases end at it).
 * A budget that runs out (BudgetExhausted from `judge`, before it sends) ends the cases, named in `stopped`; any
 * other error that is not a verdict (the run stopped, the throttle gave up) ends them and is thrown after.
 */
export async function runCases<C>(
  arbitrary: Arbitrary<C>,
  seed: number,
  cases: number,
  judge: (input: C) => Promise<CaseVerdict>,
  /** Whether a failure is worth its shrinking: not one already recorded by another focus of the test. */
  worthShrinking: (verdict: CaseVerdict) => boolean = () => true,
): Promise<GeneratedOutcome<C>> {
  let ran = 0;
  let shrinks = 0;
  let budget = SHRINK_BUDGET;
  let error: unknown;
  let stopped: string | undefined;
  let last: { input: C; verdict: CaseVerdict } | undefined;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // The shrinking done, the budget spent or the run gone: every other case holds, so the smallest failure found so
    // far is the one.
    if (error !== undefined || stopped !== undefined || (last && shrinks >= budget)) return true;
    try {
      const verdict = await judge(input);
      if (last) shrinks++;
      else ran++;
      if (verdict.failures.length === 0) return true;
      if (!last && !worthShrinking(verdict)) budget = 0;
      last = { input, verdict };
      return false;
    } catch (err) {
      if (err instanceof BudgetExhausted) stopped = err.message;
      else error = err;
      return true;
    }
  });
  const details = await fc.check(property, { seed, numRuns: cases });
  if (error !== undefined) throw error;
  return {
    seed,
    ran,
    ...(last && details.failed && details.counterexamplePath ? { failed: { ...last, path: details.counterexamplePath, shrinks } } : {}),
    ...(stopped === undefined ? {} : { stopped }),
  };
}

/**
 * The smallest failing case's failures, recorded on the test at its answer (the test goes on): each names the input,
 * the run's seed, the focus, the limits the inputs were sized by and fast-check's path to it, which the ticket and
 * failures.json carry.
 */
export function recordSmallest<C>(outcome: GeneratedOutcome<C>, replay: { seed: number; focus: string; accepted: Json }, input: (c: C) => Json): void {
  if (!outcome.failed) return;
  const { verdict, path, shrinks } = outcome.failed;
  // The focus and the limits the run learned with the seed: inputs are sized by those limits, so they replay it too.
  const generated = { input: input(outcome.failed.input), ...replay, path, shrinks };
  const failures = verdict.failures.map((f) => ({ ...f, context: { ...f.context, details: { ...f.context.details, ...generated } } }));
  expect.soft(verdict.response).toPassCheck(failures);
}
