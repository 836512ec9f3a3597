// Generated cases run as a fast-check property against the target: each case sent, judged by the registry's checks
// (recorded nowhere while fast-check looks for the smallest failing input), and, on a failure, shrunk within a budget
// of requests before only the smallest case that fails is recorded, with the seed and the path that replay it. The
// same seed and the same target answers give the same cases, the same shrinking and the same failure.
import fc, { type Arbitrary } from 'fast-check';
import { expect } from '../judging/matchers.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { Failure } from '../../lib/failure.ts';
import type { Json } from '../../lib/json.ts';
import { seedFrom } from '../../fixtures/builders.ts';

/** Cases tried after a failure to find a smaller one that fails, at most: each costs the requests of a case. */
export const SHRINK_BUDGET = 20;

/** What a case's answers broke, and the answer a failure is raised at. */
export interface CaseVerdict {
  response: ApiResponse;
  failures: Failure[];
}

/** What one operation's cases came to: how many ran, and the smallest case that failed, if one did. */
export interface GeneratedOutcome<C> {
  seed: number;
  ran: number;
  failed?: { input: C; path: string; shrinks: number; verdict: CaseVerdict };
}

/** The seed of one operation's cases: the run's and the operation's, so a test run alone (-g) gets the same cases. */
export const operationSeed = (runSeed: number, operationId: string): number => seedFrom(`${runSeed}:${operationId}`);

/**
 * Runs `cases` cases of `arbitrary` through `judge`: the first failure is shrunk for up to SHRINK_BUDGET more cases.
 * An error that is not a verdict (the run stopped, the throttle gave up) ends the cases and is thrown after.
 */
export async function runCases<C>(
  arbitrary: Arbitrary<C>,
  seed: number,
  cases: number,
  judge: (input: C) => Promise<CaseVerdict>,
): Promise<GeneratedOutcome<C>> {
  let ran = 0;
  let shrinks = 0;
  let error: unknown;
  let last: { input: C; verdict: CaseVerdict } | undefined;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // The budget spent, or the run gone: every other case holds, so the smallest failure found so far is the one.
    if (error !== undefined || (last && shrinks >= SHRINK_BUDGET)) return true;
    if (last) shrinks++;
    else ran++;
    try {
      const verdict = await judge(input);
      if (verdict.failures.length === 0) return true;
      last = { input, verdict };
      return false;
    } catch (err) {
      error = err;
      return true;
    }
  });
  const details = await fc.check(property, { seed, numRuns: cases });
  if (error !== undefined) throw error;
  return {
    seed,
    ran,
    ...(last && details.failed && details.counterexamplePath ? { failed: { ...last, path: details.counterexamplePath, shrinks } } : {}),
  };
}

/**
 * The smallest failing case's failures, recorded on the test at its answer (the test goes on): each names the input,
 * the run's seed and fast-check's path to it, which the ticket and failures.json carry.
 */
export function recordSmallest<C>(outcome: GeneratedOutcome<C>, runSeed: number, input: (c: C) => Json): void {
  if (!outcome.failed) return;
  const { verdict, path, shrinks } = outcome.failed;
  const generated = { input: input(outcome.failed.input), seed: runSeed, path, shrinks };
  const failures = verdict.failures.map((f) => ({ ...f, context: { ...f.context, details: { ...f.context.details, ...generated } } }));
  expect.soft(verdict.response).toPassCheck(failures);
}
