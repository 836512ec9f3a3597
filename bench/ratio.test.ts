import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ratioParts } from './ratio.ts';

test("a run's wall time splits into its start, its end, the stretches with no request out and those with one out", () => {
  // 10 requests at 5/s: a floor of 2 s. The command starts 1 s before its first request and ends 0.6 s after its last
  // answer; two requests overlap at first, then none is out for 1 s, and 0.1 s between each of the last 8.
  const sent = [{ startMs: 1000, ms: 300 }, { startMs: 1100, ms: 300 }, ...Array.from({ length: 8 }, (_, k) => ({ startMs: 2400 + k * 200, ms: 100 }))];
  const parts = ratioParts(sent, 0, 4500, 5);
  assert.deepEqual(parts, { floorS: 2, startS: 1, endS: 0.6, idleS: 1.7, busyS: 1.2, busyRatio: 0.6 });
  // The parts add up to the wall time.
  assert.ok(Math.abs(parts.startS + parts.idleS + parts.busyS + parts.endS - 4.5) < 1e-9);
});

test('a run that sent nothing spent it all before its first request', () => {
  assert.deepEqual(ratioParts([], 0, 3000, 5), { floorS: 0, startS: 3, endS: 0, idleS: 0, busyS: 0, busyRatio: 0 });
});
