import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BudgetExhausted, MAX_RETRIES, ProbeBudget } from './budget.ts';

const reportsDir = () => mkdtempSync(join(tmpdir(), 'probe-budget-'));

test('a probe that does not fit in what is left is refused before it sends anything', () => {
  const budget = ProbeBudget.forRun(reportsDir(), 10);
  const { beforeRequest } = budget.hooks();
  budget.reserve(6, 'the first probe');
  for (let i = 0; i < 6; i++) beforeRequest();
  assert.throws(() => budget.reserve(5, 'rate limits'), (err: Error) => err instanceof BudgetExhausted && /could not observe rate limits: it needs up to 5 requests and only 4 of PROBE_BUDGET=10 are left/.test(err.message));
  budget.reserve(4, 'the last probe');
});

test('the count survives a worker restart within the run', () => {
  const dir = reportsDir();
  ProbeBudget.forRun(dir, 10).hooks().beforeRequest();
  assert.equal(ProbeBudget.forRun(dir, 10).spent, 1);
});

test('429 and 503 are waited out as Retry-After says, a bounded number of times; other statuses are kept', () => {
  const budget = ProbeBudget.forRun(reportsDir(), 10);
  const { retryDelay } = budget.hooks();
  assert.equal(retryDelay({ status: 429, headers: { 'retry-after': '2' } }, 1), 2);
  assert.equal(retryDelay({ status: 503, headers: {} }, 2), 1);
  assert.equal(retryDelay({ status: 429, headers: { 'retry-after': '600' } }, 1), 30, 'waits are capped');
  assert.equal(retryDelay({ status: 429, headers: {} }, MAX_RETRIES + 1), null, 'gives up after the last retry');
  assert.equal(retryDelay({ status: 400, headers: {} }, 1), null);
  assert.equal(budget.retries, 3);
  assert.deepEqual(budget.throttles.map((t) => [t.status, t.retryAfter]), [[429, '2'], [503, undefined], [429, '600'], [429, undefined]]);
});
