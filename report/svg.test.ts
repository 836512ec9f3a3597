import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linearScale, logScale, num } from './svg.ts';

test('a linear axis starts at 0 and ends on a round tick at or above the largest value', () => {
  const y = linearScale(106, 232, 12, 6);
  assert.deepEqual(y.ticks, [0, 20, 40, 60, 80, 100, 120]);
  assert.deepEqual([y(0), y(120), y(60)], [232, 12, 122]);
  assert.deepEqual(linearScale(1, 0, 100).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(linearScale(0, 0, 100).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1], 'nothing to draw still has an axis');
});

test('a log axis spans whole powers of ten, with 2 and 5 between when it spans few', () => {
  const y = logScale(300, 5000, 140, 12);
  assert.deepEqual(y.ticks, [100, 200, 500, 1000, 2000, 5000, 10000]);
  assert.deepEqual([y(100), y(10000)], [140, 12]);
  assert.deepEqual(logScale(1, 65536, 0, 100).ticks, [1, 10, 100, 1000, 10000, 100000]);
  assert.equal(num(40.126), '40.13');
});
