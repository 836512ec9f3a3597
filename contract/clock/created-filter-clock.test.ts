import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bisectCreatedFrom, bisectionStart, type CreateInterval } from './created-filter-clock.ts';
import { combineReadings, readingOf, UNVERIFIED_MARGIN_MS, type ClockReading } from './vendor-clock.ts';

const T = Date.parse('2026-11-24T10:00:00.300Z');
const REACH = 15 * 60_000;

/** Drives the bisection against a filter that lists the dialog from `listedFrom(createdFrom)`; the reads it took. */
function drive(created: CreateInterval, guess: Pick<ClockReading, 'low' | 'high'>, listed: (createdFrom: number) => boolean) {
  const plan = bisectCreatedFrom(created, guess, REACH);
  const asked: number[] = [];
  let step = plan.next();
  while (!step.done) {
    assert.equal(step.value % 1000, 0, 'CreatedFrom in whole seconds');
    asked.push(step.value);
    step = plan.next(listed(step.value));
  }
  return { reading: step.value, reads: asked.length };
}

const created: CreateInterval = { sentAt: T, answeredAt: T + 40 };

for (const [offset, stamp] of [
  [-90_000, 'milliseconds'],
  [90_000, 'milliseconds'],
  [-90_000, 'whole seconds'],
  [1200, 'whole seconds'],
  [-600_000, 'milliseconds'],
] as const) {
  for (const inclusive of [true, false]) {
    test(`the filter's clock ${offset / 1000} s off, stamps in ${stamp}, bounds ${inclusive ? 'taken in' : 'left out'}: found within two seconds`, () => {
      const instant = T + 20 + offset;
      const stamped = stamp === 'milliseconds' ? instant : Math.floor(instant / 1000) * 1000;
      const listed = (from: number) => (inclusive ? stamped >= from : stamped > from);
      // Guessed from a Date header a gateway wrote (the runner's clock, ±0.5 s): wrong by the whole offset.
      const fromGateway = drive(created, { low: -500, high: 500 }, listed);
      assert.ok(fromGateway.reading, 'found');
      assert.ok(fromGateway.reading.low <= offset + 20 && offset + 20 <= fromGateway.reading.high, JSON.stringify(fromGateway.reading));
      assert.ok(fromGateway.reading.high - fromGateway.reading.low <= 2100, 'within a second either way');
      assert.ok(fromGateway.reads <= 20, `${fromGateway.reads} reads`);
      // Guessed from the application's own updated (±1.5 s): a handful of reads.
      const fromStamp = drive(created, { low: offset - 1500, high: offset + 1500 }, listed);
      assert.deepEqual(fromStamp.reading, fromGateway.reading);
      assert.ok(fromStamp.reads <= 6, `${fromStamp.reads} reads`);
    });
  }
}

test('a filter that is ignored, a dialog the list does not show, a stamp beyond the reach: no reading, within the reach', () => {
  for (const listed of [() => true, () => false, (from: number) => T - REACH - 5000 >= from]) {
    const { reading, reads } = drive(created, { low: -500, high: 500 }, listed);
    assert.equal(reading, undefined);
    assert.ok(reads <= 12, `${reads} reads`);
  }
});

/** The whole estimate as global setup makes it: the free readings, a bisection when they leave it open, all combined. */
function estimate(readings: ClockReading[], filterOffset: number) {
  const cheap = combineReadings(readings);
  const start = bisectionStart(readings, cheap);
  if (!start) return { ...combineReadings(readings), reads: 0 };
  const instant = T + 20 + filterOffset;
  const plan = bisectCreatedFrom(created, start.guess, start.reachMs);
  let reads = 0;
  let step = plan.next();
  while (!step.done) {
    reads++;
    step = plan.next(instant >= step.value);
  }
  return { ...combineReadings(step.value ? [...readings, step.value] : readings), reads };
}

const dateHeader = (offset: number) => readingOf('Date header', T + offset - ((T + offset) % 1000), T, T + 40);
const updated = (offset: number) => readingOf('updated after a message', T + offset - ((T + offset) % 1000), T, T + 40);

test('readings that agree need no bisection: the default run costs no request', () => {
  const { clock, reads } = estimate([dateHeader(0), updated(0)], 0);
  assert.equal(reads, 0);
  assert.equal(clock.verified, true);
  assert.equal(bisectionStart([dateHeader(0), updated(0)], combineReadings([dateHeader(0), updated(0)])), undefined);
});

test('behind a gateway the filter sides with updated, in a handful of reads; the Date header is named as disagreeing', () => {
  for (const offset of [-90_000, 90_000]) {
    const { clock, disagreeing, reads } = estimate([dateHeader(0), updated(offset)], offset);
    assert.equal(clock.source, 'updated after a message, Created filter');
    assert.ok(Math.abs(clock.offsetMs - offset - 20) <= clock.uncertaintyMs && clock.uncertaintyMs < 1500, JSON.stringify(clock));
    assert.deepEqual(
      disagreeing.map((r) => r.source),
      ['Date header'],
    );
    assert.ok(reads <= 6, `${reads} reads`);
  }
});

test("an updated stamped an hour early (a vendor's drift): the bisection reaches past the unverified margin, the filter sides with the Date header", () => {
  const start = bisectionStart([dateHeader(0), updated(-3_600_000)], combineReadings([dateHeader(0), updated(-3_600_000)]));
  assert.ok(start && start.reachMs > 3_600_000 && start.reachMs > UNVERIFIED_MARGIN_MS);
  const { clock, disagreeing, reads } = estimate([dateHeader(0), updated(-3_600_000)], 0);
  assert.equal(clock.source, 'Date header, Created filter');
  assert.equal(clock.verified, true);
  assert.ok(Math.abs(clock.offsetMs) < 1500, JSON.stringify(clock));
  assert.deepEqual(
    disagreeing.map((r) => r.source),
    ['updated after a message'],
  );
  assert.ok(reads <= 30, `${reads} reads`);
});

test('no stamp read: the filter alone verifies the clock, from a Date header 90 s off', () => {
  const { clock, reads } = estimate([dateHeader(0)], -90_000);
  assert.equal(clock.source, 'Created filter');
  assert.equal(clock.verified, true);
  assert.ok(reads <= 20, `${reads} reads`);
});
