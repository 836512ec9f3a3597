// The live stream (--live): seeded changes that replay exactly, that never touch the seeded history nor the status of
// the API's dialogs, its counter, and its timer, which close() stops. Ticks are driven with live.step(); the rate of
// SLOW keeps the timer from firing during a test.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { StatusKey } from './config.ts';
import type { LiveChange } from './live.ts';
import { FIXED_NOW, simulator, type TestSimulator } from './test-support.ts';

const SLOW = { perSecond: 0.001 };
/** Seeded dialogs lie before the anchor (test-support pins it); the run's own are created at FIXED_NOW or later. */
const SEEDED = '/api/v2/conversations?CreatedTo=2026-11-20T00:00:00Z&PageCount=1000';
const ALL = '/api/v2/conversations?PageCount=5000';
const NEXT: Partial<Record<StatusKey, StatusKey>> = { created: 'inProcess', inProcess: 'completed', operator: 'completed' };

const items = (list: Record<string, any>) =>
  Object.keys(list)
    .filter((k) => k !== 'meta')
    .map((k) => list[k]);
const record = async (sim: TestSimulator, uuid: string) => (await sim.call('GET', `/api/v2/conversation/${uuid}`)).json();

/** What the API shows of the dialogs a list holds: the list itself and every record (file links without the port). */
async function snapshot(sim: TestSimulator, path: string): Promise<unknown[]> {
  const list = (await sim.call('GET', path)).json();
  const records = await Promise.all(items(list).map(async (d) => (await sim.call('GET', `/api/v2/conversation/${d.id}`)).body.replaceAll(sim.url, '')));
  return [list, ...records.map((text) => JSON.parse(text))];
}

async function closing<T>(sims: TestSimulator[], body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    await Promise.all(sims.map((s) => s.close()));
  }
}

describe('live stream', () => {
  it('is off by default', async () => {
    const sim = await simulator();
    await closing([sim], async () => assert.equal(sim.live, undefined));
  });

  it('replays the same changes and the same store for the same seed, and other ones for another seed', async () => {
    const sims = await Promise.all([simulator({ live: SLOW }), simulator({ live: SLOW }), simulator({ seed: 2, live: SLOW })]);
    await closing(sims, async () => {
      const [a, b, other] = sims.map((s) => s.live!.step(300));
      assert.deepEqual(a, b);
      assert.notDeepEqual(a, other);
      assert.deepEqual(await snapshot(sims[0]!, ALL), await snapshot(sims[1]!, ALL));
      const v1 = await Promise.all(sims.slice(0, 2).map(async (s) => (await s.call('GET', '/api/v1/conversations?PageCount=5000')).body));
      assert.equal(v1[0], v1[1]);
    });
  });

  it('shifts neither the seeded data nor the randomness of what the API creates', async () => {
    const [plain, live] = await Promise.all([simulator(), simulator({ live: SLOW })]);
    await closing([plain, live], async () => {
      live.live!.step(200);
      assert.deepEqual(await snapshot(live, SEEDED), await snapshot(plain, SEEDED));
      const [a, b] = await Promise.all(
        [plain, live].map(async (s) => (await s.call('POST', '/api/v2/dialog/101/create', { body: { response: true } })).json()),
      );
      assert.equal(a.dialogUUID, b.dialogUUID, 'the API keeps its own random stream');
      assert.notEqual(a.dialogId, b.dialogId, 'V1 ids are one sequence, shared with the stream');
    });
  });

  it('makes each kind of change by its rules, leaving the seeded history and the state of API dialogs alone', async () => {
    let clock = FIXED_NOW;
    const sim = await simulator({ live: SLOW, now: () => clock });
    await closing([sim], async () => {
      const create = async (bot: number) => (await sim.call('POST', `/api/v2/dialog/${bot}/create`, { body: { response: true } })).json().dialogUUID;
      const running = await create(101);
      const handed = await create(505);
      assert.equal((await sim.call('POST', `/api/v2/conversation/${handed}/stop`)).status, 204);
      const waiting = (await sim.call('GET', '/api/v2/dialog/202/create')).json().dialogUUID;
      const seeded = await snapshot(sim, SEEDED);
      const [runningBefore, handedBefore, waitingBefore] = await Promise.all([running, handed, waiting].map((uuid) => record(sim, uuid)));
      const totalBefore = (await sim.call('GET', ALL)).json().meta.pagination.total;

      clock += 60_000;
      const changes = sim.live!.step(400);
      assert.equal(changes.length, 400, 'an ordinary bot exists, so every tick makes a change');
      const count = (kind: LiveChange['kind']) => changes.filter((c) => c.kind === kind).length;
      assert.ok(count('new') > 0 && count('message') > 0 && count('status') > 0, JSON.stringify([count('new'), count('message'), count('status')]));

      // The stream's own dialogs, followed from their creation: only they change status, and only forward.
      const states = new Map<string, StatusKey>();
      for (const c of changes) {
        if (c.kind === 'new') {
          assert.ok(!states.has(c.uuid) && c.state !== 'completed', `new dialog ${c.uuid} in ${c.state}`);
          states.set(c.uuid, c.state);
        } else if (c.kind === 'status') {
          const from = states.get(c.uuid);
          assert.ok(from, `status change of ${c.uuid}, which the stream did not create`);
          assert.equal(c.state, NEXT[from], `${from} -> ${c.state}`);
          states.set(c.uuid, c.state);
        } else {
          assert.ok(c.uuid === running || states.get(c.uuid) === 'inProcess', `message on ${c.uuid}, not a running dialog of the run`);
          assert.equal(c.state, 'inProcess');
        }
      }
      assert.ok(
        changes.some((c) => c.kind === 'message' && c.uuid === running),
        'the running API dialog gets bot messages',
      );

      assert.deepEqual(await snapshot(sim, SEEDED), seeded, 'seeded dialogs never change');
      assert.deepEqual(await record(sim, handed), handedBefore);
      assert.deepEqual(await record(sim, waiting), waitingBefore);
      const after = await record(sim, running);
      assert.deepEqual(
        { status: after.status, data: after.data, updated: after.updated, duration: after.duration },
        { status: runningBefore.status, data: runningBefore.data, updated: '2026-11-20T10:01:00+00:00', duration: 60 },
        'a bot message moves updated and duration, and adds no data item',
      );
      const list = (await sim.call('GET', ALL)).json();
      assert.equal(list.meta.pagination.total, totalBefore + count('new'), 'cached lists are dropped on every change');
      const fresh = items(list).find((d) => d.id === changes.find((c) => c.kind === 'new')!.uuid);
      assert.equal(fresh.source, 'web');
      assert.ok(!(await record(sim, fresh.id)).data.some((d: { type: string }) => d.type !== 'Text'));
    });
  });

  it('makes no change without candidates, and never takes a bot with a custom block for a new dialog', async () => {
    const bots = [
      { id: 1, name: 'Block bot', weight: 10, blocked: false, customBlockUrl: 'http://127.0.0.1:9/unreachable' },
      { id: 2, name: 'Plain but blocked', weight: 0, blocked: true, customBlockUrl: null },
    ];
    const sim = await simulator({ live: SLOW, config: { bots } });
    await closing([sim], async () => {
      assert.deepEqual(sim.live!.step(5), []);
      assert.equal(sim.live!.changes(), 0);
      const started = (await sim.call('POST', '/api/v2/dialog/1/create', { body: { response: true } })).json().dialogUUID;
      assert.deepEqual(
        sim.live!.step(3).map((c) => [c.kind, c.uuid]),
        Array(3).fill(['message', started]),
      );
    });
  });

  it('counts its changes, made by step() or by the timer, and close() stops the timer', async () => {
    const stepped = await simulator({ live: SLOW });
    await closing([stepped], async () => {
      assert.equal(stepped.live!.changes(), 0);
      stepped.live!.step(7);
      assert.equal(stepped.live!.changes(), 7);
    });

    const timed = await simulator({ live: { perSecond: 2000 } });
    const live = timed.live!;
    const from = live.changes();
    // 2000 changes per second: the first firing (10 ms) makes about 20.
    for (let waited = 0; live.changes() < from + 10; waited += 2) {
      assert.ok(waited < 2000, 'the timer makes changes');
      await sleep(2);
    }
    await timed.close();
    const closed = live.changes();
    await sleep(25);
    assert.equal(live.changes(), closed);
  });

  it('refuses a rate that is not a positive number', async () => {
    for (const perSecond of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await assert.rejects(simulator({ live: { perSecond } }), /live\.perSecond must be a positive number/);
    }
  });
});
