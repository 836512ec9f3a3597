import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lagObserved, settle } from './settle.ts';

/** A fake clock the sleeps move: reads take no time. */
function fakeTime() {
  let now = 0;
  return { clock: () => now, sleep: async (ms: number) => void (now += ms) };
}

test('a write already listed costs one read; one that shows late is read again with backoff until it does', async () => {
  const t = fakeTime();
  const at = await settle(
    async () => 'listed',
    (v) => v === 'listed',
    10,
    t.clock,
    t.sleep,
  );
  assert.deepEqual(at, { value: 'listed', settled: true, waitedMs: 0, reads: 1 });
  const late = fakeTime();
  const shown = await settle(async () => late.clock() >= 1500, Boolean, 10, late.clock, late.sleep);
  assert.deepEqual(shown, { value: true, settled: true, waitedMs: 1750, reads: 4 }, '0.25 + 0.5 + 1 s of waits');
});

test('never shown: drift only once LIST_SETTLE_S has passed, with the reads it took', async () => {
  const t = fakeTime();
  const never = await settle(async () => false, Boolean, 5, t.clock, t.sleep);
  assert.equal(never.settled, false);
  assert.ok(never.waitedMs <= 5000 && never.waitedMs >= 3000, `waited ${never.waitedMs}`);
});

test("the run's lag in steps that stay put from run to run", () => {
  assert.equal(lagObserved([{ what: 'a', waitedMs: 4, settled: true, reads: 1 }]), 'none');
  assert.equal(
    lagObserved([
      { what: 'a', waitedMs: 4, settled: true, reads: 1 },
      { what: 'b', waitedMs: 1700, settled: true, reads: 4 },
    ]),
    'under 5 s',
  );
  assert.equal(lagObserved([{ what: 'a', waitedMs: 10_000, settled: false, reads: 9 }]), 'not settled within LIST_SETTLE_S');
});
