// The run's proxy as the run's one pace: sends wait their turn at /pace, never faster than the limit; every answer
// says the run is paced, and the target's throttles lower the limit.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { request } from 'undici';
import { LEARNED_HERE, RunPace } from '../../http/run-pace.ts';
import { PACE_HEADER, PACE_PATH, startAuthProxy } from './auth-proxy.ts';

const CREDENTIALS = { login: 'qa', password: 'secret-pass-1' };

/** A target answering 200, or `throttle()`'s status with Retry-After: 1, to every request. */
async function target(throttle: () => number | undefined): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    const status = throttle();
    if (status) res.writeHead(status, { 'retry-after': '1' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('sends wait their turn at /pace, never faster than the limit, and every answer says the run is paced', async () => {
  const { server, url } = await target(() => undefined);
  const proxy = await startAuthProxy(url, CREDENTIALS, { pace: new RunPace({ perSecond: 20, from: 'MAX_RPS' }), changed: () => {} });
  try {
    const started = performance.now();
    const turn = async (first: boolean) => (await request(`${proxy.url}${PACE_PATH}${first ? '?first=1' : ''}`)).body.dump();
    await Promise.all([turn(false), turn(false), turn(true), turn(false), turn(true)]);
    const took = performance.now() - started;
    // The first send after an idle spell leaves the next half a slot later (http/run-pace.ts: a late send is caught up
    // within half a slot, none more is banked), so four slots less half of one, less 5 ms of the clocks' rounding.
    assert.ok(took >= 4 * 50 - 25 - 5, `five sends at 20/s take 175 ms at least: ${took.toFixed(0)} ms`);
    const answer = await request(`${proxy.url}/valid/api/v2/conversations`);
    await answer.body.dump();
    assert.equal(answer.headers[PACE_HEADER], '20');
  } finally {
    await proxy.close();
    server.close();
  }
});

test("the target's throttles of the run's credentials teach the run's pace its limit; unpaced, an answer says nothing of it", async () => {
  let n = 0;
  // Lets 10 through, then refuses all: the bucket of a target that allows fewer than the run sends.
  const { server, url } = await target(() => (++n > 10 ? 429 : undefined));
  const pace = new RunPace(undefined);
  let changes = 0;
  const proxy = await startAuthProxy(url, CREDENTIALS, { pace, changed: () => changes++ });
  try {
    const first = await request(`${proxy.url}/valid/api/v2/conversations`);
    await first.body.dump();
    assert.equal(first.headers[PACE_HEADER], undefined);
    for (let i = 0; i < 10; i++) await (await request(`${proxy.url}/valid/api/v2/conversations`)).body.dump();
    const throttled = await request(`${proxy.url}/valid/api/v2/conversations`);
    await throttled.body.dump();
    assert.equal(throttled.statusCode, 429);
    assert.equal(changes, 1);
    assert.equal(pace.limit?.from, LEARNED_HERE);
    assert.equal(throttled.headers[PACE_HEADER], String(pace.limit?.perSecond));
  } finally {
    await proxy.close();
    server.close();
  }
});
