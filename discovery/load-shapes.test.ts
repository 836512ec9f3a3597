import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geometricRates, ladder, sequentialSearch, steady, vusFor } from './load-shapes.ts';
import { peakLoad } from '../load/safety.ts';
import { MAX_RUNNERS } from './execution-segment.ts';

test('geometric rates are distinct integers from `from` up to `to`', () => {
  assert.deepEqual(geometricRates(10, 80, 1.25), [10, 13, 16, 20, 24, 31, 38, 48, 60, 75]);
  assert.deepEqual(geometricRates(1, 3, 1.2), [1, 2, 3]);
  assert.throws(() => geometricRates(0, 10, 2), RangeError);
});

test('a ladder runs its rungs back to back, named by operation and rate, without graceful stop', () => {
  const plan = ladder('getV2Conversations', 'listV2', [5, 10, 20], 6, 4);
  assert.deepEqual(Object.keys(plan.scenarios), ['getV2Conversations_r05', 'getV2Conversations_r10', 'getV2Conversations_r20']);
  assert.deepEqual(
    plan.steps.map((s) => [s.targetRate, s.startSeconds]),
    [
      [5, 4],
      [10, 10],
      [20, 16],
    ],
  );
  assert.equal(plan.endSeconds, 22);
  assert.equal(plan.scenarios.getV2Conversations_r20?.gracefulStop, '0s');
  assert.deepEqual(plan.scenarios.getV2Conversations_r10?.tags, { operation: 'getV2Conversations' });
  assert.deepEqual(peakLoad({ scenarios: plan.scenarios }), { rate: 20, vus: vusFor(20).maxVUs, durationSeconds: 22 });
});

test("VUs follow Little's law for a 250 ms latency budget, with a VU for every runner of a split test", () => {
  assert.deepEqual(vusFor(100), { preAllocatedVUs: 8, maxVUs: 33 });
  assert.deepEqual(vusFor(200), { preAllocatedVUs: 13, maxVUs: 58 });
  assert.deepEqual(vusFor(1), { preAllocatedVUs: MAX_RUNNERS, maxVUs: 1 + MAX_RUNNERS });
  assert.equal(steady('getV2Conversations', 'listV2', 10, 30).duration, '30s');
  assert.deepEqual([sequentialSearch('search').vus, sequentialSearch('search').iterations], [MAX_RUNNERS, 1]);
});
