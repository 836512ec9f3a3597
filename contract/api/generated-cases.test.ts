import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runCases, SHRINK_BUDGET, type CaseVerdict } from './generated-cases.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { Failure } from '../../lib/failure.ts';
import { BudgetExhausted } from '../core/probe-budget.ts';

const failure = { check: 'not_a_server_error' } as Failure;
const verdict = (fails: boolean): CaseVerdict => ({ response: {} as ApiResponse, failures: fails ? [failure] : [] });

test('a failure is shrunk, within its budget, to next to the smallest input that fails; and the same seed finds the same one by the same path', async () => {
  const judged: number[] = [];
  const judge = async (n: number) => {
    judged.push(n);
    return verdict(n >= 1000);
  };
  const first = await runCases(fc.integer({ min: 0, max: 1_000_000 }), 42, 20, judge);
  const found = first.failed?.input ?? -1;
  assert.ok(found >= 1000 && found < 1010, `shrunk to ${found}`);
  const again = await runCases(fc.integer({ min: 0, max: 1_000_000 }), 42, 20, async (n) => verdict(n >= 1000));
  assert.deepEqual([again.failed?.input, again.failed?.path], [first.failed?.input, first.failed?.path]);
  assert.ok(judged.length <= 20 + SHRINK_BUDGET, `${judged.length} cases sent`);
});

test('shrinking stops at its budget, keeping the smallest failure found so far', async () => {
  let sent = 0;
  const outcome = await runCases(fc.array(fc.nat(), { minLength: 50, maxLength: 60 }), 7, 5, async (xs) => {
    sent++;
    return verdict(xs.length >= 3);
  });
  assert.ok(outcome.failed);
  assert.ok(outcome.failed.shrinks <= SHRINK_BUDGET);
  assert.ok(sent <= outcome.ran + SHRINK_BUDGET);
});

test('a passing run records nothing; an error that is no verdict ends the cases and is thrown', async () => {
  const passing = await runCases(fc.nat(), 1, 20, async () => verdict(false));
  assert.deepEqual([passing.ran, passing.failed], [20, undefined]);
  let sent = 0;
  await assert.rejects(
    runCases(fc.nat(), 1, 20, async () => {
      sent++;
      throw new Error('the run stopped');
    }),
    /the run stopped/,
  );
  assert.equal(sent, 1);
});

test('a budget that runs out ends the cases, named, keeping the smallest failure found so far', async () => {
  let sent = 0;
  const judge = async (xs: number[]) => {
    if (sent === 5) throw new BudgetExhausted('only 0 of PROBE_BUDGET=5 are left; raise PROBE_BUDGET');
    sent++;
    return verdict(xs.length >= 3);
  };
  // Every case fails: the first does, and shrinking it takes more than the 4 cases the budget has left.
  const outcome = await runCases(fc.array(fc.nat(), { minLength: 50, maxLength: 60 }), 7, 20, judge);
  assert.match(outcome.stopped ?? '', /raise PROBE_BUDGET/);
  assert.ok(outcome.failed && outcome.failed.shrinks === 4, 'the failure found before the budget ran out stands');
  assert.equal(sent, 5);
  const none = await runCases(fc.nat(), 1, 20, async () => {
    throw new BudgetExhausted('no budget');
  });
  assert.deepEqual([none.ran, none.failed, none.stopped], [0, undefined, 'no budget']);
});

test('the cases sent are those fast-check samples for the same seed: a unit test sees what a run sends', async () => {
  const sent: number[] = [];
  await runCases(fc.integer(), 9, 15, async (n) => {
    sent.push(n);
    return verdict(false);
  });
  assert.deepEqual(sent, fc.sample(fc.integer(), { seed: 9, numRuns: 15 }));
});
