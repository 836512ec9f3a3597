// The configuration: deep merge over the defaults, refusal of unknown or ill-typed settings, and choices that
// really change the answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { findDialog, simulator } from './test-support.ts';

describe('simulator configuration', () => {
  it('merges objects key by key and replaces arrays and scalars', () => {
    const config = resolveConfig({ statuses: { operator: 'waiting' }, send: { textFields: ['message', 'text'] } });
    assert.equal(config.statuses.operator, 'waiting');
    assert.equal(config.statuses.completed, DEFAULT_CONFIG.statuses.completed);
    assert.deepEqual(config.send.textFields, ['message', 'text']);
    assert.deepEqual(resolveConfig(undefined), DEFAULT_CONFIG);
  });

  it('has the defaults of .env.example', () => {
    assert.equal(DEFAULT_CONFIG.auth.login, 'qa-contract');
    assert.equal(DEFAULT_CONFIG.auth.password, 'sim-secret-7f3a9c');
    assert.deepEqual(DEFAULT_CONFIG.bots.filter((b) => !b.blocked).map((b) => b.id).slice(0, 3), [101, 202, 303]);
    assert.equal(DEFAULT_CONFIG.bots.find((b) => b.id === 303)?.customBlockUrl, 'http://127.0.0.1:4011/callback');
  });

  for (const [patch, message] of [
    [{ statuse: {} }, /config\.statuse is not a setting/],
    [{ lists: { defaultPageCount: 0 } }, /config\.lists\.defaultPageCount must be an integer >= 1, got 0/],
    [{ errors: { format: 'xml' } }, /config\.errors\.format must be one of problem, json, text/],
    [{ limits: { rate: { perSecond: 'fast' } } }, /config\.limits\.rate must be/],
    [{ send: { allowedStatuses: ['operatorr'] } }, /config\.send\.allowedStatuses must be a list whose item 0/],
    [{ bots: [{ id: 1 }] }, /config\.bots must be a list whose item 0 is an object whose name/],
  ] as const) {
    it(`refuses ${JSON.stringify(patch)} with a message naming the setting`, () => {
      assert.throws(() => resolveConfig(patch), (err: Error) => err instanceof ConfigError && message.test(err.message));
    });
  }

  it('lets every "not shown" choice change the answers', async () => {
    const sim = await simulator({
      config: {
        statuses: { operator: 'waiting-operator' },
        create: { v2Get: { status: 200, body: 'ids-v1' }, startedWithoutResponse: { status: 202, body: 'empty-object' }, variableItem: null },
        send: { textFields: ['message'] },
        command: { commandField: 'action', botField: 'target', success: { status: 200, body: 'empty-object' } },
        errors: { format: 'json' },
        files: { v2: 'not-found' },
        lists: { order: 'oldest-first', defaultPageCount: 10 },
        blocked: false,
      },
    });
    try {
      const list = (await sim.call('GET', '/api/v1/conversations')).json();
      assert.equal(list.meta.pagination.per_page, 10);
      assert.ok(list['0'].id < list['1'].id);
      const created = await sim.call('GET', `/api/v2/dialog/101/create?variables=${encodeURIComponent('{"a":"b"}')}`);
      assert.deepEqual(Object.keys(created.json()), ['dialogId']);
      assert.deepEqual((await sim.call('GET', `/api/v2/conversation/${created.json().dialogId}`)).json().data, []);
      const started = await sim.call('POST', '/api/v2/dialog/101/create');
      assert.equal(started.status, 202);
      assert.equal(started.body, '{}');
      const { uuid } = await findDialog(sim, 'in-process');
      await sim.call('POST', `/api/v2/conversation/${uuid}/stop`);
      assert.equal((await sim.call('GET', `/api/v2/conversation/${uuid}`)).json().status, 'waiting-operator');
      assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { message: 'hi' } })).status, 204);
      assert.equal((await sim.call('POST', `/api/v2/conversation/${uuid}/send`, { body: { text: 'hi' } })).status, 400);
      const moved = await sim.call('POST', `/api/v2/conversation/${uuid}/command`, { body: { action: 'goto', target: 202 } });
      assert.equal(moved.status, 200);
      const missing = await sim.call('GET', '/api/v2/file/5001');
      assert.equal(missing.status, 404);
      assert.equal(missing.contentType, 'application/json; charset=utf-8');
      assert.ok(typeof missing.json().message === 'string');
    } finally {
      await sim.close();
    }
  });
});
