import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffSeconds, rateLimitFinding, rateLimitHeaders, retryAfterForm, retryAfterSeconds, throttleDecision, type ThrottleRecord } from './throttle.ts';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const settings = { maxRetries: 3, maxWaitSeconds: 20 };
const half = () => 0.5;

test('Retry-After is read in seconds and as an HTTP date', () => {
  assert.equal(retryAfterSeconds('7', NOW), 7);
  assert.equal(retryAfterSeconds('Mon, 23 Nov 2026 10:00:05 GMT', NOW), 5);
  assert.equal(retryAfterSeconds('Mon, 23 Nov 2026 09:59:00 GMT', NOW), 0, 'a date in the past means now');
  assert.equal(retryAfterSeconds('soon', NOW), undefined);
  assert.equal(retryAfterSeconds(undefined, NOW), undefined);
  assert.deepEqual(['3', 'Mon, 23 Nov 2026 10:00:05 GMT', undefined, 'soon'].map(retryAfterForm), ['seconds', 'http-date', 'absent', 'unreadable']);
});

test('429 and 503 are waited out as the target says, else with a growing, jittered backoff', () => {
  const ask = (status: number, headers: Record<string, string>, attempt = 1, waited = 0) =>
    throttleDecision({ status, headers }, attempt, waited, settings, half, NOW);
  assert.deepEqual(ask(200, {}), { throttled: false });
  assert.deepEqual(ask(400, { 'Retry-After': '1' }), { throttled: false });
  assert.deepEqual(ask(429, { 'Retry-After': '2' }), { throttled: true, retry: true, waitSeconds: 2, basis: 'retry-after' });
  assert.deepEqual(ask(503, { 'retry-after': 'Mon, 23 Nov 2026 10:00:03 GMT' }), { throttled: true, retry: true, waitSeconds: 3, basis: 'retry-after' });
  // A target whose clock is 90 s behind ours: its date Retry-After is read against its own Date header.
  const behind = ask(429, { date: 'Mon, 23 Nov 2026 09:58:30 GMT', 'retry-after': 'Mon, 23 Nov 2026 09:58:34 GMT' });
  assert.deepEqual(behind, { throttled: true, retry: true, waitSeconds: 4, basis: 'retry-after' });
  const waits = [1, 2, 3].map((attempt) => (ask(429, {}, attempt) as { waitSeconds: number }).waitSeconds);
  assert.deepEqual(waits, [0.375, 0.75, 1.5]);
  for (const r of [0, 0.999]) {
    const w = backoffSeconds(4, () => r);
    assert.ok(w >= 2 && w < 4, `attempt 4 waits between half and the whole step, got ${w}`);
  }
  assert.ok(backoffSeconds(30, () => 1) <= 30, 'the step is capped');
});

test('retries per request and waiting per run are bounded, and the refusal says which bound', () => {
  const late = throttleDecision({ status: 429, headers: {} }, 4, 0, settings, half, NOW);
  assert.ok(!('retry' in late && late.retry) && /after 3 retries \(THROTTLE_MAX_RETRIES\)/.test((late as { why: string }).why));
  const long = throttleDecision({ status: 429, headers: { 'retry-after': '30' } }, 1, 0, settings, half, NOW);
  assert.match((long as { why: string }).why, /asks for 30.0 s more and only 20.0 s of THROTTLE_MAX_WAIT_S=20/);
  const spent = throttleDecision({ status: 429, headers: { 'retry-after': '5' } }, 1, 18, settings, half, NOW);
  assert.match((spent as { why: string }).why, /only 2.0 s/);
});

test('rate-limit headers are picked out whatever their style', () => {
  assert.deepEqual(
    rateLimitHeaders({ 'Retry-After': '1', 'X-RateLimit-Limit': '20', 'RateLimit-Remaining': '0', RateLimit: 'limit=20', 'content-type': 'x' }),
    {
      'retry-after': '1',
      'x-ratelimit-limit': '20',
      'ratelimit-remaining': '0',
      ratelimit: 'limit=20',
    },
  );
});

test('the run is "limited" whenever any request was throttled; the compared value holds no timing', () => {
  const record = (over: Partial<ThrottleRecord>): ThrottleRecord => ({
    operationId: 'getV2Conversations',
    status: 429,
    retryAfter: '1',
    headers: { 'retry-after': '1', 'x-ratelimit-limit': '20' },
    waitSeconds: 1,
    requestNumber: 21,
    atSeconds: 1.2,
    ...over,
  });
  assert.deepEqual(rateLimitFinding([], 500, 12).observed, { limited: false });
  const finding = rateLimitFinding(
    [record({ atSeconds: 3 }), record({ status: 503, retryAfter: null, headers: {}, atSeconds: 1.2, requestNumber: 31 })],
    500,
    12,
  );
  assert.deepEqual(finding.observed, { limited: true, statuses: [429, 503], retryAfter: ['absent', 'seconds'], headers: ['retry-after', 'x-ratelimit-limit'] });
  assert.match(finding.evidence, /first throttled: 503 on getV2Conversations after 31 requests of its client and 1.2 s/);
  assert.match(finding.evidence, /throttled answers: 2 of 500 requests in 12.0 s; waited 2.0 s/);
});

test('a run paced at a limit it carried in meets no throttle and records the refusal as the run that found the limit met it', () => {
  const refusal = { limited: true as const, statuses: [429], retryAfter: ['seconds'], headers: ['retry-after'] };
  const carried = { limit: { perSecond: 19, from: 'the run of 2026-11-25T10:00:00.000Z' }, refusal };
  const paced = rateLimitFinding([], 500, 27, carried);
  assert.deepEqual(paced.observed, refusal);
  assert.match(
    paced.evidence,
    /^not met in this run: no 429 or 503 among 500 requests in 27.0 s, paced at the limit of 19\/s that the run of 2026-11-25T10:00:00.000Z found/,
  );
  // Met again (the limit went down): what this run met, not what it carried.
  const met = rateLimitFinding(
    [{ operationId: 'getV2Conversations', status: 503, retryAfter: '1', headers: {}, waitSeconds: 1, requestNumber: 3, atSeconds: 2 }],
    500,
    27,
    carried,
  );
  assert.deepEqual(met.observed, { limited: true, statuses: [503], retryAfter: ['seconds'], headers: [] });
  assert.deepEqual(rateLimitFinding([], 500, 27, { ...carried, refusal: { limited: false } }).observed, { limited: false });
});
