import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextSettlePause, settleDelayMs, settleReadsMax } from './settle-backoff.ts';

test('reads back off from 0.25 s, doubling, at most 2 s apart', () => {
  assert.deepEqual([1, 2, 3, 4, 5].map(settleDelayMs), [250, 500, 1000, 2000, 2000]);
});

test('no pause ends past the settle deadline: LIST_SETTLE_S bounds the wait', () => {
  assert.equal(nextSettlePause(1, 0, 1000), 250);
  assert.equal(nextSettlePause(3, 750, 1000), undefined, 'a 1 s pause after 0.75 s would end at 1.75 s');
  assert.equal(nextSettlePause(3, 750, 1750), 1000);
  assert.equal(nextSettlePause(1, 0, 0), undefined, 'LIST_SETTLE_S=0: one read');
});

test('a settled read makes at most as many reads as fit its pauses in LIST_SETTLE_S', () => {
  // 0.25 + 0.5 + 1 + 2 + 2 + 2 = 7.75 s: a seventh pause would end at 9.75 s, an eighth at 11.75 s.
  assert.deepEqual([0, 1000, 10_000].map(settleReadsMax), [1, 3, 8]);
});
