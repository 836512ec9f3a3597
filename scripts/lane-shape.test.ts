import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { laneShape } from './suite-run.ts';

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
