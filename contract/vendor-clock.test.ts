import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockFrom, clockText, inVendorClock, offsetBounds, offsetObserved, UNKNOWN_CLOCK } from './vendor-clock.ts';

const T = Date.parse('2026-11-24T10:00:00Z');

test('each Date header bounds the offset between the send and the arrival; several narrow it', () => {
  // Sent at T, arrived 200 ms later, the vendor stamped 10:01:30 (whole seconds): 90 s ahead, give or take.
  assert.deepEqual(offsetBounds('Tue, 24 Nov 2026 10:01:30 GMT', T, T + 200), [89_800, 90_999]);
  const clock = clockFrom([
    [89_800, 90_999],
    [90_300, 91_400],
  ]);
  assert.deepEqual(clock, { offsetMs: 90_650, uncertaintyMs: 350, source: 'Date header' });
  assert.equal(offsetBounds('not a date', T, T), undefined);
  assert.deepEqual(clockFrom([]), UNKNOWN_CLOCK);
  // Bounds that disagree (a clock that jumped): their hull, wider, never a false precision.
  assert.deepEqual(
    clockFrom([
      [0, 1000],
      [5000, 6000],
    ]),
    { offsetMs: 3000, uncertaintyMs: 3000, source: 'Date header' },
  );
});

test('windows are sent in the vendor clock, widened by what is not known of it', () => {
  const behind = { offsetMs: -90_000, uncertaintyMs: 500, source: 'Date header' } as const;
  assert.equal(inVendorClock(behind, T, 'early'), T - 90_000 - 1500);
  assert.equal(inVendorClock(behind, T, 'late'), T - 90_000 + 1500);
  assert.equal(inVendorClock(UNKNOWN_CLOCK, T, 'early'), T - 61_000, 'unknown: a minute either way, as before');
});

test('the observation stays put from run to run; the failure text quotes the clock', () => {
  assert.equal(offsetObserved({ offsetMs: 1200, uncertaintyMs: 500, source: 'Date header' }), 'within 5 s of the runner');
  assert.equal(offsetObserved({ offsetMs: -89_400, uncertaintyMs: 500, source: 'Date header' }), '90 s behind the runner');
  assert.equal(offsetObserved(UNKNOWN_CLOCK), 'unknown (no Date header)');
  assert.equal(clockText({ offsetMs: 90_250, uncertaintyMs: 500, source: 'Date header' }), "vendor clock 90.3 s ahead of the runner's (±0.5 s, Date header)");
});
