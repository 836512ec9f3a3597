import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseLadder, rejectionReport, type LadderStage } from './ladder-analysis.ts';
import { geometricRates, ladder } from './load-shapes.ts';

/** Runs a ladder against a token bucket (perSecond, burst) with evenly spaced arrivals, as k6 would offer them. */
function ladderAgainstBucket(perSecond: number, burst: number, rates: number[], stageSeconds: number): LadderStage[] {
  let tokens = burst;
  let now = 0;
  return ladder('getV2Conversations', 'list', rates, stageSeconds).steps.map((step) => {
    const stage: LadderStage = { name: step.scenario, targetRate: step.targetRate, durationSeconds: stageSeconds, iterations: 0, droppedIterations: 0, ok: 0, rateLimited: 0, failed: 0, p95Ms: 2 };
    const arrivals = step.targetRate * stageSeconds;
    for (let i = 0; i < arrivals; i++) {
      const at = step.startSeconds + i / step.targetRate;
      tokens = Math.min(burst, tokens + (at - now) * perSecond);
      now = at;
      stage.iterations++;
      if (tokens >= 1) {
        tokens -= 1;
        stage.ok++;
      } else {
        stage.rateLimited++;
      }
    }
    return stage;
  });
}

const sample = {
  status: 429,
  headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0' },
  body: '{"title":"Too Many Requests"}',
};

test('finds a token-bucket rate limit within ±10% over many limits, bursts (2 or more) and ladders', () => {
  for (const perSecond of [7, 20, 33, 40, 55, 90]) {
    for (const burst of [2, 10, perSecond]) {
      for (const [factor, stageSeconds] of [[1.25, 6], [1.5, 10], [1.2, 5]] as const) {
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
  assert.deepEqual(calm.stages.map((s) => s.targetRate), [10, 20]);
});
