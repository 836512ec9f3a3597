// Hidden limits are off by default; once configured they answer their own status and body. Rate limiting is a
// token bucket, a fixed window or a sliding-window log per credential, and request bodies are capped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RateLimitConfig } from './config.ts';
import { HttpError } from './exchange.ts';
import { RateLimiter } from './limits.ts';
import { findDialog, simulator, type TestSimulator } from './test-support.ts';

async function withSimulator(config: Parameters<typeof simulator>[0], body: (sim: TestSimulator) => Promise<void>): Promise<void> {
  const sim = await simulator(config);
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

describe('hidden limits', () => {
  it('are all off by default', () =>
    withSimulator({}, async (sim) => {
      assert.equal((await sim.call('GET', '/api/v2/conversations?PageCount=100000')).status, 200);
      const variables = encodeURIComponent(JSON.stringify({ big: 'x'.repeat(10_000) }));
      assert.equal((await sim.call('GET', `/api/v1/dialog/101/create?variables=${variables}`)).status, 200);
      for (let i = 0; i < 50; i++) assert.equal((await sim.call('GET', '/api/v1/conversations')).status, 200);
    }));

  it('reject a PageCount above maxPageCount with 400 by default', () =>
    withSimulator({ config: { limits: { maxPageCount: { value: 100 } } } }, async (sim) => {
      assert.equal((await sim.call('GET', '/api/v2/conversations?PageCount=100')).status, 200);
      const res = await sim.call('GET', '/api/v2/conversations?PageCount=101');
      assert.equal(res.status, 400);
      assert.match(res.json().detail, /PageCount is 101, above the limit of 100/);
    }));

  it('answer the configured status and body', () =>
    withSimulator({ config: { limits: { maxTextLength: { value: 5, status: 422, body: { error: 'text too long' } } } } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { text: '12345' } })).status, 204);
      const res = await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { text: '123456' } });
      assert.equal(res.status, 422);
      assert.deepEqual(res.json(), { error: 'text too long' });
    }));

  it('limit the size of variables on create', () =>
    withSimulator({ config: { limits: { maxVariablesBytes: { value: 20, status: 413 } } } }, async (sim) => {
      assert.equal((await sim.call('GET', `/api/v2/dialog/101/create?variables=${encodeURIComponent('{"a":"b"}')}`)).status, 200);
      const big = JSON.stringify({ variables: JSON.stringify({ name: 'x'.repeat(30) }) });
      assert.equal((await sim.call('POST', '/api/v2/dialog/101/create', { body: big })).status, 413);
    }));

  it('rate-limit each credential with a token bucket, answering 429 with Retry-After', () =>
    withSimulator({ config: { limits: { rate: { perSecond: 1, burst: 3 } } } }, async (sim) => {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await sim.call('GET', '/api/v1/conversations?PageCount=1'));
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 429],
      );
      assert.equal(answers[0]!.headers['x-ratelimit-limit'], '3');
      assert.equal(answers[0]!.headers['x-ratelimit-remaining'], '2');
      assert.equal(answers[3]!.headers['retry-after'], '1');
      assert.equal(answers[3]!.contentType, 'application/problem+json');
      // Another credential has its own bucket: a vertex token (forged here, so 403 once admitted).
      const vertex = await sim.call('POST', '/api/vertex/v1/complete', { body: { token: 'another' } });
      assert.equal(vertex.status, 403);
    }));

  it('serve a PageCount above a clamped maxPageCount as the maximum', () =>
    withSimulator({ config: { limits: { maxPageCount: { value: 50, clamp: true } } } }, async (sim) => {
      for (const [asked, served] of [
        [80, 50],
        [50, 50],
        [30, 30],
      ]) {
        const res = await sim.call('GET', `/api/v1/conversations?PageCount=${asked}`);
        assert.equal(res.status, 200);
        assert.equal(res.json().meta.pagination.per_page, served);
        assert.equal(res.json().meta.pagination.count, served);
      }
      assert.equal((await sim.call('GET', '/api/v1/conversations?PageCount=0')).status, 400);
    }));

  // The clock is pinned at FIXED_NOW (2026-11-20T10:00:00Z), so the bucket never refills during a test.
  for (const [rate, retryAfter] of [
    [{ perSecond: 1, burst: 1, retryAfter: 'http-date' }, 'Fri, 20 Nov 2026 10:00:01 GMT'],
    [{ perSecond: 4, burst: 1, retryAfter: 'http-date' }, 'Fri, 20 Nov 2026 10:00:01 GMT'],
    [{ perSecond: 1, burst: 1, retryAfter: 'http-date', retryAfterSeconds: 30 }, 'Fri, 20 Nov 2026 10:00:30 GMT'],
    [{ perSecond: 0.5, burst: 1, retryAfter: 'seconds' }, '2'],
    [{ perSecond: 1, burst: 1, retryAfter: 'none' }, undefined],
  ] as const) {
    it(`answer Retry-After ${retryAfter ?? 'not at all'} for ${JSON.stringify(rate)}`, () =>
      withSimulator({ config: { limits: { rate } } }, async (sim) => {
        assert.equal((await sim.call('GET', '/api/v1/conversations?PageCount=1')).status, 200);
        const limited = await sim.call('GET', '/api/v1/conversations?PageCount=1');
        assert.equal(limited.status, 429);
        assert.equal(limited.headers['retry-after'], retryAfter);
      }));
  }

  it('name the quota in the IETF draft RateLimit-* headers, or in none', async () => {
    await withSimulator({ config: { limits: { rate: { perSecond: 1, burst: 3, headers: 'ratelimit' } } } }, async (sim) => {
      const first = await sim.call('GET', '/api/v1/conversations?PageCount=1');
      assert.deepEqual([first.headers['ratelimit-limit'], first.headers['ratelimit-remaining'], first.headers['ratelimit-reset']], ['3', '2', '1']);
      assert.equal(first.headers['x-ratelimit-limit'], undefined);
      await sim.call('GET', '/api/v1/conversations?PageCount=1');
      await sim.call('GET', '/api/v1/conversations?PageCount=1');
      const limited = await sim.call('GET', '/api/v1/conversations?PageCount=1');
      assert.equal(limited.status, 429);
      assert.deepEqual([limited.headers['ratelimit-remaining'], limited.headers['ratelimit-reset'], limited.headers['retry-after']], ['0', '3', '1']);
    });
    await withSimulator({ config: { limits: { rate: { perSecond: 1, burst: 1, headers: 'none' } }, errors: { format: 'envelope' } } }, async (sim) => {
      await sim.call('GET', '/api/v1/conversations?PageCount=1');
      const limited = await sim.call('GET', '/api/v1/conversations?PageCount=1');
      assert.equal(limited.status, 429);
      assert.deepEqual(
        Object.keys(limited.headers).filter((h) => h.includes('ratelimit')),
        [],
      );
      assert.equal(limited.json().error.code, 429);
    });
  });

  it("announce the current IETF draft's RateLimit-Policy and RateLimit, and lie when told to", async () => {
    await withSimulator({ config: { limits: { rate: { kind: 'fixed-window', perSecond: 3, burst: 1, headers: 'ietf' } } } }, async (sim) => {
      const first = await sim.call('GET', '/api/v1/conversations?PageCount=1');
      assert.deepEqual([first.headers['ratelimit-policy'], first.headers.ratelimit], ['"default";q=3;w=1', '"default";r=2;t=1']);
    });
    // A bucket's policy: its rate over the shortest whole-second window that holds its burst.
    await withSimulator({ config: { limits: { rate: { perSecond: 4, burst: 10, headers: 'ietf' } } } }, async (sim) => {
      assert.equal((await sim.call('GET', '/api/v1/conversations?PageCount=1')).headers['ratelimit-policy'], '"default";q=12;w=3');
    });
    await withSimulator({ config: { limits: { rate: { kind: 'fixed-window', perSecond: 3, burst: 1, lying: true } } } }, async (sim) => {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await sim.call('GET', '/api/v1/conversations?PageCount=1'));
      assert.deepEqual(
        answers.map((a) => [a.status, a.headers['x-ratelimit-limit'], a.headers['x-ratelimit-remaining']]),
        [
          [200, '6', '5'],
          [200, '6', '4'],
          [200, '6', '3'],
          [429, '6', '3'],
        ],
      );
    });
  });

  it('cap request bodies at 1 MiB with 413', () =>
    withSimulator({}, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      const res = await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { text: 'x'.repeat(1024 * 1024) } });
      assert.equal(res.status, 413);
      assert.equal((await sim.call('GET', '/api/v1/conversations')).status, 200);
    }));
});

/** What a limiter answers to requests at `times` (ms): the status, and Retry-After of a refusal. */
function answers(rate: RateLimitConfig, times: number[]): string[] {
  let now = 0;
  const limiter = new RateLimiter(rate, () => now);
  return times.map((t) => {
    now = t;
    try {
      limiter.take('login');
      return '200';
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      return `${err.status} ${err.headers?.['Retry-After'] ?? '-'}`;
    }
  });
}

describe('rate limiter kinds', () => {
  it('a token bucket lets its burst through at once, then one per 1/perSecond', () => {
    assert.deepEqual(answers({ perSecond: 2, burst: 2 }, [0, 0, 0, 400, 500, 600]), ['200', '200', '429 1', '429 1', '200', '429 1']);
  });

  it('a fixed window lets perSecond through in each second of the clock, a burst of twice that across its edge', () => {
    assert.deepEqual(answers({ kind: 'fixed-window', perSecond: 2, burst: 1 }, [900, 950, 990, 1000, 1010, 1020]), [
      '200',
      '200',
      '429 1',
      '200',
      '200',
      '429 1',
    ]);
    // Retry-After rounds the rest of the window up.
    assert.deepEqual(answers({ kind: 'fixed-window', perSecond: 1, burst: 1, retryAfter: 'http-date' }, [0, 10]), ['200', '429 Thu, 01 Jan 1970 00:00:01 GMT']);
  });

  it('a sliding window lets perSecond through in any second, refusals not counted', () => {
    assert.deepEqual(answers({ kind: 'sliding-window', perSecond: 2, burst: 1 }, [900, 950, 990, 1000, 1899, 1900, 1950, 1951]), [
      '200',
      '200',
      '429 1',
      '429 1',
      '429 1',
      '200',
      '200',
      '429 1',
    ]);
  });

  it('refuses with the configured status and Retry-After: none, or a fixed 0', () => {
    assert.deepEqual(answers({ kind: 'sliding-window', perSecond: 1, burst: 1, status: 503, retryAfter: 'none' }, [0, 1]), ['200', '503 -']);
    assert.deepEqual(answers({ kind: 'fixed-window', perSecond: 1, burst: 1, retryAfterSeconds: 0 }, [0, 1]), ['200', '429 0']);
  });
});
