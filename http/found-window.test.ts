import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counterJumps, foundWindow, judgeWindow, type Jump, type Met } from './found-window.ts';
import { bucket, fixedWindow, metBy, slidingWindow, steady } from './test-support.ts';

/** `size` requests `spacingMs` apart, every `everyMs`, until `untilMs`: a run that bursts and waits out its throttles. */
function bursts(size: number, spacingMs: number, everyMs: number, untilMs: number): number[] {
  return steady(everyMs, 0, untilMs).flatMap((start) => Array.from({ length: size }, (_, i) => start + i * spacingMs));
}

/** A jump at `atMs` that its answers bracket within `gapMs`. */
const jumpAt = (atMs: number, gapMs = 10): Jump => ({ afterMs: atMs - gapMs, atMs });
const accepted = (atMs: number, remaining?: number): Met => ({ atMs, accepted: true, ...(remaining !== undefined ? { remaining } : {}) });
const throttled = (atMs: number): Met => ({ atMs, accepted: false, remaining: 0 });

test('a fixed window: its counter shows the window, and a run sending faster than it tests it; one sending slower leaves it untested', () => {
  // 20/s against 15 per second of the clock: 15 accepted in each, then throttled until the next.
  assert.deepEqual(foundWindow(15, metBy(fixedWindow(15), steady(50, 0, 6000))), { windowMs: 1000, known: 'tested', tested: 5 });
  // Its Reset, read at each window's start, says the same window: stated.
  assert.equal((foundWindow(15, metBy(fixedWindow(15), steady(50, 0, 6000), true)) as { known: string }).known, 'stated');
  // At 14/s nothing is throttled: a window the run could not have broken.
  const paced = foundWindow(15, metBy(fixedWindow(15), steady(1000 / 14, 0, 8000)));
  assert.deepEqual(paced && 'known' in paced ? [Math.round(paced.windowMs), paced.known] : paced, [1000, 'untested']);
  // A run that waits out its throttles across each window's start leaves the start anywhere in a second: those
  // jumps give no length, and a window is found only from the ones the answers bracket closely.
  const waiting = metBy(fixedWindow(15), bursts(20, 10, 1300, 9000));
  assert.ok(counterJumps(15, waiting).jumps.length >= 6);
  assert.deepEqual(counterJumps(15, waiting).lengths, []);
});

test('token buckets of burst 1, 5 and 20 and a sliding log show no window: their counter comes back a request at a time', () => {
  for (const [name, quota, limiter, arrivals] of [
    ['burst 1 at 20/s', 1, bucket(20, 1), steady(40, 0, 10_000)],
    ['burst 5 at 10/s, pressed', 5, bucket(10, 5), steady(50, 0, 10_000)],
    ['burst 5 at 10/s, in bursts', 5, bucket(10, 5), bursts(10, 30, 1000, 10_000)],
    ['burst 20 at 20/s, in bursts', 20, bucket(20, 20), bursts(30, 10, 1500, 10_000)],
    ['a sliding log of 15/s, pressed', 15, slidingWindow(15), steady(50, 0, 8000)],
    ['a sliding log of 15/s, in bursts', 15, slidingWindow(15), bursts(20, 10, 1000, 8000)],
  ] as const) {
    assert.equal(foundWindow(quota, metBy(limiter, [...arrivals])), undefined, name);
  }
});

test('a window accepting more than its quota within one of its windows is none: a bucket refills as it goes', () => {
  const quota = 5;
  const holds = [jumpAt(1000)];
  const fixed = [accepted(1000), accepted(1050), accepted(1100), accepted(1150), accepted(1200), throttled(1250), throttled(1300)];
  assert.deepEqual(judgeWindow(quota, 1000, fixed, holds), { state: 'standing', tested: 1, resetMatches: false });
  const refilling = [...fixed.slice(0, 5), ...steady(100, 1300, 1900).map((at) => accepted(at))];
  assert.deepEqual(judgeWindow(quota, 1000, refilling, holds), {
    state: 'broken',
    why: 'no fixed window of 5 per 1.00 s: the target accepted 8 within 0.50 s of one window',
  });
  // The misreading this rule ends (issue 42's verdict test): a 10/s bucket of burst 5, run in bursts, read as 5 per 4.3 s.
  const bursting = metBy(bucket(10, 5), bursts(10, 30, 1000, 10_000));
  assert.match(
    (judgeWindow(quota, 4300, bursting, counterJumps(quota, bursting).jumps) as { why: string }).why,
    /^no fixed window of 5 per 4\.30 s: the target accepted \d+ within/,
  );
  // Where the window can end, an edge short of the earliest, the next one's answers are not counted against it.
  const nextWindow = [...fixed.slice(0, 5), accepted(1895), accepted(1900), accepted(1905)];
  assert.equal(judgeWindow(quota, 1000, nextWindow, [jumpAt(1000)]).state, 'standing');
});

test('a window whose counter said none were left, and the target accepted more in it, is none: the throttle it predicts never came', () => {
  const taken = [accepted(0, 3), accepted(50, 2), accepted(100, 1), accepted(150, 0)];
  assert.deepEqual(judgeWindow(4, 1000, [...taken, throttled(200), throttled(250)], [jumpAt(0)]), { state: 'standing', tested: 1, resetMatches: false });
  // Those an edge (100 ms) or more after the counter said none: the run cannot order answers closer than that.
  const refills = [...taken, accepted(260, 0), accepted(310, 0), accepted(360, 0)];
  assert.deepEqual(judgeWindow(4, 1000, refills, [jumpAt(0)]), {
    state: 'broken',
    why: 'no fixed window of 4 per 1.00 s: the target accepted 3 more in one window after its counter said none were left',
  });
});

test("a window whose counter comes back within it is none: a sliding log's or a bucket's comes back a request at a time, a fixed window's only at its start", () => {
  // Five taken of 15, the counter at 10; then, nothing else accepted, it says 13 left: three came back mid-window.
  const taken = [accepted(0, 14), accepted(50, 13), accepted(100, 12), accepted(150, 11), accepted(200, 10)];
  assert.deepEqual(judgeWindow(15, 1000, [...taken, accepted(600, 9)], [jumpAt(0)]), { state: 'standing', tested: 0, resetMatches: false });
  assert.deepEqual(judgeWindow(15, 1000, [...taken, accepted(600, 12)], [jumpAt(0)]), {
    state: 'broken',
    why: "no fixed window of 15 per 1.00 s: its counter came back by 3 within one window, as a sliding log's or a bucket's does",
  });
  // Answers that crossed on the way read it a request or two off: no break.
  assert.equal(judgeWindow(15, 1000, [...taken, accepted(600, 11)], [jumpAt(0)]).state, 'standing');
  // A throttle in the window's last tenth, after its quota was taken, tests it: a run a little above the quota meets it there.
  const full = steady(1000 / 16, 0, 1000).map((at, i) => (i < 15 ? accepted(at, 14 - i) : throttled(at)));
  assert.deepEqual(judgeWindow(15, 1000, full, [jumpAt(0)]), { state: 'standing', tested: 1, resetMatches: false });
});

test('a window throttled well before its quota was taken is none: a quota that lies, or no window of that length', () => {
  const taken = [...steady(20, 0, 300).map((at) => accepted(at)), throttled(320)];
  assert.deepEqual(judgeWindow(15, 1000, taken, [jumpAt(0)]), { state: 'standing', tested: 1, resetMatches: false });
  assert.deepEqual(judgeWindow(30, 1000, taken, [jumpAt(0)]), {
    state: 'broken',
    why: 'no fixed window of 30 per 1.00 s: the target throttled one window after it accepted 15',
  });
  // Lying headers (twice the quota, a counter a quota too high) show a window, and break it at its first throttle.
  const lying = metBy(fixedWindow(15), steady(50, 0, 6000)).map((m) => ({ ...m, remaining: m.remaining! + 15 }));
  assert.deepEqual(foundWindow(30, lying), { why: 'no fixed window of 30 per 1.00 s: the target throttled one window after it accepted 15' });
});

test('a window far slower than what the target accepted over a few of them is none, wherever they begin', () => {
  // No jump at all to place a window: 3 s may overlap 4 windows, 4 quotas at most.
  const evenly = steady(150, 0, 6000).map((at) => accepted(at));
  assert.equal(judgeWindow(5, 1000, evenly, []).state, 'standing', '6.7/s against 5 per second: 20 in 3 s, 22 allowed');
  assert.deepEqual(judgeWindow(5, 2000, evenly, []), {
    state: 'broken',
    why: 'no fixed window of 5 per 2.00 s: the target accepted 23 within 6.00 s, a rate far above it',
  });
  // A sliding log of 15/s pressed: read as 15 per 1.2 s (a run in bursts can show that), it stands, below its rate; as 15 per 2 s, it is broken.
  const sliding = metBy(slidingWindow(15), steady(50, 0, 8000));
  assert.equal(judgeWindow(15, 1200, sliding, []).state, 'standing');
  assert.match((judgeWindow(15, 2000, sliding, []) as { why: string }).why, /a rate far above it$/);
});

test("a Reset read at a window's start states its length, to the whole second it is rounded up to", () => {
  const starts = [0, 1000, 2000, 3000];
  const met = starts.map((at) => accepted(at, 14));
  const withReset = (seconds: number) => starts.map((at) => ({ ...jumpAt(at), resetSeconds: seconds }));
  assert.equal((judgeWindow(15, 1000, met, withReset(1)) as { resetMatches: boolean }).resetMatches, true);
  assert.equal((judgeWindow(15, 1000, met, withReset(5)) as { resetMatches: boolean }).resetMatches, false, 'a bucket refilling for 5 s');
  assert.equal((judgeWindow(15, 1000, met, withReset(1).slice(0, 2)) as { resetMatches: boolean }).resetMatches, false, 'two starts are not enough');
  // A start the answers leave anywhere in a second says nothing of the length.
  const loose = starts.map((at) => ({ ...jumpAt(at, 900), resetSeconds: 5 }));
  assert.equal((judgeWindow(15, 1000, met, loose) as { resetMatches: boolean }).resetMatches, false);
});

test('answers a busy machine reckons out of order are no break: a burst read in any order, a late last answer of a window, a bunch met within 25 ms', () => {
  // Eight sends at once at a run's start: the target met them 14, 13, …, 7; read late, reckoned 14, 11, 13, 12, 8, 7, 10, 9.
  const burst = [14, 11, 13, 12, 8, 7, 10, 9].map((remaining, i) => accepted(40 + i * 4, remaining));
  const rest = [6, 5, 4, 3, 2, 1, 0].map((remaining, i) => accepted(100 + i * 20, remaining));
  assert.deepEqual(counterJumps(15, [...burst, ...rest, throttled(300), throttled(400)]).jumps, [], 'no window starts within a burst');
  // The same burst, its lowest counter reckoned first (8, then 14, 13, …): the counter seems to come back whole and
  // stay, but within an edge of the run's first answer nothing tells a start from answers read out of order.
  const lowFirst = [8, 14, 13, 12, 11, 10, 9, 7].map((remaining, i) => accepted(40 + i * 4, remaining));
  assert.deepEqual(counterJumps(15, [...lowFirst, ...rest, throttled(300), throttled(400)]).jumps, [], 'no window starts at a low first answer');
  // A window's last answer (0), reckoned just after the next window's first (14).
  const window = (start: number) => [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((remaining, i) => accepted(start + 60 + i * 60, remaining));
  const lateLast = [accepted(1000, 14), accepted(1030, 0), ...window(1000), throttled(1900), accepted(2000, 14), ...window(2000)];
  assert.equal(judgeWindow(15, 1000, lateLast, [jumpAt(1000)]).state, 'standing');
  // A bunch of three sends reached the target within the network's jitter, its counter 10, 9, 8; reckoned 9, 8, 10.
  const bunch = [accepted(0, 14), accepted(60, 13), accepted(120, 12), accepted(180, 11), accepted(400, 9), accepted(410, 8), accepted(425, 10)];
  assert.equal(judgeWindow(15, 1000, [...bunch, accepted(500, 7), accepted(560, 6)], [jumpAt(0)]).state, 'standing');
  // Five met within 55 ms (counters 12, 11, 10, 9, 8), reckoned 10, 9, 12, 8, 11: each may have come after the ones before it.
  const five = [accepted(0, 14), accepted(100, 13), accepted(300, 10), accepted(310, 9), accepted(347, 12), accepted(350, 8), accepted(355, 11)];
  assert.equal(judgeWindow(15, 1000, [...five, accepted(460, 7), accepted(560, 6)], [jumpAt(0)]).state, 'standing');
  // One answer read 150 ms late (its counter 7, reckoned after the 6 and 5 met after it): those two read a level
  // below, it two above; the lowest level settled would call that a counter that came back by 3, the middle one does not.
  const late = [14, 13, 12, 11, 10, 9, 8].map((remaining, i) => accepted(i * 60, remaining));
  assert.equal(
    judgeWindow(15, 1000, [...late, accepted(600, 6), accepted(620, 5), accepted(760, 7), accepted(820, 4), accepted(880, 3)], [jumpAt(0)]).state,
    'standing',
  );
  // A counter that keeps coming back, as a sliding log's, still breaks it.
  const log = [...bunch, ...[9, 10, 10, 11].map((remaining, i) => accepted(500 + i * 100, remaining))];
  assert.equal(judgeWindow(15, 1000, log, [jumpAt(0)]).state, 'broken');
});

test("a window's length read long does not take in the next window's first answers: a window ends where the next begins", () => {
  // A window's answers reckoned 60 ms apart, the next one's first reckoned 880 ms after its start (a busy machine's
  // times are off by tens of ms); its length read as 1.06 s from a handful of starts.
  const window = (from: number) => Array.from({ length: 14 }, (_, i) => accepted(from + i * 60, 14 - i));
  const met = [...window(0), ...window(880)];
  assert.deepEqual(judgeWindow(15, 1060, met, [jumpAt(0), { afterMs: 780, atMs: 880 }]), { state: 'standing', tested: 0, resetMatches: false });
});
