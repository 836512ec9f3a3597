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
    assert.deepEqual(
      DEFAULT_CONFIG.bots
        .filter((b) => !b.blocked)
        .map((b) => b.id)
        .slice(0, 3),
      [101, 202, 303],
    );
    assert.equal(DEFAULT_CONFIG.bots.find((b) => b.id === 303)?.customBlockUrl, 'http://127.0.0.1:4011/callback');
  });

  for (const [patch, message] of [
    [{ statuse: {} }, /config\.statuse is not a setting/],
    [{ lists: { defaultPageCount: 0 } }, /config\.lists\.defaultPageCount must be an integer >= 1, got 0/],
    [{ errors: { format: 'xml' } }, /config\.errors\.format must be one of problem, problem-instance, json, text/],
    [{ limits: { rate: { perSecond: 'fast' } } }, /config\.limits\.rate must be/],
    [{ send: { allowedStatuses: ['operatorr'] } }, /config\.send\.allowedStatuses must be a list whose item 0/],
    [{ bots: [{ id: 1 }] }, /config\.bots must be a list whose item 0 is an object whose name/],
    [{ statuses: { created: 'operator' } }, /config\.statuses must be 4 different strings/],
    [{ validation: { dialogBeforeBody: 'yes' } }, /config\.validation\.dialogBeforeBody must be true or false, got "yes"/],
    // §4.2: with response false the answer carries no dialog identifiers, whatever else a vendor answers.
    [
      { create: { startedWithoutResponse: { status: 200, body: 'ids-v2' } } },
      /config\.create\.startedWithoutResponse must be an object whose body is one of empty, empty-object/,
    ],
    [
      { errors: { format: 'html' } },
      /config\.errors\.format must be one of problem, problem-instance, json, text, envelope, fields, empty, custom, got "html"/,
    ],
    [{ errors: { format: 'custom' } }, /config\.errors\.custom is the body of format custom: set both or neither/],
    [
      {
        errors: {
          wording: { field: 'outermost', wants: 'words', types: { integer: 'n', string: 's' }, missing: '', wrongType: '', wrongValue: '', otherValues: [] },
        },
      },
      /config\.errors\.wording\.field outermost says what goes there as a whole value: wants must be template or example/,
    ],
    [{ callback: { encoding: 'xml' } }, /config\.callback\.encoding must be one of json, form, multipart, query/],
    [{ callback: { method: 'DELETE' } }, /config\.callback\.method must be one of POST, PUT, GET/],
    [{ callback: { method: 'GET', encoding: 'form' } }, /config\.callback\.method GET sends no body, so config\.callback\.encoding must be query, got form/],
    [{ callback: { fields: { token: null } } }, /config\.callback\.fields\.token and config\.callback\.tokenHeader are both null/],
    [{ callback: { tokenHeader: 'X Token' } }, /config\.callback\.tokenHeader must be an HTTP header name, got "X Token"/],
    [{ callback: { fields: { token: 'block..token' } } }, /config\.callback\.fields\.token must be a field name or a dotted path/],
    [
      { callback: { fields: { token: 'dialog', dialogId: 'dialog.id' } } },
      /config\.callback\.fields\.token \("dialog"\) and config\.callback\.fields\.dialogId \("dialog\.id"\) cannot both be set/,
    ],
    [{ transitions: { startCompleted: 'allow' } }, /config\.transitions\.startCompleted must be one of forbidden, reopen/],
    [{ limits: { maxPageCount: { value: 50, clamp: 'yes' } } }, /config\.limits\.maxPageCount must be an object whose clamp is true or false/],
    [{ limits: { maxPageCount: { value: 50, clamped: true } } }, /config\.limits\.maxPageCount must be an object without clamped/],
    [
      { lists: { defaultPageCount: 40 }, limits: { maxPageCount: { value: 30 } } },
      /config\.lists\.defaultPageCount \(40\) is above config\.limits\.maxPageCount\.value \(30\)/,
    ],
    [
      { limits: { rate: { perSecond: 1, burst: 1, retryAfter: 'date' } } },
      /config\.limits\.rate must be an object whose retryAfter is one of seconds, http-date, none/,
    ],
    [
      { limits: { rate: { kind: 'fixed-window', perSecond: 2.5, burst: 1 } } },
      /config\.limits\.rate\.perSecond of a fixed-window counts requests in a second: a whole number of at least 1, got 2\.5/,
    ],
    [
      { limits: { rate: { kind: 'leaky', perSecond: 1, burst: 1 } } },
      /config\.limits\.rate must be an object whose kind is one of token-bucket, fixed-window, sliding-window/,
    ],
    [
      { limits: { rate: { perSecond: 1, burst: 1, headers: 'draft' } } },
      /config\.limits\.rate must be an object whose headers is one of x-ratelimit, ratelimit, ietf, none/,
    ],
    [{ format: { updatedOffset: '+3' } }, /config\.format\.updatedOffset must be Z or an offset like \+03:00 or -05:30, got "\+3"/],
    [{ format: { updatedOffset: '+15:00' } }, /config\.format\.updatedOffset must be Z or an offset/],
    [{ send: { textFields: ['message.'] } }, /config\.send\.textFields must be a list whose item 0 is a field name or a dotted path/],
    [{ send: { lenient: 1 } }, /config\.send\.lenient must be true or false/],
    [{ command: { botField: '' } }, /config\.command\.botField must be a field name or a dotted path/],
    [
      { command: { commandField: 'cmd', botField: 'cmd.bot' } },
      /config\.command\.commandField \("cmd"\) and config\.command\.botField \("cmd\.bot"\) cannot both be set/,
    ],
    [{ command: { botType: 'float' } }, /config\.command\.botType must be one of integer, string/],
    [{ command: { unknownBotStatus: 422 } }, /config\.command\.unknownBotStatus must be one of 404, 400, got 422/],
    [{ command: { lenient: 'no' } }, /config\.command\.lenient must be true or false/],
  ] as const) {
    it(`refuses ${JSON.stringify(patch)} with a one-line message naming the setting`, () => {
      assert.throws(
        () => resolveConfig(patch),
        (err: Error) => err instanceof ConfigError && message.test(err.message) && !err.message.includes('\n'),
      );
    });
  }

  it('defaults every newer knob to the behaviour from before it existed', () => {
    const { validation, transitions, format, send, command, callback, errors, limits } = DEFAULT_CONFIG;
    assert.deepEqual(validation, { dialogBeforeBody: false });
    assert.deepEqual(transitions, { startCompleted: 'forbidden' });
    assert.deepEqual(format, { updatedOffset: '+00:00' });
    assert.equal(send.lenient, false);
    assert.deepEqual([command.botType, command.unknownBotStatus, command.lenient], ['integer', 404, false]);
    assert.deepEqual([callback.encoding, callback.method, callback.tokenHeader], ['json', 'POST', null]);
    assert.equal(errors.format, 'problem');
    assert.equal(limits.rate, null);
    assert.equal(limits.maxPageCount, null);
  });

  it('accepts dotted field paths, every error format and every callback shape', () => {
    for (const format of ['problem', 'problem-instance', 'json', 'text', 'envelope', 'fields', 'empty'] as const)
      assert.equal(resolveConfig({ errors: { format } }).errors.format, format);
    const config = resolveConfig({
      send: { textFields: ['message.text', 'text'] },
      command: { commandField: 'command.name', botField: 'command.bot.id', botType: 'string' },
      callback: { encoding: 'query', method: 'GET', tokenHeader: 'Authorization', fields: { token: null, dialogUuid: 'dialog.uuid' } },
      limits: { maxPageCount: { value: 50, clamp: true }, rate: { perSecond: 5, burst: 5, retryAfter: 'http-date', headers: 'ratelimit' } },
      format: { updatedOffset: '-05:30' },
    });
    assert.equal(config.callback.fields.dialogUuid, 'dialog.uuid');
    assert.equal(config.format.updatedOffset, '-05:30');
  });

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
