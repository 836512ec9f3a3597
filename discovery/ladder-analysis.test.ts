import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseLadder, confidenceText, mergeLadders, phaseJitter, rejectionReport, startDelayMs, type LadderStage } from './ladder-analysis.ts';
import { geometricRates, ladder } from './load-shapes.ts';

/**
 * Runs a ladder against one token bucket (perSecond, burst) with evenly spaced arrivals, as k6 would offer them,
 * split over `runners` equal runners as k6 splits an arrival rate (arrival i goes to runner i mod runners; each
 * runner may start `lagSeconds[r]` late, as processes whose setup() took longer do). As the rate-limit script does
 * (phaseJitter), each request leaves up to one of its runner's arrival periods late: periodic arrivals of several
 * runners would hand a token bucket's tokens out by their phase, not by their share. Returns each runner's stages.
 */
function splitLadderAgainstBucket(
  perSecond: number,
  burst: number,
  rates: number[],
  stageSeconds: number,
  runners: number,
  lagSeconds: number[] = [],
  seed = 7,
): LadderStage[][] {
  const steps = ladder('getV2Conversations', 'list', rates, stageSeconds).steps;
  const stages = Array.from({ length: runners }, () =>
    steps.map(
      (step): LadderStage => ({
        name: step.scenario,
        targetRate: step.targetRate,
        durationSeconds: stageSeconds,
        iterations: 0,
        droppedIterations: 0,
        ok: 0,
        rateLimited: 0,
        failed: 0,
        p95Ms: 2,
        share: 1 / runners,
      }),
    ),
  );
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const arrivals = steps.flatMap((step, s) =>
    Array.from({ length: step.targetRate * stageSeconds }, (_, i) => ({
      runner: i % runners,
      s,
      at: step.startSeconds + i / step.targetRate + (lagSeconds[i % runners] ?? 0) + phaseJitter(step.targetRate, 1 / runners, random),
    })),
  );
  arrivals.sort((a, b) => a.at - b.at);
  let tokens = burst;
  let now = 0;
  for (const { runner, s, at } of arrivals) {
    tokens = Math.min(burst, tokens + (at - now) * perSecond);
    now = at;
    const stage = stages[runner]![s]!;
    stage.iterations++;
    if (tokens >= 1) {
      tokens -= 1;
      stage.ok++;
    } else {
      stage.rateLimited++;
    }
  }
  return stages;
}

const ladderAgainstBucket = (perSecond: number, burst: number, rates: number[], stageSeconds: number) =>
  splitLadderAgainstBucket(perSecond, burst, rates, stageSeconds, 1)[0]!;

const sample = {
  status: 429,
  headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0' },
  body: '{"title":"Too Many Requests"}',
};

test('finds a token-bucket rate limit within ±10% over many limits, bursts (2 or more) and ladders', () => {
  for (const perSecond of [7, 20, 33, 40, 55, 90]) {
    for (const burst of [2, 10, perSecond]) {
      for (const [factor, stageSeconds] of [
        [1.25, 6],
        [1.5, 10],
        [1.2, 5],
      ] as const) {
        const rates = geometricRates(Math.max(1, Math.floor(perSecond / 4)), perSecond * 2.5, factor);
        const result = analyseLadder(ladderAgainstBucket(perSecond, burst, rates, stageSeconds), [sample]);
        const where = `limit ${perSecond}/s burst ${burst} ladder ×${factor} ${stageSeconds}s`;
        assert.ok(result.estimatedLimit !== null, where);
        assert.ok(Math.abs(result.estimatedLimit - perSecond) <= 0.1 * perSecond, `${where}: estimated ${result.estimatedLimit}`);
        // A short stage just above the limit can live on the burst alone.
        const sustainedAtMost = perSecond + burst / stageSeconds;
        assert.ok(result.sustainedRate !== null && result.sustainedRate <= sustainedAtMost, `${where}: sustained ${result.sustainedRate}`);
        assert.equal(result.firstLimited?.verdict, 'rate-limited', where);
      }
    }
  }
});

test('reports the rejection: status, Retry-After, rate-limit headers and body', () => {
  const result = analyseLadder(ladderAgainstBucket(20, 5, [10, 20, 40, 60], 5), [sample]);
  assert.deepEqual(result.rejection, {
    status: 429,
    retryAfter: '1',
    rateLimitHeaders: { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0' },
    body: '{"title":"Too Many Requests"}',
  });
  assert.deepEqual(rejectionReport({ status: 503, headers: { 'RateLimit-Policy': '10;w=1' }, body: 'x'.repeat(5000) }).body.length, 2000);
});

const stage = (targetRate: number, extra: Partial<LadderStage> = {}): LadderStage => ({
  name: `s${targetRate}`,
  targetRate,
  durationSeconds: 10,
  iterations: targetRate * 10,
  droppedIterations: 0,
  ok: targetRate * 10,
  rateLimited: 0,
  failed: 0,
  p95Ms: 4,
  share: 1,
  ...extra,
});

test('a latency knee (p95 above 3× the first stage and 25 ms more) ends the sustained range', () => {
  const result = analyseLadder([stage(10), stage(20, { p95Ms: 10 }), stage(40, { p95Ms: 20 }), stage(80, { p95Ms: 400 })], []);
  assert.equal(result.sustainedRate, 40);
  assert.deepEqual(result.firstLimited, { stage: 's80', targetRate: 80, verdict: 'latency-knee' });
  assert.equal(result.estimatedLimit, null);
  assert.equal(result.rejection, null);
});

test('under-delivery and non-429 failures are not sustained either', () => {
  assert.equal(analyseLadder([stage(10), stage(20, { iterations: 150, ok: 150 })], []).firstLimited?.verdict, 'under-delivered');
  assert.equal(analyseLadder([stage(10), stage(20, { failed: 5 })], []).firstLimited?.verdict, 'failing');
});

test('no sustained rate when the first stage is already limited; all sustained when none is', () => {
  assert.equal(analyseLadder([stage(10, { rateLimited: 3, ok: 97 })], []).sustainedRate, null);
  const calm = analyseLadder([stage(20), stage(10)], []);
  assert.equal(calm.sustainedRate, 20);
  assert.equal(calm.firstLimited, null);
  assert.deepEqual(
    calm.stages.map((s) => s.targetRate),
    [10, 20],
  );
});

test('a split ladder: each runner judges its share and reports the whole test; merged, the counts add up', () => {
  // Two drained rungs of 5 s: a runner of four still gets about 100 of the tokens to count.
  const rates = geometricRates(30, 110, 1.5);
  for (const runners of [2, 3, 4]) {
    // Runners resumed together still start their ladders apart by their setup()'s time: up to 0.3 s here.
    const lags = Array.from({ length: runners }, (_, r) => (r * 0.3) / runners);
    const split = splitLadderAgainstBucket(40, 10, rates, 5, runners, lags);
    for (const [r, stages] of split.entries()) {
      const own = analyseLadder(stages, [sample]);
      const where = `runner ${r + 1}/${runners}: ${JSON.stringify(own.stages)}`;
      assert.ok(own.estimatedLimit !== null && Math.abs(own.estimatedLimit - 40) <= 0.15 * 40, where);
      assert.equal(own.stages[0]!.verdict, 'sustained', where);
      assert.ok(Math.abs(own.stages[0]!.achievedRate - 30) <= 0.05 * 30, where);
    }
    const merged = mergeLadders(split);
    assert.equal(merged[0]!.share, 1);
    assert.equal(merged[0]!.iterations, 150);
    const whole = analyseLadder(merged, [sample]);
    assert.ok(whole.estimatedLimit !== null && Math.abs(whole.estimatedLimit - 40) <= 0.1 * 40, `${runners} runners merged: ${whole.estimatedLimit}`);
    assert.equal(whole.sustainedRate, 30);
    assert.equal(whole.firstLimited?.targetRate, 45);
  }
});

test('a runner that delivers less than its share of a rung is under-delivering, whatever the whole rate', () => {
  const half = (targetRate: number, extra: Partial<LadderStage> = {}) =>
    stage(targetRate, { iterations: targetRate * 5, ok: targetRate * 5, share: 0.5, ...extra });
  assert.equal(analyseLadder([half(10), half(20)], []).firstLimited, null);
  assert.equal(analyseLadder([half(10), half(20, { iterations: 60, ok: 60 })], []).firstLimited?.verdict, 'under-delivered');
});

test("the limit's confidence: its margin holds the true limit in 9 ladders of 10, split or not, and says when the estimate is a bound", () => {
  let ladders = 0;
  let missed = 0;
  for (const runners of [1, 2, 3, 4]) {
    for (const perSecond of [20, 40, 55]) {
      for (const [burst, stageSeconds, seed] of [
        [2, 5, 1],
        [10, 8, 7],
        [10, 10, 13],
        [2, 10, 99],
      ] as const) {
        const rates = geometricRates(Math.floor(perSecond * 0.75), perSecond * 2.6, 1.5);
        const lags = Array.from({ length: runners }, (_, r) => (r * 0.3) / runners);
        for (const stages of splitLadderAgainstBucket(perSecond, burst, rates, stageSeconds, runners, lags, seed)) {
          const { estimatedLimit, confidence } = analyseLadder(stages, []);
          assert.ok(estimatedLimit !== null && confidence?.margin != null);
          if (runners === 1) assert.deepEqual([confidence.level, confidence.margin <= 0.05], ['high', true], JSON.stringify(confidence));
          else
            assert.match(
              confidence.basis,
              new RegExp(`^\\d drained rungs pooled, \\d+ accepted requests counted, a ${Math.round(100 / runners)}% share of the test's$`),
            );
          ladders++;
          if (Math.abs(estimatedLimit - perSecond) > confidence.margin * estimatedLimit) missed++;
        }
      }
    }
  }
  assert.ok(missed <= ladders / 10, `${missed} of ${ladders} ladders found the limit outside their margin`);

  const once = analyseLadder([stage(10), stage(20), stage(40, { ok: 300, rateLimited: 100 })], []);
  assert.deepEqual([once.estimatedLimit, once.confidence?.level, once.confidence?.margin], [30, 'low', null]);
  assert.match(confidenceText(once.confidence!), /^low confidence$/);
  const short = (rate: number) => stage(rate, { iterations: rate * 5, ok: 300, rateLimited: rate * 5 - 300 });
  const underDelivered = analyseLadder([stage(10), stage(40, { ok: 300, rateLimited: 100 }), short(80), short(120)], []);
  assert.deepEqual(
    [underDelivered.confidence?.level, underDelivered.confidence?.basis],
    ['low', 'k6 offered less than 90% of every drained rung: the estimate can only read low'],
  );
  assert.equal(analyseLadder([stage(10), stage(20)], []).confidence, null, 'no limit, no confidence');
});

test('a split runner starts its ladder at the common start, or, when its setup() ended later, at the next common tick', () => {
  const at = 1_000_000;
  assert.equal(startDelayMs(at, at - 2500, 10_000), 2500, 'early: waits for the start');
  assert.equal(startDelayMs(at, at, 10_000), 0);
  // Runners late by 41 s, 47.8 s and 48.9 s all start at +50 s, not each at its own instant; one late by 50.1 s, at +60 s.
  const starts = [41_000, 47_800, 48_900, 50_100].map((late) => at + late + startDelayMs(at, at + late, 10_000) - at);
  assert.deepEqual(starts, [50_000, 50_000, 50_000, 60_000]);
  assert.equal(startDelayMs(at, at + 20_000, 10_000), 0, 'on a tick: at once');
});
