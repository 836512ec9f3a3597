import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dealRuns, laneShape } from './suite-run.ts';

test('a lane per core, its workers making up the tests side by side', () => {
  assert.deepEqual(laneShape(6, 116, 2, 48), { lanes: 2, workers: 3 });
  assert.deepEqual(laneShape(24, 116, 8, 48), { lanes: 8, workers: 3 });
  // Fewer than the cores: a lane each, one worker.
  assert.deepEqual(laneShape(2, 116, 8, 48), { lanes: 2, workers: 1 });
  // No more lanes than runs: the rest as workers.
  assert.deepEqual(laneShape(6, 1, 2, 48), { lanes: 1, workers: 6 });
});

test('the memory bounds the processes: a runner and its workers each', () => {
  // 4 GB: 8 processes of half a gigabyte, two lanes of a runner and three workers.
  assert.deepEqual(laneShape(12, 116, 4, 8), { lanes: 4, workers: 1 });
  assert.deepEqual(laneShape(6, 116, 2, 8), { lanes: 2, workers: 3 });
  assert.deepEqual(laneShape(6, 116, 2, 5), { lanes: 2, workers: 1 });
  assert.deepEqual(laneShape(6, 116, 2, 2), { lanes: 1, workers: 1 });
});

test('any shape runs every lane with a worker, within the cores, the runs and the memory', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 1, max: 64 }),
      fc.integer({ min: 2, max: 256 }),
      (concurrency, runs, cores, processes) => {
        const { lanes, workers } = laneShape(concurrency, runs, cores, processes);
        assert.ok(lanes >= 1 && workers >= 1);
        assert.ok(lanes <= Math.min(cores, runs, concurrency));
        assert.ok(lanes * (1 + workers) <= processes || workers === 1, `${lanes} lanes of ${workers} in ${processes}`);
        // As many tests side by side as asked, where the memory lets them.
        if (lanes * (1 + Math.ceil(concurrency / lanes)) <= processes) assert.ok(lanes * workers >= concurrency);
      },
    ),
  );
});

test('runs are dealt round the table, or by what they took before, round the table from the costliest, there and back', () => {
  assert.deepEqual(dealRuns(['a', 'b', 'c', 'd', 'e'], 2), [0, 1, 0, 1, 0]);
  assert.deepEqual(dealRuns(['a', 'b', 'c', 'd', 'e'], 2, new Map()), [0, 1, 0, 1, 0]);
  // Round the table in their order, the two long runs would share a lane.
  const costs = new Map([
    ['a', 20],
    ['b', 1],
    ['c', 20],
    ['d', 1],
    ['e', 2],
  ]);
  // a, c, e, b, d: lanes 0, 1, then back 1, 0, then 0.
  assert.deepEqual(dealRuns(['a', 'b', 'c', 'd', 'e'], 2, costs), [0, 0, 1, 0, 1]);
  // A run not seen before counts as the middle one of those dealt that were (20 s here).
  assert.deepEqual(dealRuns(['a', 'new', 'c', 'b', 'd'], 2, costs), [0, 1, 1, 0, 0]);
});

test('dealt by cost, the lanes have as many runs, give or take one, and as much of them, give or take the costliest', () => {
  fc.assert(
    fc.property(fc.array(fc.float({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (seconds, lanes) => {
      const names = seconds.map((_, i) => `run-${i}`);
      const laneOf = dealRuns(names, lanes, new Map(names.map((n, i) => [n, seconds[i]!])));
      assert.equal(laneOf.length, names.length);
      const count = Array.from({ length: lanes }, (_, lane) => laneOf.filter((l) => l === lane).length);
      assert.ok(Math.max(...count) - Math.min(...count) <= 1);
      const load = Array.from({ length: lanes }, (_, lane) => seconds.reduce((sum, s, i) => sum + (laneOf[i] === lane ? s : 0), 0));
      assert.ok(Math.max(...load) - Math.min(...load) <= Math.max(...seconds) + 1e-9);
    }),
  );
});
