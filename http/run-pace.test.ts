import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../lib/seeded-random.ts';
import type { KnownLimit } from '../lib/fingerprint.ts';
import type { Announcement } from './rate-headers.ts';
import { LEARNED_HERE, RunPace, startingLimit, throttledForRate, TurnQueue } from './run-pace.ts';
import { bucket, fixedWindow, slidingWindow, type Limiter } from './test-support.ts';

/**
 * A run of `workers` clients, each sending one request after another through `pace`, against `limiter` a network
 * `latency` ms away (drawn per request, seeded), each answer announcing what `announce` makes of the counter: what the
 * target accepted and throttled, and when. A throttled request is sent again after a second (its Retry-After).
 */
function simulate(
  pace: RunPace,
  limiter: Limiter,
  run: { workers: number; requests: number; latency: [number, number]; announce?: (remaining: number) => Announcement },
) {
  const random = seededRandom(5);
  const arrivals: Array<{ at: number; accepted: boolean }> = [];
  /** When the pace's limit changed, and to what. */
  const limits: Array<{ at: number; limit: KnownLimit | undefined }> = [];
  type Event = { at: number; worker: number } & (
    | { kind: 'book' }
    | { kind: 'arrive'; trip: number; sent: number }
    | { kind: 'answer'; ok: boolean; sent: number; remaining: number }
  );
  const events: Event[] = Array.from({ length: run.workers }, (_, worker) => ({ at: 0, worker, kind: 'book' as const }));
  let accepted = 0;
  while (accepted < run.requests) {
    events.sort((a, b) => a.at - b.at);
    const event = events.shift()!;
    const { at, worker } = event;
    if (event.kind === 'book') {
      const wait = pace.wait(at);
      if (wait > 0) {
        events.push({ at: at + wait, worker, kind: 'book' });
        continue;
      }
      pace.take(at);
      pace.busy(at);
      const trip = run.latency[0] + random() * (run.latency[1] - run.latency[0]);
      events.push({ at: at + trip / 2, worker, kind: 'arrive', trip, sent: at });
    } else if (event.kind === 'arrive') {
      const { ok, remaining } = limiter(at);
      arrivals.push({ at, accepted: ok });
      events.push({ at: at + event.trip / 2, worker, kind: 'answer', ok, sent: event.sent, remaining });
    } else {
      if (pace.answered(at, { throttled: !event.ok, sentAtMs: event.sent, ...(run.announce ? { announced: run.announce(event.remaining) } : {}) }))
        limits.push({ at, limit: pace.limit });
      pace.done(at);
      if (event.ok) accepted++;
      events.push({ at: at + (event.ok ? 0 : 1000), worker, kind: 'book' });
    }
  }
  const throttled = arrivals.filter((a) => !a.accepted).length;
  return { sent: accepted + throttled, throttled, arrivals, limits };
}

/** The most requests the target accepted in any second after `from` ms. */
function busiestSecond(arrivals: Array<{ at: number; accepted: boolean }>, from: number): number {
  const times = arrivals.filter((a) => a.accepted && a.at >= from).map((a) => a.at);
  times.sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

test('knowing no limit, a run learns it from its throttled answers: a few, then none, at 90-100% of the limit', () => {
  const pace = new RunPace(undefined);
  const run = simulate(pace, bucket(20, 20), { workers: 8, requests: 600, latency: [80, 140] });
  const learned = pace.limit!;
  assert.equal(learned.from, LEARNED_HERE);
  assert.ok(learned.perSecond <= 20 && learned.perSecond >= 18, `learned ${learned.perSecond}/s of 20`);
  assert.ok(run.throttled <= 30, `${run.throttled} throttled answers`);
  const lastThrottle = Math.max(...run.arrivals.filter((a) => !a.accepted).map((a) => a.at));
  const end = Math.max(...run.arrivals.map((a) => a.at));
  assert.ok(lastThrottle < end / 4, `the throttles end early in the run: the last at ${Math.round(lastThrottle)} of ${Math.round(end)} ms`);
  assert.deepEqual(pace.record(), { initial: null, limit: { ...learned, basis: 'throttles', confidence: 'estimate' }, notes: [] });
});

test('knowing the limit for sure, a run paced at it is never throttled, even by a bucket of three requests, and goes no faster', () => {
  const pace = new RunPace({ perSecond: 20, from: 'the run before', confidence: 'confirmed' });
  const run = simulate(pace, bucket(20, 3), { workers: 8, requests: 400, latency: [80, 140] });
  assert.equal(run.throttled, 0);
  assert.ok(busiestSecond(run.arrivals, 0) <= 21, `busiest second ${busiestSecond(run.arrivals, 0)}`);
  const seconds = Math.max(...run.arrivals.map((a) => a.at)) / 1000;
  assert.ok(seconds < (400 / 20) * 1.05, `${seconds.toFixed(1)} s for 400 requests at 20/s`);
  assert.deepEqual(pace.limit, { perSecond: 20, from: 'the run before', confidence: 'confirmed' });
});

test('a limit that went down since it was learned is learned again, lower; never above the limit the run started with', () => {
  const pace = new RunPace({ perSecond: 30, from: 'baseline staging' });
  simulate(pace, bucket(12, 10), { workers: 6, requests: 300, latency: [80, 140] });
  assert.ok(pace.limit!.perSecond <= 12 && pace.limit!.perSecond >= 10.5, `learned ${pace.limit!.perSecond}/s of 12`);
  // Answers let through faster than ever between two later throttles: the pooled estimate rises, never past the start.
  for (let t = 100_000; t < 101_000; t += 5) pace.answered(t, { throttled: false, sentAtMs: t });
  pace.answered(101_000, { throttled: true, sentAtMs: 101_000 });
  for (let t = 101_000; t < 102_000; t += 1) pace.answered(t, { throttled: false, sentAtMs: t });
  pace.answered(102_000, { throttled: true, sentAtMs: 102_000 });
  assert.ok(pace.limit!.perSecond < 30, `${pace.limit!.perSecond}/s`);
});

const xRateLimit =
  (quota: number) =>
  (remaining: number): Announcement => ({ style: 'X-RateLimit-Limit', quota, remaining });
const STAGING = { workers: 8, latency: [80, 140] as [number, number] };

test('a fixed window announced without its window (X-RateLimit-Limit): kept to, within 10%, an estimate, once its throttles tested the window its counter shows; no throttle after', () => {
  const pace = new RunPace(undefined);
  const run = simulate(pace, fixedWindow(15), { ...STAGING, requests: 700, announce: xRateLimit(15) });
  const limit = pace.limit!;
  assert.deepEqual([limit.basis, limit.confidence], ['announced', 'estimate']);
  assert.ok(limit.perSecond >= 13.5 && limit.perSecond <= 15, `kept to ${limit.perSecond}/s of 15`);
  assert.match(
    pace.record().notes!.join('\n'),
    /keeps to the announced X-RateLimit-Limit 15 per a window of 1\.0\d s, found from its counter and throttled as one in \d+ windows/,
  );
  const keptFrom = run.limits.find((l) => l.limit?.basis === 'announced')!.at;
  assert.equal(run.arrivals.filter((a) => !a.accepted && a.at > keptFrom).length, 0, 'paced at the window found and tested, the run meets no throttle');
});

test('a window found from the counter but not yet tested paces nothing: a run below it probes up to it, once; a run at a confirmed limit does not', () => {
  // Two senders against a fixed 15/s window: the throttles teach a pace below it, the counter shows the window, and
  // nothing the run sends at that pace can break it.
  const probing = new RunPace(undefined);
  simulate(probing, fixedWindow(15), { workers: 2, latency: STAGING.latency, requests: 700, announce: xRateLimit(15) });
  const notes = probing.record().notes!.join('\n');
  assert.match(notes, /probes from [\d.]+\/s up to the announced X-RateLimit-Limit 15 per a window of 1\.0\d s, found from its counter, untested/);
  assert.ok(probing.limit!.perSecond >= 13.5 && probing.limit!.perSecond <= 15, `${JSON.stringify(probing.limit)} of 15`);
  const confirmed = new RunPace({ perSecond: 12, from: 'the run before', confidence: 'confirmed' });
  assert.equal(simulate(confirmed, fixedWindow(15), { ...STAGING, requests: 300, announce: xRateLimit(15) }).throttled, 0);
  assert.deepEqual(confirmed.limit, { perSecond: 12, from: 'the run before', confidence: 'confirmed' });
  assert.doesNotMatch(confirmed.record().notes!.join('\n'), /probe/);
});

test('the quota a token bucket (burst 1, 5, 20) or a sliding log announces gives no window: the pace keeps to what the throttles show, never above the rate', () => {
  for (const [name, limiter, quota, rate] of [
    ['burst 1 at 20/s', bucket(20, 1), 1, 20],
    ['burst 5 at 10/s', bucket(10, 5), 5, 10],
    ['burst 20 at 20/s', bucket(20, 20), 20, 20],
    ['a sliding log of 15/s', slidingWindow(15), 15, 15],
  ] as const) {
    const pace = new RunPace(undefined);
    simulate(pace, limiter, { workers: 4, latency: STAGING.latency, requests: 500, announce: xRateLimit(quota) });
    assert.equal(pace.limit!.basis, 'throttles', name);
    assert.ok(pace.limit!.perSecond <= rate, `${name}: ${pace.limit!.perSecond}/s`);
    assert.doesNotMatch(pace.record().notes!.join('\n'), /announced/, name);
  }
});

test('a quota with its window (RateLimit-Policy) paces the run from its first answer: no throttle after its first second', () => {
  const pace = new RunPace(undefined);
  const announce = (remaining: number): Announcement => ({ style: 'RateLimit-Policy', quota: 15, windowSeconds: 1, remaining });
  const run = simulate(pace, fixedWindow(15), { ...STAGING, requests: 300, announce });
  // The workers' first sends went unpaced, before any answer came back.
  assert.equal(run.arrivals.filter((a) => !a.accepted && a.at >= 1000).length, 0);
  assert.deepEqual(pace.limit, { perSecond: 14.55, from: LEARNED_HERE, basis: 'announced', confidence: 'confirmed' });
});

test('announcements that contradict the throttles are not trusted, and the run says so: the limit is learned from the throttles', () => {
  for (const [name, announce] of [
    [
      'a limit that still throttles',
      (remaining: number): Announcement => ({ style: 'RateLimit-Policy', quota: 30, windowSeconds: 1, remaining: remaining + 15 }),
    ],
    ['a remaining count that lies', (remaining: number): Announcement => ({ style: 'X-RateLimit-Limit', quota: 30, remaining: remaining + 15 })],
  ] as const) {
    const pace = new RunPace(undefined);
    simulate(pace, fixedWindow(15), { ...STAGING, requests: 400, announce });
    assert.equal(pace.limit!.basis, 'throttles', name);
    assert.ok(pace.limit!.perSecond <= 15, `${name}: ${pace.limit!.perSecond}/s`);
    assert.match(pace.record().notes!.join('\n'), /30 not trusted: the target (throttled|refused)/, name);
  }
});

test('a limit learned too low does not stick: the next run probes up 10% at a time, throttled a few times at most, and confirms it', () => {
  const estimate = { perSecond: 7.7, from: 'the run of 2026-11-25T10:00:00.000Z', basis: 'throttles' as const, confidence: 'estimate' as const };
  const probing = new RunPace(estimate);
  const run = simulate(probing, fixedWindow(15), { ...STAGING, requests: 700 });
  const found = probing.limit!;
  assert.deepEqual([found.basis, found.confidence], ['probed', 'confirmed']);
  assert.ok(found.perSecond >= 13.5 && found.perSecond <= 15, `confirmed ${found.perSecond}/s of 15`);
  assert.ok(run.throttled <= STAGING.workers, `${run.throttled} throttled answers, at most one per sender on its way`);
  // Confirmed, the run after keeps to it and probes no more: no throttle.
  const after = new RunPace({ ...found, from: 'the run before' });
  assert.equal(simulate(after, fixedWindow(15), { ...STAGING, requests: 700 }).throttled, 0);
  assert.equal(after.limit!.perSecond, found.perSecond);
  // An estimate above the limit that met none for a hold is confirmed as it is (it holds its margin already), and the
  // throttles at it step it down: never left above the limit.
  const atLimit = new RunPace({ ...estimate, perSecond: 15.3 });
  assert.ok(simulate(atLimit, fixedWindow(15), { ...STAGING, requests: 300 }).throttled <= STAGING.workers);
  assert.deepEqual([atLimit.limit!.perSecond, atLimit.limit!.confidence], [14.3, 'confirmed']);
  assert.match(
    atLimit.record().notes!.join('\n'),
    /probed 16\.37\/s: throttled; 15\.3\/s met none: confirmed 15\.3\/s\nthrottled at the confirmed 15\.3\/s: confirmed 14\.3\/s/,
  );
  // A run at a confirmed limit that the target throttles all the same steps it down, confirmed, before learning anew.
  const carried = new RunPace({ perSecond: 15.3, from: 'the run before', basis: 'probed', confidence: 'confirmed' });
  simulate(carried, fixedWindow(15), { ...STAGING, requests: 300 });
  assert.deepEqual([carried.limit!.perSecond, carried.limit!.confidence], [14.3, 'confirmed']);
  // An older memory, without basis or confidence, is an estimate too; MAX_RPS caps the probe.
  const capped = new RunPace({ perSecond: 7.7, from: 'the run before' }, 9);
  simulate(capped, fixedWindow(15), { ...STAGING, requests: 300 });
  assert.equal(capped.limit!.perSecond, 9);
});

test("a bucket's burst hides a probed pace above its rate: its counter shows the rate (a sliding log's does not), and without one each throttle at the confirmed pace steps back down", () => {
  const estimate = { perSecond: 9.43, from: 'the run before', basis: 'throttles' as const, confidence: 'estimate' as const };
  // Burst 5 at 10/s: 11.56/s held 1.5 s drains 2.3 of its 5 requests, and the probe goes on up.
  const counted = new RunPace(estimate);
  assert.equal(simulate(counted, bucket(10, 5), { workers: 4, latency: STAGING.latency, requests: 700, announce: xRateLimit(5) }).throttled, 1);
  assert.match(counted.record().notes!.join('\n'), /11\.56\/s met none, its counter shows 9\.\d+\/s let through: confirmed 9\.\d+\/s/);
  const stepped = new RunPace(estimate);
  assert.ok(simulate(stepped, bucket(10, 5), { workers: 4, latency: STAGING.latency, requests: 700 }).throttled <= 4);
  assert.match(stepped.record().notes!.join('\n'), /throttled at the confirmed 1\d\.\d+\/s: confirmed/);
  // A sliding log's counter, whose quota is a second's worth, shows only the pace the run kept: no bound from it.
  const sliding = new RunPace({ ...estimate, perSecond: 11.49 });
  simulate(sliding, slidingWindow(15), { workers: 4, latency: STAGING.latency, requests: 700, announce: xRateLimit(15) });
  assert.doesNotMatch(sliding.record().notes!.join('\n'), /its counter shows/);
  assert.ok(sliding.limit!.perSecond >= 13.5 && sliding.limit!.perSecond <= 15, `${JSON.stringify(sliding.limit)} of 15/s`);
  for (const pace of [counted, stepped]) {
    const limit = pace.limit!;
    assert.ok(limit.perSecond <= 10 && limit.perSecond >= 9, `${JSON.stringify(limit)} of 10/s`);
    assert.equal(limit.confidence, 'confirmed');
    assert.equal(simulate(new RunPace({ ...limit, from: 'the run before' }), bucket(10, 5), { ...STAGING, requests: 500 }).throttled, 0);
  }
});

test('throttles with nothing accepted between show no rate on their own: eight senders waiting out a fixed window learn more than half of it, not 1/s', () => {
  const pace = new RunPace(undefined);
  simulate(pace, fixedWindow(15), { ...STAGING, requests: 700 });
  assert.ok(pace.limit!.perSecond >= 7.5 && pace.limit!.perSecond <= 15, `learned ${pace.limit!.perSecond}/s of 15`);
});

test('unpaced without a limit; paced, slots 1/limit apart, a late send caught up within half a slot, none banked while idle', () => {
  const unpaced = new RunPace(undefined);
  unpaced.take(0);
  assert.equal(unpaced.wait(0), 0);
  const pace = new RunPace(undefined, 4);
  const sends = [0, 290, 300, 10_000, 10_000];
  const waits = sends.map((at) => {
    const wait = pace.wait(at);
    pace.take(at + wait);
    return wait;
  });
  // 250 apart: the second, 40 ms late for its slot at 250, leaves the next at 500, not 540; after an idle spell, the
  // first goes at once and the next a whole slot later, as after the run's first send.
  assert.deepEqual(waits, [0, 0, 200, 0, 250]);
});

test('throttles with nothing accepted between slow the run to the floor, never to a standstill', () => {
  const pace = new RunPace(undefined);
  pace.answered(0, { throttled: true, sentAtMs: 0 });
  pace.answered(1500, { throttled: true, sentAtMs: 1500 });
  assert.equal(pace.limit!.perSecond, 1);
});

test('the starting limit is the lower of MAX_RPS and the known one; a 503 is a throttle only with Retry-After', () => {
  const known = { perSecond: 19, from: 'the run of 2026-11-25T10:00:00.000Z' };
  assert.deepEqual(startingLimit(undefined, known), known);
  assert.deepEqual(startingLimit(10, known), { perSecond: 10, from: 'MAX_RPS' });
  assert.deepEqual(startingLimit(50, known), known);
  assert.equal(startingLimit(undefined, undefined), undefined);
  assert.deepEqual(
    [throttledForRate(429, undefined), throttledForRate(503, '2'), throttledForRate(503, undefined), throttledForRate(502, '1')],
    [true, true, false, false],
  );
});

test('sends wait their turn in the order they came, a first one ahead of every other waiting but never two turns running, one per slot', () => {
  const turns = new TurnQueue<string>(new RunPace(undefined, 20));
  for (const send of ['a', 'b', 'c']) turns.add(send, false, 0);
  assert.deepEqual(turns.due(0), { go: ['a'], nextInMs: 50 });
  turns.add('probe', true, 10);
  turns.add('probe-2', true, 20);
  assert.deepEqual(turns.due(50), { go: ['probe'], nextInMs: 50 });
  assert.deepEqual([turns.due(100).go, turns.due(150).go, turns.due(200).go, turns.due(250)], [['b'], ['probe-2'], ['c'], { go: [], nextInMs: undefined }]);
  // A chain of first sends, each back before the next turn, leaves every other turn to the sends waiting beside it.
  const chain = new TurnQueue<string>(new RunPace(undefined, 5));
  for (const send of ['a', 'b']) chain.add(send, false, 0);
  const order: string[] = [];
  let probes = 0;
  let probeWaiting = false;
  for (let turn = 0; turn < 4; turn++) {
    if (!probeWaiting) chain.add(`probe-${probes++}`, true, turn * 200);
    const go = chain.due(turn * 200).go;
    probeWaiting = !go.some((send) => send.startsWith('probe'));
    order.push(...go);
  }
  assert.deepEqual(order, ['probe-0', 'a', 'probe-1', 'b']);
  // Unpaced, every send goes at once.
  const free = new TurnQueue<string>(new RunPace(undefined));
  free.add('a', false, 0);
  free.add('b', true, 0);
  assert.deepEqual(free.due(0), { go: ['b', 'a'], nextInMs: undefined });
});
