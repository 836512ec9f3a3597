import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applicationObserved,
  clockFrom,
  clockText,
  combineReadings,
  inVendorClock,
  offsetBounds,
  offsetObserved,
  readingAgrees,
  readingOf,
  RUNNER_CLOCK_STEP_MS,
  runnerClockStep,
  runnerClockWhy,
  UNKNOWN_CLOCK,
  UNVERIFIED_MARGIN_MS,
  zonedInstant,
  type ClockReading,
} from './vendor-clock.ts';

const T = Date.parse('2026-11-24T10:00:00Z');

test('each Date header bounds the offset between the send and the arrival; several narrow it, a hint never verified', () => {
  // Sent at T, arrived 200 ms later, the vendor stamped 10:01:30 (whole seconds, truncated or rounded): 90 s ahead, give or take.
  assert.deepEqual(offsetBounds('Tue, 24 Nov 2026 10:01:30 GMT', T, T + 200), [89_300, 90_999]);
  const clock = clockFrom([
    [89_300, 90_999],
    [90_300, 91_400],
  ]);
  assert.deepEqual(clock, { offsetMs: 90_650, uncertaintyMs: 350, source: 'Date header', verified: false });
  assert.equal(offsetBounds('not a date', T, T), undefined);
  assert.deepEqual(clockFrom([]), UNKNOWN_CLOCK);
  // Bounds that disagree (a clock that jumped): their hull, wider, never a false precision.
  assert.deepEqual(
    clockFrom([
      [0, 1000],
      [5000, 6000],
    ]),
    { offsetMs: 3000, uncertaintyMs: 3000, source: 'Date header', verified: false },
  );
});

test('a stamp may be truncated or rounded to its second, the Date header too; updated is an instant only with its zone', () => {
  // updated 09:58:30+03:00 is 06:58:30Z; the message went between T and T + 100 ms of the runner's clock.
  const at = zonedInstant('2026-11-24T09:58:30+03:00')!;
  assert.equal(at, Date.parse('2026-11-24T06:58:30Z'));
  assert.deepEqual(readingOf('updated after a message', at, T, T + 100), { source: 'updated after a message', low: at - 500 - T - 100, high: at + 999 - T });
  assert.equal(zonedInstant('2026-11-24T09:58:30'), undefined, 'no zone: a local time of a zone not shown');
  assert.equal(zonedInstant(''), undefined);
  assert.equal(zonedInstant(42), undefined);
});

const reading = (source: ClockReading['source'], offset: number, half = 600): ClockReading => ({ source, low: offset - half, high: offset + half });
const gateway = reading('Date header', 200, 400);

test("a gateway's Date header against the application's stamps: the stamps win, verified, the header named as disagreeing", () => {
  const updated = reading('updated after a message', -90_000, 800);
  const alone = combineReadings([gateway, updated]);
  assert.equal(alone.clock.verified, true, 'one application stamp outweighs the Date header');
  assert.equal(alone.clock.offsetMs, -90_000);
  assert.deepEqual(alone.disagreeing, [gateway]);
  const both = combineReadings([gateway, updated, reading('Created filter', -89_700, 1000)]);
  assert.deepEqual(
    { offset: both.clock.offsetMs, uncertainty: both.clock.uncertaintyMs, source: both.clock.source, verified: both.clock.verified },
    { offset: -89_950, uncertainty: 750, source: 'updated after a message, Created filter', verified: true },
  );
  assert.equal(applicationObserved(both), '90 s behind the runner, by updated after a message, Created filter');
  assert.equal(clockText(both.clock), "vendor clock 90.0 s behind the runner's (±0.8 s, updated after a message, Created filter)");
});

test('sources that agree narrow the clock; the Date header sides with the stamp that agrees with it', () => {
  const agreeing = combineReadings([gateway, reading('updated after a message', 0, 800)]);
  assert.deepEqual(agreeing.clock, { offsetMs: 200, uncertaintyMs: 400, source: 'Date header, updated after a message', verified: true });
  assert.equal(applicationObserved(agreeing), 'within 5 s of the runner, by updated after a message');
  // A filter drifted an hour off the application's updated: the filter is the odd one out, so its test judges it.
  const filterOff = combineReadings([gateway, reading('updated after a message', 0, 800), reading('Created filter', 3_600_000, 1000)]);
  assert.equal(filterOff.clock.source, 'Date header, updated after a message');
  assert.deepEqual(
    filterOff.disagreeing.map((r) => r.source),
    ['Created filter'],
  );
});

test('stamps that contradict one another with nothing to decide: not verified, their hull; a Date header alone: not verified', () => {
  const split = combineReadings([reading('updated after a message', 0, 500), reading('Created filter', 60_000, 500)]);
  assert.deepEqual(split.clock, { offsetMs: 30_000, uncertaintyMs: 30_500, source: 'updated after a message, Created filter disagreeing', verified: false });
  assert.equal(applicationObserved(split), "not verified: the application's stamps disagree");
  const hint = combineReadings([gateway]);
  assert.equal(hint.clock.verified, false);
  assert.equal(applicationObserved(hint), 'not verified: no application stamp read');
  assert.equal(combineReadings([]).clock, UNKNOWN_CLOCK);
});

test('windows are sent in the vendor clock, widened by what is not known of it; an unverified clock by a quarter of an hour', () => {
  const behind = { offsetMs: -90_000, uncertaintyMs: 500, source: 'updated after a message', verified: true };
  assert.equal(inVendorClock(behind, T, 'early'), T - 90_000 - 1500);
  assert.equal(inVendorClock(behind, T, 'late'), T - 90_000 + 1500);
  const hint = { offsetMs: 200, uncertaintyMs: 400, source: 'Date header', verified: false };
  assert.equal(inVendorClock(hint, T, 'early'), T + 200 - UNVERIFIED_MARGIN_MS - 1000);
  assert.equal(inVendorClock(UNKNOWN_CLOCK, T, 'late'), T + UNVERIFIED_MARGIN_MS + 1000);
  assert.equal(clockText(hint), "vendor clock 0.2 s ahead of the runner's (±0.4 s, Date header, not verified: windows reach 15 min either way)");
  assert.equal(clockText(UNKNOWN_CLOCK), 'vendor clock unknown (no Date header, no application stamp): windows reach 15 min either way');
});

test("a stamp read during the run agrees with the run's clock within a tolerance", () => {
  const clock = { offsetMs: -90_000, uncertaintyMs: 500, source: 'updated after a message', verified: true };
  const sent = readingOf('send_message created_at', T - 90_000, T, T + 50);
  assert.equal(readingAgrees(sent, clock, 0), true);
  assert.equal(readingAgrees(readingOf('send_message created_at', T, T, T + 50), clock, 0), false, '90 s off the application');
  assert.equal(readingAgrees(readingOf('send_message created_at', T, T, T + 50), clock, 300_000), true, 'within 5 minutes');
});

test('the observations stay put from run to run', () => {
  assert.equal(offsetObserved({ offsetMs: 1200, uncertaintyMs: 500, source: 'Date header', verified: false }), 'within 5 s of the runner');
  assert.equal(offsetObserved({ offsetMs: -89_400, uncertaintyMs: 500, source: 'Date header', verified: false }), '90 s behind the runner');
  assert.equal(offsetObserved(UNKNOWN_CLOCK), 'no Date header');
});

test("a step of the runner's wall clock against its monotonic clock is measured, and said with what to fix", () => {
  assert.ok(Math.abs(runnerClockStep()) < RUNNER_CLOCK_STEP_MS, 'a clock that did not step reads no step');
  assert.equal(runnerClockStep(1_000_000 + 90_000, 1_000_000), 90_000);
  assert.match(runnerClockWhy(90_000), /moved 90\.0 s .*not the vendor's; keep the runner's clock synchronised/);
});
