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

/** A clock the test moves by hand: its timers fire only when it is moved to them, so no assertion reads the wall. */
function handClock() {
  let now = 1_000_000;
  const timers: Array<{ at: number; fn: () => void }> = [];
  return {
    now: () => now,
    after(ms: number, fn: () => void) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => void timers.splice(timers.indexOf(timer), 1);
    },
    /** Moves to the earliest timer and fires it; false when none is set. */
    next(): boolean {
      timers.sort((a, b) => a.at - b.at);
      const timer = timers.shift();
      if (!timer) return false;
      now = timer.at;
      timer.fn();
      return true;
    },
  };
}

/** Resolves once `ready()` holds, looking again each millisecond: the sockets take what real time they need. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 1));
}

test("sends wait their turn at /pace, on the pace's clock: the first at once, each next a whole slot later; every answer says the run is paced", async () => {
  const { server, url } = await target(() => undefined);
  const clock = handClock();
  const proxy = await startAuthProxy(url, CREDENTIALS, { pace: new RunPace(undefined, 20), changed: () => {}, clock });
  try {
    const started = clock.now();
    const released: number[] = [];
    const turn = async (first: boolean) => {
      await (await request(`${proxy.url}${PACE_PATH}${first ? '?first=1' : ''}`)).body.dump();
      released.push(clock.now() - started);
    };
    const turns = Promise.all([turn(false), turn(false), turn(true), turn(false), turn(true)]);
    // The clock moves only once the send it let go has come back, so each is seen at the time the pace let it go.
    await until(() => released.length === 1);
    for (let sent = 2; sent <= 5; sent++) {
      await until(() => clock.next());
      await until(() => released.length === sent);
    }
    await turns;
    assert.deepEqual(released, [0, 50, 100, 150, 200], 'five sends at 20/s: 50 ms apart on the clock, never closer');
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
