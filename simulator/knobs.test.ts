// The knobs that let the simulator play vendors that differ in what the specification leaves "not shown": the
// order of checks, error bodies, start on a completed dialog, the zone of `updated`, send and command bodies.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import type { DeepPartial, SimulatorConfig } from './config.ts';
import { FIXED_NOW, findDialog, simulator, type TestSimulator } from './test-support.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const items = (list: Record<string, any>) =>
  Object.keys(list)
    .filter((k) => k !== 'meta')
    .map((k) => list[k]);
const post = (sim: TestSimulator, uuid: string, action: string, body?: unknown) =>
  sim.call('POST', `/api/v2/conversation/${uuid}/${action}`, body === undefined ? {} : { body });
const record = async (sim: TestSimulator, uuid: string) => (await sim.call('GET', `/api/v2/conversation/${uuid}`)).json();
/** The bot a V2 dialog is on, from the BotID filter of the list. */
const onBot = async (sim: TestSimulator, uuid: string, bot: number) =>
  items((await sim.call('GET', `/api/v2/conversations?BotID=${bot}&PageCount=500`)).json()).some((d) => d.id === uuid);

async function withSimulator(config: DeepPartial<SimulatorConfig>, body: (sim: TestSimulator) => Promise<void>, now?: () => number): Promise<void> {
  const sim = await simulator({ config, ...(now ? { now } : {}) });
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

describe('validation.dialogBeforeBody', () => {
  // [what, action, dialog status or unknown, body] -> status with the body first, status with the dialog first.
  const cases: Array<[string, 'send' | 'command', string | null, unknown, number, number]> = [
    ['send, unknown dialog, bad body', 'send', null, { text: 42 }, 400, 404],
    ['send, completed dialog, bad body', 'send', 'completed', '{"text":', 400, 403],
    ['send, dialog in a refused state, bad body', 'send', 'in-process', { nothing: true }, 400, 403],
    ['send, operator dialog, bad body', 'send', 'operator', { text: 42 }, 400, 400],
    ['command, unknown dialog, bad body', 'command', null, { command: 'jump' }, 400, 404],
    ['command, completed dialog, bad body', 'command', 'completed', { command: 'goto', bot_id: '202' }, 400, 403],
  ];
  for (const dialogBeforeBody of [false, true]) {
    it(`checks ${dialogBeforeBody ? 'the dialog before the body' : 'the body before the dialog'}`, () =>
      withSimulator({ validation: { dialogBeforeBody } }, async (sim) => {
        for (const [what, action, status, body, bodyFirst, dialogFirst] of cases) {
          const uuid = status === null ? UNKNOWN : (await findDialog(sim, status)).uuid;
          assert.equal((await post(sim, uuid, action, body)).status, dialogBeforeBody ? dialogFirst : bodyFirst, what);
        }
        // The path parameter is checked before both.
        assert.equal((await post(sim, 'not-a-uuid', 'send', '{')).status, 404);
      }));
  }
});

describe('errors.format', () => {
  const expected: Record<Exclude<SimulatorConfig['errors']['format'], 'custom'>, [string | null, (body: string) => void]> = {
    problem: ['application/problem+json', (b) => assert.equal(JSON.parse(b).status, 404)],
    'problem-instance': ['application/problem+json', (b) => assert.equal(JSON.parse(b).instance, `/api/v2/conversation/${UNKNOWN}`)],
    fields: ['application/json; charset=utf-8', (b) => assert.deepEqual(JSON.parse(b), { errors: [{ message: 'dialog not found' }] })],
    json: ['application/json; charset=utf-8', (b) => assert.match(JSON.parse(b).message, /dialog not found/)],
    text: ['text/plain; charset=utf-8', (b) => assert.match(b, /^404 Not Found: dialog not found$/)],
    envelope: ['application/json; charset=utf-8', (b) => assert.deepEqual(JSON.parse(b), { error: { code: 404, message: 'dialog not found' } })],
    empty: [null, (b) => assert.equal(b, '')],
  };
  for (const [format, [contentType, checkBody]] of Object.entries(expected)) {
    it(`renders every error as ${format}, also those node's parser refuses`, () =>
      withSimulator({ errors: { format: format as SimulatorConfig['errors']['format'] } }, async (sim) => {
        const res = await sim.call('GET', `/api/v2/conversation/${UNKNOWN}`);
        assert.equal(res.status, 404);
        assert.equal(res.contentType, contentType);
        checkBody(res.body);
        const unauthorized = await sim.call('GET', '/api/v1/conversations', { auth: null });
        assert.equal(unauthorized.status, 401);
        assert.equal(unauthorized.contentType, contentType);
        const raw = await new Promise<string>((resolve) => {
          const socket = connect(sim.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('end', () => resolve(text));
        });
        const [head, body] = raw.split('\r\n\r\n');
        assert.match(head!, /^HTTP\/1\.1 400 Bad Request\r\n/);
        assert.equal(/content-type: (.*)/i.exec(head!)?.[1] ?? null, contentType);
        assert.equal(format === 'empty', body === '');
      }));
  }
});

describe('refusals of a send or command body', () => {
  const nested = { send: { textFields: ['payload.messageText'] }, command: { commandField: 'request.command', botField: 'request.botId' } };
  // [format, send without text, goto without the bot]: what each error format says of the field it refuses.
  const said: Array<[SimulatorConfig['errors']['format'], string, string]> = [
    [
      'fields',
      '{"errors":[{"field":"payload.messageText","message":"is required: a non-empty string"}]}',
      '{"errors":[{"field":"request.botId","message":"is required: an integer bot id"}]}',
    ],
    [
      'text',
      "400 Bad Request: missing required field 'payload.messageText': a non-empty string",
      "400 Bad Request: missing required field 'request.botId': an integer bot id",
    ],
    ['empty', '', ''],
  ];
  for (const [format, send, command] of said) {
    it(`name the field they refuse, as ${format} errors say it`, () =>
      withSimulator({ ...nested, errors: { format } }, async (sim) => {
        const { uuid } = await findDialog(sim, 'operator');
        assert.deepEqual(
          [(await post(sim, uuid, 'send', { text: 'hi' })).body, (await post(sim, uuid, 'command', { request: { command: 'goto' } })).body],
          [send, command],
        );
      }));
  }

  it('say which value the command field wants, and which type the bot id', () =>
    withSimulator({ ...nested, command: { ...nested.command, botType: 'string' }, errors: { format: 'problem-instance' } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      const detail = async (body: unknown) => JSON.parse((await post(sim, uuid, 'command', body)).body).detail;
      assert.equal(await detail({ command: 'goto' }), `'request.command' must be "goto"`);
      assert.equal(await detail({ request: { command: 'goto', botId: 202 } }), `'request.botId' must be a bot id written as a decimal string, like "202"`);
    }));
});

describe('errors.wording and errors.custom', () => {
  it("word a refused field in a vendor's own words, in a body of its own: the text, the status, the field's segments", () =>
    withSimulator(
      {
        command: { commandField: 'command', botField: 'params.botId' },
        errors: {
          format: 'custom',
          custom: { contentType: 'application/json', body: { oops: '{detail}' }, fieldBody: { code: '{status}', at: '{segments}', say: '{title}: {detail}' } },
          wording: {
            field: 'outermost',
            wants: 'template',
            types: { integer: '<integer>', string: '<string>' },
            missing: 'field "{field}" must be {wants}',
            wrongType: 'field "{field}" must be {wants}',
            wrongValue: 'field "{field}" must be one of {values}',
            otherValues: ['wait'],
          },
        },
      },
      async (sim) => {
        const { uuid } = await findDialog(sim, 'operator');
        const refused = async (body: unknown) => (await post(sim, uuid, 'command', body)).json();
        assert.deepEqual(await refused({ command: 'goto', params: { bot_id: 202 } }), {
          code: 400,
          at: ['params', 'botId'],
          say: 'Bad Request: field "params" must be {"botId": <integer>}',
        });
        assert.equal((await refused({ command: 'jump' })).say, 'Bad Request: field "command" must be one of goto, wait');
        assert.equal((await post(sim, uuid, 'command', { command: 'goto', params: { botId: 202 } })).status, 204);
        // Other errors take the body of every error.
        assert.deepEqual((await sim.call('GET', `/api/v2/conversation/${UNKNOWN}`)).json(), { oops: 'dialog not found' });
      },
    ));
});

describe('transitions.startCompleted', () => {
  it('forbidden: start on a completed dialog answers 403', () =>
    withSimulator({}, async (sim) => {
      const { uuid } = await findDialog(sim, 'completed');
      assert.equal((await post(sim, uuid, 'start')).status, 403);
      assert.equal((await record(sim, uuid)).status, 'completed');
    }));

  it('reopen: start on a completed dialog answers 204 and the dialog is in process again; the rest still refuses', () =>
    withSimulator({ transitions: { startCompleted: 'reopen' } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'completed', 'PageCount=200&BotID=101');
      const other = (await findDialog(sim, 'completed', 'PageCount=200&BotID=202')).uuid;
      assert.equal((await post(sim, other, 'stop')).status, 403);
      assert.equal((await post(sim, other, 'send', { text: 'hi' })).status, 403);
      const res = await post(sim, uuid, 'start');
      assert.equal(res.status, 204);
      assert.equal(res.body, '');
      assert.equal((await record(sim, uuid)).status, 'in-process');
      assert.equal((await post(sim, uuid, 'stop')).status, 204);
    }));
});

describe('format.updatedOffset', () => {
  // FIXED_NOW is 2026-11-20T10:00:00Z; an operator message moves `updated` there.
  for (const [zone, written] of [
    ['+00:00', '2026-11-20T10:00:00+00:00'],
    ['Z', '2026-11-20T10:00:00Z'],
    ['+03:00', '2026-11-20T13:00:00+03:00'],
    ['-05:00', '2026-11-20T05:00:00-05:00'],
    ['+05:30', '2026-11-20T15:30:00+05:30'],
    ['-09:30', '2026-11-20T00:30:00-09:30'],
  ] as const) {
    it(`writes updated in ${zone}`, () =>
      withSimulator({ format: { updatedOffset: zone } }, async (sim) => {
        const { uuid, id } = await findDialog(sim, 'operator');
        assert.equal((await post(sim, uuid, 'send', { text: 'hi' })).status, 204);
        assert.equal((await record(sim, uuid)).updated, written);
        assert.equal((await sim.call('GET', `/api/v1/conversation/${id}`)).json().updated, written);
      }));
  }

  it('keeps the filters on the true instant', async () => {
    const plain = await simulator();
    const shifted = await simulator({ config: { format: { updatedOffset: '-05:00' } } });
    try {
      const query = '/api/v2/conversations?UpdatedFrom=2026-11-01T00:00:00Z&UpdatedTo=2026-11-10T12:00:00%2B02:00&CreatedFrom=2026-10-01&PageCount=500';
      const [a, b] = (await Promise.all([plain, shifted].map(async (sim) => items((await sim.call('GET', query)).json())))) as [any[], any[]];
      assert.ok(a.length > 0);
      assert.deepEqual(
        b.map((d) => d.id),
        a.map((d) => d.id),
      );
      for (const [i, d] of b.entries()) {
        assert.match(d.updated, /-05:00$/);
        assert.equal(Date.parse(d.updated), Date.parse(a[i].updated));
        assert.ok(Date.parse(d.updated) >= Date.parse('2026-11-01T00:00:00Z') && Date.parse(d.updated) <= Date.parse('2026-11-10T10:00:00Z'), d.updated);
      }
    } finally {
      await Promise.all([plain.close(), shifted.close()]);
    }
  });
});

describe('send body', () => {
  it('takes the text from a dotted path', () =>
    withSimulator({ send: { textFields: ['message.text'] } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      assert.equal((await post(sim, uuid, 'send', { text: 'hi' })).status, 400);
      assert.equal((await post(sim, uuid, 'send', { message: 'hi' })).status, 400);
      assert.equal((await post(sim, uuid, 'send', { 'message.text': 'hi' })).status, 400);
      assert.equal((await post(sim, uuid, 'send', { message: { text: 'hi' } })).status, 204);
      assert.equal((await record(sim, uuid)).updated, '2026-11-20T10:00:00+00:00');
    }));

  it('lenient: an object without the text answers 204 and changes nothing; malformed bodies still answer 400', () =>
    withSimulator({ send: { lenient: true, dataItem: { question: 'Operator', type: 'Operator' } } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      const before = await record(sim, uuid);
      for (const body of [{}, { message: 'hi' }, { data: { text: 'nested is not text' } }]) {
        const res = await post(sim, uuid, 'send', body);
        assert.equal(res.status, 204, JSON.stringify(body));
        assert.equal(res.body, '');
      }
      assert.deepEqual(await record(sim, uuid), before);
      for (const body of [undefined, '{"text":', '[1]', '"hi"', { text: 42 }, { text: '' }]) {
        assert.equal((await post(sim, uuid, 'send', body)).status, 400, JSON.stringify(body));
      }
      const completed = await findDialog(sim, 'completed');
      assert.equal((await post(sim, completed.uuid, 'send', {})).status, 403);
      assert.equal((await post(sim, uuid, 'send', { text: 'real' })).status, 204);
      assert.deepEqual((await record(sim, uuid)).data.at(-1), { question: 'Operator', type: 'Operator', answer: 'real', variable: null });
    }));
});

describe('command body', () => {
  it('takes the command and the bot from dotted paths', () =>
    withSimulator({ command: { commandField: 'command.name', botField: 'command.target.id' } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: 202 })).status, 400);
      assert.equal((await post(sim, uuid, 'command', { command: { name: 'goto' }, bot_id: 202 })).status, 400);
      assert.equal((await post(sim, uuid, 'command', { command: { name: 'goto', target: { id: 202 } } })).status, 204);
      assert.ok(await onBot(sim, uuid, 202));
    }));

  it('botType string: the bot id is a decimal string and a JSON integer answers 400', () =>
    withSimulator({ command: { botType: 'string' } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      for (const bot of [505, '5o5', '', '505.0', null]) {
        assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: bot })).status, 400, JSON.stringify(bot));
      }
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: '4242' })).status, 404);
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: '505' })).status, 204);
      assert.ok(await onBot(sim, uuid, 505));
    }));

  it('unknownBotStatus 400: a goto to a bot that does not exist answers 400; create on it still 404', () =>
    withSimulator({ command: { unknownBotStatus: 400 } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator');
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: 4242 })).status, 400);
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: 909 })).status, 403, 'a blocked bot');
      assert.equal((await sim.call('GET', '/api/v2/dialog/4242/create')).status, 404);
      assert.equal((await post(sim, UNKNOWN, 'command', { command: 'goto', bot_id: 202 })).status, 404);
    }));

  it('lenient: an object without a goto to a named bot answers success and moves nothing', () =>
    withSimulator({ command: { lenient: true, success: { status: 200, body: 'empty-object' } } }, async (sim) => {
      const { uuid } = await findDialog(sim, 'operator', 'PageCount=200&BotID=101');
      for (const body of [{}, { command: 'jump', bot_id: 202 }, { command: 'goto' }, { bot_id: 202 }, { command: 'jump' }]) {
        const res = await post(sim, uuid, 'command', body);
        assert.equal(res.status, 200, JSON.stringify(body));
        assert.equal(res.body, '{}');
      }
      assert.ok(await onBot(sim, uuid, 101));
      assert.equal((await post(sim, uuid, 'command', { command: 'jump', bot_id: 4242 })).status, 404, 'a present bot that does not exist');
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: 'x' })).status, 400, 'a bot that is no bot id');
      for (const body of [undefined, '{', '[]']) assert.equal((await post(sim, uuid, 'command', body)).status, 400, JSON.stringify(body));
      assert.equal((await post(sim, uuid, 'command', { command: 'goto', bot_id: 202 })).status, 200);
      assert.ok(await onBot(sim, uuid, 202));
    }));
});

describe('lists.lagMs, clock.offsetSeconds, send.movesUpdated: the vendor is a distributed system', () => {
  it('a list trails the store by lagMs: a new dialog, and its move to another bot, show only after it', () =>
    withSimulator(
      { lists: { lagMs: 400 } },
      async (sim) => {
        const created = (await sim.call('POST', '/api/v2/dialog/101/create', { body: { response: true } })).json();
        const listed = async (bot: number) => onBot(sim, created.dialogUUID, bot);
        assert.equal(await listed(101), false, 'not yet in the list');
        assert.equal((await record(sim, created.dialogUUID)).id, created.dialogUUID, 'the record reads at once');
        await new Promise((resolve) => setTimeout(resolve, 450));
        assert.equal(await listed(101), true, 'listed once the lag has passed');
        await post(sim, created.dialogUUID, 'stop');
        assert.equal((await post(sim, created.dialogUUID, 'command', { command: 'goto', bot_id: 202 })).status, 204);
        assert.equal(await listed(202), false, 'the move not yet in the list');
        await new Promise((resolve) => setTimeout(resolve, 450));
        assert.deepEqual([await listed(101), await listed(202)], [false, true]);
      },
      Date.now,
    ));

  it('the vendor clock is off by offsetSeconds: its Date header and its stamps', () =>
    withSimulator({ clock: { offsetSeconds: -90 } }, async (sim) => {
      const answer = await sim.call('GET', '/api/v2/conversations?PageCount=1');
      assert.equal(Date.parse(String(answer.headers.date)), FIXED_NOW - 90_000, `Date header ${answer.headers.date} is 90 s behind`);
      const created = (await sim.call('POST', '/api/v2/dialog/101/create', { body: { response: true } })).json();
      const inWindow = (from: number, to: number) =>
        sim
          .call('GET', `/api/v2/conversations?BotID=101&CreatedFrom=${new Date(from).toISOString()}&CreatedTo=${new Date(to).toISOString()}`)
          .then((a) => items(a.json()).some((d) => d.id === created.dialogUUID));
      assert.equal(await inWindow(FIXED_NOW - 91_000, FIXED_NOW - 89_000), true, 'stamped in its own time');
      assert.equal(await inWindow(FIXED_NOW - 1000, FIXED_NOW + 1000), false);
    }));

  it('with movesUpdated false an operator message leaves updated where it was', () =>
    withSimulator({ send: { movesUpdated: false } }, async (sim) => {
      const dialog = await findDialog(sim, 'operator');
      const before = (await record(sim, dialog.uuid)).updated;
      assert.equal((await post(sim, dialog.uuid, 'send', { text: 'hello' })).status, 204);
      assert.equal((await record(sim, dialog.uuid)).updated, before);
    }));
});
