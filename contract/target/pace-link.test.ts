// The run's one pace, told by every worker of its sends: sends of the run's credentials wait their turn, never faster
// than the limit; the target's throttles teach it the limit, and every worker hears that the run is paced.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { LEARNED_HERE, RunPace } from '../../http/run-pace.ts';
import { PaceGone, PaceLink, startPaceServer } from './pace-link.ts';

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

/** Resolves once `ready()` holds, looking again each millisecond (the sockets take what real time they need); fails after 5 s. */
async function until(ready: () => boolean): Promise<void> {
  for (const end = Date.now() + 5_000; !ready(); await new Promise((resolve) => setTimeout(resolve, 1)))
    if (Date.now() > end) throw new Error('never came to hold within 5 s');
}

test("sends wait their turn, on the pace's clock: the first at once, each next a whole slot later, the probes' first; a paced run says so to every worker", async () => {
  const clock = handClock();
  const server = await startPaceServer({ pace: new RunPace(undefined, 20), changed: () => {}, clock });
  // Told nothing at its start (their environment said unpaced): each hears the run is paced when it connects.
  const link = new PaceLink(server.address, false);
  const other = new PaceLink(server.address, false);
  other.sent(clock.now(), false);
  other.answered(clock.now(), clock.now(), false, 200, {});
  try {
    const started = clock.now();
    const released: string[] = [];
    const turn = async (who: string, first: boolean) => {
      await link.turn(first);
      released.push(`${who} ${clock.now() - started}`);
    };
    // On one connection, so that they come in this order.
    const turns = Promise.all([turn('a', false), turn('b', false), turn('probe', true)]);
    await until(() => released.length === 1);
    for (let sent = 2; sent <= 3; sent++) {
      await until(() => clock.next());
      await until(() => released.length === sent);
    }
    await turns;
    // The probe's turn went ahead of b's, which waited; never two sends closer than 1/20 s.
    assert.deepEqual(released, ['a 0', 'probe 50', 'b 100']);
    await until(() => link.paced && other.paced);
  } finally {
    link.close();
    other.close();
    await server.close();
  }
});

test("the target's throttles teach the pace its limit, and every worker hears the run is paced; its answers before that, nothing", async () => {
  const pace = new RunPace(undefined);
  let changes = 0;
  const server = await startPaceServer({ pace, changed: () => changes++ });
  const link = new PaceLink(server.address, false);
  const other = new PaceLink(server.address, false);
  try {
    let at = Date.now();
    const exchange = (from: PaceLink, held: boolean, status: number) => {
      at += 20;
      from.sent(at, held);
      from.answered(at + 5, at, held, status, status === 429 ? { 'retry-after': '1' } : { 'content-type': 'application/json' });
    };
    for (let i = 0; i < 10; i++) exchange(other, false, 200);
    for (let i = 0; i < 10; i++) exchange(link, true, 200);
    // A request that got no answer: its send is done all the same.
    link.sent(at + 1, true);
    link.lost(at + 2);
    // An unpaced run's turn goes at once, after the events its link sent before it: what they taught is known then.
    await Promise.all([link.turn(false), other.turn(false)]);
    assert.equal(changes, 0);
    assert.equal(pace.record().limit, null);
    exchange(link, true, 429);
    await until(() => changes === 1);
    assert.equal(pace.limit?.from, LEARNED_HERE);
    // The worker that met the throttle and the one that did not.
    await until(() => link.paced && other.paced);
  } finally {
    link.close();
    other.close();
    await server.close();
  }
});

test('a turn asked of a pace that is gone fails, saying where it was', async () => {
  const server = await startPaceServer({ pace: new RunPace(undefined), changed: () => {} });
  const address = server.address;
  await server.close();
  const link = new PaceLink(address, false);
  try {
    assert.equal(link.paced, false);
    await assert.rejects(link.turn(false), (err: Error) => err instanceof PaceGone && err.message.includes(address));
    // Gone for good: no second connection is tried, the next turn fails at once.
    link.sent(Date.now(), true);
    await assert.rejects(link.turn(true), PaceGone);
  } finally {
    link.close();
  }
});

test("another program on the pace's port is not heard: its connection is closed, the run's links go on", async () => {
  const pace = new RunPace(undefined);
  const server = await startPaceServer({ pace, changed: () => {} });
  const link = new PaceLink(server.address, false);
  try {
    const [host, port] = server.address.split(':');
    // Not JSON; JSON of no event; an event's name with a field of the wrong type.
    for (const said of ['GET / HTTP/1.1\r\n\r\n', '1\n', '{}\n', '{"answered":1,"sentAt":1,"held":true,"status":429,"headers":{"retry-after":[1]}}\n']) {
      const stranger = connect({ host, port: Number(port) });
      stranger.on('error', () => {});
      stranger.end(`${said}{"turn":1,"first":false}\n`);
      await once(stranger, 'close');
    }
    await link.turn(false);
    assert.equal(pace.record().limit, null);
  } finally {
    link.close();
    await server.close();
  }
});

test('a process gone with its sends on their way leaves the pace idle, not busy for the rest of the run', async () => {
  class Counting extends RunPace {
    outstanding = 0;
    override busy(nowMs: number): void {
      this.outstanding++;
      super.busy(nowMs);
    }
    override done(nowMs: number): void {
      this.outstanding--;
      super.done(nowMs);
    }
  }
  const pace = new Counting(undefined);
  const server = await startPaceServer({ pace, changed: () => {} });
  const link = new PaceLink(server.address, false);
  const other = new PaceLink(server.address, false);
  try {
    link.sent(Date.now(), true);
    link.sent(Date.now(), true);
    link.answered(Date.now(), Date.now(), true, 200, {});
    other.sent(Date.now(), true);
    await until(() => pace.outstanding === 2);
    link.close();
    await until(() => pace.outstanding === 1);
    other.close();
    await until(() => pace.outstanding === 0);
  } finally {
    await server.close();
  }
});
