import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnnouncedLimit, readAnnouncement } from './rate-headers.ts';
import { bucket, fixedWindow, metBy, steady } from './test-support.ts';

const NOW = Date.parse('2026-11-23T10:00:00Z');

test("the current draft's RateLimit-Policy and RateLimit: the binding policy's quota and window, its remaining and reset", () => {
  assert.deepEqual(readAnnouncement({ 'RateLimit-Policy': '"default";q=15;w=1', RateLimit: '"default";r=3;t=1' }, NOW), {
    style: 'RateLimit-Policy',
    quota: 15,
    windowSeconds: 1,
    remaining: 3,
    resetSeconds: 1,
  });
  // Several policies: the one that allows the fewest per second binds a steady pace; a policy of bytes is no rate of requests.
  const several = { 'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400, "bytes";q=9;qu="content-bytes";w=1', ratelimit: '"daily";r=10;t=500' };
  assert.deepEqual(readAnnouncement(several, NOW), { style: 'RateLimit-Policy', quota: 1000, windowSeconds: 86400, remaining: 10, resetSeconds: 500 });
  assert.deepEqual(readAnnouncement({ 'ratelimit-policy': 'peruser;q=20;w=2' }, NOW), { style: 'RateLimit-Policy', quota: 20, windowSeconds: 2 });
});

test("earlier drafts' RateLimit-Limit, -Remaining and -Reset, the window in a policy beside the quota or nowhere", () => {
  const older = { 'RateLimit-Limit': '15', 'RateLimit-Remaining': '4', 'RateLimit-Reset': '1' };
  assert.deepEqual(readAnnouncement(older, NOW), { style: 'RateLimit-Limit', quota: 15, remaining: 4, resetSeconds: 1 });
  assert.deepEqual(readAnnouncement({ ...older, 'RateLimit-Limit': '15, 15;w=1, 1000;w=60' }, NOW)?.windowSeconds, 1);
  assert.deepEqual(readAnnouncement({ ...older, 'RateLimit-Policy': '15;w=1' }, NOW)?.windowSeconds, 1);
});

test("X-RateLimit-*: no window; a Reset in seconds from now, or a Unix time read against the target's own Date", () => {
  assert.deepEqual(readAnnouncement({ 'X-RateLimit-Limit': '15', 'X-RateLimit-Remaining': '14' }, NOW), {
    style: 'X-RateLimit-Limit',
    quota: 15,
    remaining: 14,
  });
  const unix = { 'x-ratelimit-limit': '5000', 'x-ratelimit-reset': String(NOW / 1000 + 30), date: new Date(NOW - 90_000).toUTCString() };
  assert.equal(readAnnouncement(unix, NOW)?.resetSeconds, 120, 'the vendor clock 90 s behind ours');
  assert.equal(readAnnouncement({ 'x-ratelimit-limit': '10', 'x-ratelimit-reset': '7' }, NOW)?.resetSeconds, 7);
  assert.equal(readAnnouncement({ 'X-Rate-Limit-Limit': '10' }, NOW)?.quota, 10);
});

test('nothing announced, or nothing readable: no announcement', () => {
  for (const headers of [
    {},
    { 'retry-after': '1' },
    { 'x-ratelimit-limit': 'many' },
    { 'ratelimit-policy': '"x";w=1' },
    { 'ratelimit-policy': '"a";q=5;w=1;;' },
  ] as Array<Record<string, string>>) {
    assert.equal(readAnnouncement(headers, NOW), undefined, JSON.stringify(headers));
  }
});

/** Answers 50 ms apart for `seconds` from `fromMs` against a fixed window of `quota` per second, the counter announced as `shown` makes it. */
function windowed(limit: AnnouncedLimit, quota: number, fromMs: number, seconds: number, shown = (remaining: number) => remaining) {
  for (const met of metBy(fixedWindow(quota), steady(50, fromMs, fromMs + seconds * 1000)))
    limit.observe(met, { style: 'X-RateLimit-Limit', quota, remaining: shown(met.remaining!) });
}

test('a quota without its window: the window its counter shows, once the throttles tested it (http/found-window.ts); a bucket shows none', () => {
  const fixed = new AnnouncedLimit();
  windowed(fixed, 15, 0, 3);
  assert.equal(fixed.rate(), undefined, 'too few whole windows yet');
  windowed(fixed, 15, 3000, 5);
  assert.deepEqual(fixed.rate(), {
    perSecond: 15,
    how: 'X-RateLimit-Limit 15 per a window of 1.00 s, found from its counter and throttled as one in 6 windows',
    window: 'tested',
  });
  // A bucket's counter comes back a token at a time: no window.
  const limiter = bucket(20, 5);
  const tokens = new AnnouncedLimit();
  for (const at of steady(40, 0, 10_000)) {
    const { ok, remaining } = limiter(at);
    tokens.observe({ atMs: at, accepted: ok }, { style: 'X-RateLimit-Limit', quota: 5, remaining });
  }
  assert.equal(tokens.rate(), undefined);
  assert.equal(tokens.refuted, undefined);
});

test('a counter that says there is room where the target refuses is not trusted, and says why', () => {
  const lying = new AnnouncedLimit();
  windowed(lying, 15, 0, 8, (remaining) => remaining + 15);
  assert.equal(lying.rate(), undefined);
  assert.match(lying.distrusted!, /^X-RateLimit-Limit 15 not trusted: the target refused 3 times right after saying 1\d or more were left$/);
  const throttling = new AnnouncedLimit();
  throttling.observe({ atMs: 0, accepted: true }, { style: 'RateLimit-Policy', quota: 30, windowSeconds: 1 });
  assert.equal(throttling.rate()?.perSecond, 30);
  for (let i = 0; i < 3; i++) throttling.throttledAtPace();
  assert.equal(throttling.rate(), undefined);
  assert.match(throttling.distrusted!, /RateLimit-Policy 30 not trusted: the target throttled 3 answers of the run paced below it/);
});

/**
 * What a 15/s bucket of 10 shows a run whose requests it meets at `arrivals` (ms), each `halfTrip` ms after it left
 * and answered as long after: the counter read, and the throttle that ended it.
 */
function bucketRun(arrivals: number[], halfTrip: number) {
  const counter = new AnnouncedLimit();
  const limiter = bucket(15, 10);
  for (const atMs of arrivals) {
    const { ok, remaining } = limiter(atMs);
    const met = { atMs, leftMs: atMs - halfTrip, backMs: atMs + halfTrip, accepted: ok };
    if (!ok) return { counter, throttle: met };
    counter.observe(met, { style: 'X-RateLimit-Limit', quota: 10, remaining });
  }
  throw new Error('never throttled');
}

test("a bucket's counter shows its rate once the run ran it down, timed to within its round trips; never across its brim, nor over round trips too slow to time it", () => {
  // Pressing at 18/s from its brim, the run empties it in three seconds: the counter shows the rate, to a request.
  const pressed = bucketRun(steady(55, 0, 10_000), 5);
  const rate = pressed.counter.shownAtLeast(0, pressed.throttle);
  assert.ok(rate !== undefined && rate >= 14 && rate <= 15, `${rate}/s of 15/s`);
  // Kept full (5/s, the run thinking between its requests), then emptied by a bunch: it only ran down within the
  // bunch, too short a span to show a rate. Counted from the seconds it sat full, it showed 4.65/s.
  const bunched = bucketRun([...steady(200, 0, 3000), ...steady(1, 3000, 3020)], 5);
  assert.equal(bunched.counter.shownAtLeast(0, bunched.throttle), undefined);
  // Run down the same, but each answer back 800 ms after its send left (a stalled target, a slow gateway): when the
  // target met them is known to within a second and a half of three, too loosely to count a rate over. Counted from
  // the times the run guessed, a stalled target's 15/s showed 9.09/s.
  const slow = bucketRun(steady(55, 0, 10_000), 400);
  assert.equal(slow.counter.shownAtLeast(0, slow.throttle), undefined);
});
