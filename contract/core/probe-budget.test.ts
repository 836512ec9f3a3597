import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BudgetExhausted, ProbeBudget } from './probe-budget.ts';

const reportsDir = () => mkdtempSync(join(tmpdir(), 'probe-budget-'));

test('a probe that does not fit in what is left is refused before it sends anything', () => {
  const budget = ProbeBudget.forRun(reportsDir(), 10);
  const { beforeRequest } = budget.hooks();
  budget.reserve(6, 'the first probe');
  for (let i = 0; i < 6; i++) beforeRequest(1);
  assert.throws(
    () => budget.reserve(5, 'rate limits'),
    (err: Error) =>
      err instanceof BudgetExhausted && /could not observe rate limits: it needs up to 5 requests and only 4 of PROBE_BUDGET=10 are left/.test(err.message),
  );
  budget.reserve(4, 'the last probe');
  // Declared and not sent yet (a dialog's stop at the probe's end) is as good as spent.
  assert.throws(() => budget.reserve(2, 'one more case', 3), /needs up to 2 requests and only 1 of PROBE_BUDGET=10 are left/);
});

test("the run's count holds across its workers: a restarted one, and two running its probes side by side", () => {
  const dir = reportsDir();
  const first = ProbeBudget.forRun(dir, 10);
  first.hooks().beforeRequest(1);
  first.save();
  // A worker started after the first one's line counts it.
  assert.throws(() => ProbeBudget.forRun(dir, 10).reserve(10, 'all of it'), /only 9 of PROBE_BUDGET=10 are left/);
  // Two at once: each sees the other's saved lines and its own unsaved sends, and keeps its own share apart.
  const [a, b] = [ProbeBudget.forRun(dir, 10), ProbeBudget.forRun(dir, 10)];
  [1, 1].forEach(a.hooks().beforeRequest);
  a.save();
  [1, 1, 1].forEach(b.hooks().beforeRequest);
  assert.throws(() => b.reserve(5, 'more'), /only 4 of PROBE_BUDGET=10 are left/);
  b.save();
  a.hooks().beforeRequest(2);
  assert.throws(() => a.reserve(4, 'more'), /only 3 of PROBE_BUDGET=10 are left/);
  a.save();
  assert.deepEqual([a.spent, a.retries, b.spent], [3, 1, 3]);
  assert.throws(() => ProbeBudget.forRun(dir, 10).reserve(4, 'more'), /only 3 of PROBE_BUDGET=10 are left/);
});

test('a resend after a throttled answer counts as a request and as a retry', () => {
  const budget = ProbeBudget.forRun(reportsDir(), 10);
  const { beforeRequest } = budget.hooks();
  [1, 2, 3, 1].forEach(beforeRequest);
  assert.deepEqual([budget.spent, budget.retries], [4, 2]);
});
