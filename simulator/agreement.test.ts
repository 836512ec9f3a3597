// The simulator and the OpenAPI document agree: every operation, driven to every status it can return, answers
// what the document says (checked by the project's validators), and every documented status is reached.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contractValidators } from '../openapi/validators.ts';
import { blockListener, findDialog, seededStore, simulator, type Answer, type CallOptions, type TestSimulator } from './test-support.ts';

interface Case {
  operationId: string;
  status: number;
  method: string;
  path: string;
  options?: CallOptions;
}

const validators = contractValidators();
const WRONG_AUTH = `Basic ${Buffer.from('qa-contract:nope').toString('base64')}`;

describe('agreement of the simulator with the OpenAPI document', () => {
  let sim: TestSimulator;
  let blocked: TestSimulator;
  let listener: Awaited<ReturnType<typeof blockListener>>;
  const observed = new Map<string, Set<number>>();

  before(async () => {
    listener = await blockListener();
    sim = await simulator({ callbackUrl: listener.url });
    blocked = await simulator({ config: { blocked: true } });
  });
  after(async () => {
    await Promise.all([sim.close(), blocked.close(), listener.close()]);
  });

  async function expectConforming(target: TestSimulator, c: Case): Promise<Answer> {
    const res = await target.call(c.method, c.path, c.options);
    assert.equal(res.status, c.status, `${c.method} ${c.path}: ${res.body.slice(0, 200)}`);
    const problems = validators.check(c.operationId, { status: res.status, contentType: res.contentType, body: res.body });
    assert.deepEqual(problems.map((p) => p.message), [], `${c.method} ${c.path}`);
    const seen = observed.get(c.operationId) ?? new Set<number>();
    observed.set(c.operationId, seen.add(res.status));
    return res;
  }

  it('answers every operation with each status it can return, as documented', async () => {
    const store = seededStore();
    const deleted = store.dialogs.find((d) => d.deleted)!;
    const file = [...store.files.values()].find((f) => !f.deleted)!;
    const inProcess = await findDialog(sim, 'in-process');
    const completed = await findDialog(sim, 'completed');
    const operator = await findDialog(sim, 'operator');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const v2 = (uuid: string, action: string) => `/api/v2/conversation/${uuid}/${action}`;

    // A custom-block session: POST create on bot 303 delivers the token to the listener.
    const created = await expectConforming(sim, { operationId: 'postV2DialogCreate', status: 200, method: 'POST', path: '/api/v2/dialog/303/create', options: { body: { response: true } } });
    const token = String((await listener.next()).token);
    assert.equal(listener.received[0]!.dialog_uuid, created.json().dialogUUID);

    const cases: Case[] = [
      ...['v1', 'v2'].flatMap((api) => {
        const op = api === 'v1' ? 'getV1Conversations' : 'getV2Conversations';
        return [
          { operationId: op, status: 200, method: 'GET', path: `/api/${api}/conversations` },
          { operationId: op, status: 200, method: 'GET', path: `/api/${api}/conversations?BotID=202&PageNumber=2&PageCount=5&CreatedFrom=2026-09-01&UpdatedTo=2026-11-19T12:00:00%2B02:00` },
          { operationId: op, status: 200, method: 'GET', path: `/api/${api}/conversations?PageNumber=99` },
          { operationId: op, status: 400, method: 'GET', path: `/api/${api}/conversations?PageCount=0` },
          { operationId: op, status: 400, method: 'GET', path: `/api/${api}/conversations?UpdatedFrom=yesterday` },
          { operationId: op, status: 401, method: 'GET', path: `/api/${api}/conversations`, options: { auth: null } },
        ];
      }),
      { operationId: 'getV1Conversation', status: 200, method: 'GET', path: `/api/v1/conversation/${completed.id}` },
      { operationId: 'getV1Conversation', status: 403, method: 'GET', path: `/api/v1/conversation/${deleted.id}` },
      { operationId: 'getV1Conversation', status: 404, method: 'GET', path: '/api/v1/conversation/999999' },
      { operationId: 'getV1Conversation', status: 404, method: 'GET', path: '/api/v1/conversation/abc' },
      { operationId: 'getV1Conversation', status: 401, method: 'GET', path: `/api/v1/conversation/${completed.id}`, options: { auth: WRONG_AUTH } },
      { operationId: 'getV2Conversation', status: 200, method: 'GET', path: `/api/v2/conversation/${completed.uuid}` },
      { operationId: 'getV2Conversation', status: 403, method: 'GET', path: `/api/v2/conversation/${deleted.uuid}` },
      { operationId: 'getV2Conversation', status: 404, method: 'GET', path: `/api/v2/conversation/${unknown}` },
      { operationId: 'getV2Conversation', status: 404, method: 'GET', path: '/api/v2/conversation/not-a-uuid' },
      { operationId: 'getV2Conversation', status: 401, method: 'GET', path: `/api/v2/conversation/${completed.uuid}`, options: { auth: null } },
      ...['v1', 'v2'].flatMap((api) => {
        const op = api === 'v1' ? 'getV1DialogCreate' : 'getV2DialogCreate';
        return [
          { operationId: op, status: 200, method: 'GET', path: `/api/${api}/dialog/101/create` },
          { operationId: op, status: 200, method: 'GET', path: `/api/${api}/dialog/101/create?variables=${encodeURIComponent('{"name":"Ada"}')}` },
          { operationId: op, status: 403, method: 'GET', path: `/api/${api}/dialog/909/create` },
          { operationId: op, status: 404, method: 'GET', path: `/api/${api}/dialog/4242/create` },
          { operationId: op, status: 404, method: 'GET', path: `/api/${api}/dialog/x/create` },
          { operationId: op, status: 404, method: 'GET', path: `/api/${api}/dialog/101/create?variables=%7Bnope` },
          { operationId: op, status: 401, method: 'GET', path: `/api/${api}/dialog/101/create`, options: { auth: null } },
        ];
      }),
      { operationId: 'postV2DialogCreate', status: 204, method: 'POST', path: '/api/v2/dialog/101/create' },
      { operationId: 'postV2DialogCreate', status: 204, method: 'POST', path: '/api/v2/dialog/101/create?response=false', options: { body: { variables: '{"a":1}' } } },
      { operationId: 'postV2DialogCreate', status: 200, method: 'POST', path: '/api/v2/dialog/101/create?response=true' },
      { operationId: 'postV2DialogCreate', status: 403, method: 'POST', path: '/api/v2/dialog/909/create' },
      { operationId: 'postV2DialogCreate', status: 404, method: 'POST', path: '/api/v2/dialog/4242/create' },
      { operationId: 'postV2DialogCreate', status: 404, method: 'POST', path: '/api/v2/dialog/101/create', options: { body: '{broken' } },
      { operationId: 'postV2DialogCreate', status: 404, method: 'POST', path: '/api/v2/dialog/101/create', options: { body: { response: 'yes' } } },
      { operationId: 'postV2DialogCreate', status: 401, method: 'POST', path: '/api/v2/dialog/101/create', options: { auth: null } },
      ...(['start', 'stop'] as const).flatMap((action) => {
        const op = action === 'start' ? 'postV2ConversationStart' : 'postV2ConversationStop';
        return [
          { operationId: op, status: 204, method: 'POST', path: v2(inProcess.uuid, action) },
          { operationId: op, status: 403, method: 'POST', path: v2(completed.uuid, action) },
          { operationId: op, status: 403, method: 'POST', path: v2(deleted.uuid, action) },
          { operationId: op, status: 404, method: 'POST', path: v2(unknown, action) },
          { operationId: op, status: 404, method: 'POST', path: v2('1234', action) },
          { operationId: op, status: 401, method: 'POST', path: v2(inProcess.uuid, action), options: { auth: null } },
        ];
      }),
      { operationId: 'postV2ConversationSend', status: 204, method: 'POST', path: v2(operator.uuid, 'send'), options: { body: { text: 'Hello from an operator' } } },
      { operationId: 'postV2ConversationSend', status: 400, method: 'POST', path: v2(operator.uuid, 'send'), options: { body: { text: 42 } } },
      { operationId: 'postV2ConversationSend', status: 400, method: 'POST', path: v2(operator.uuid, 'send'), options: { body: '{"text":' } },
      { operationId: 'postV2ConversationSend', status: 400, method: 'POST', path: v2(operator.uuid, 'send') },
      { operationId: 'postV2ConversationSend', status: 403, method: 'POST', path: v2(completed.uuid, 'send'), options: { body: { text: 'hi' } } },
      { operationId: 'postV2ConversationSend', status: 404, method: 'POST', path: v2(unknown, 'send'), options: { body: { text: 'hi' } } },
      { operationId: 'postV2ConversationSend', status: 401, method: 'POST', path: v2(operator.uuid, 'send'), options: { auth: null, body: { text: 'hi' } } },
      { operationId: 'postV2ConversationCommand', status: 204, method: 'POST', path: v2(operator.uuid, 'command'), options: { body: { command: 'goto', bot_id: 202 } } },
      { operationId: 'postV2ConversationCommand', status: 400, method: 'POST', path: v2(operator.uuid, 'command'), options: { body: { command: 'jump', bot_id: 202 } } },
      { operationId: 'postV2ConversationCommand', status: 400, method: 'POST', path: v2(operator.uuid, 'command'), options: { body: { command: 'goto', bot_id: '202' } } },
      { operationId: 'postV2ConversationCommand', status: 403, method: 'POST', path: v2(completed.uuid, 'command'), options: { body: { command: 'goto', bot_id: 202 } } },
      { operationId: 'postV2ConversationCommand', status: 404, method: 'POST', path: v2(operator.uuid, 'command'), options: { body: { command: 'goto', bot_id: 4242 } } },
      { operationId: 'postV2ConversationCommand', status: 401, method: 'POST', path: v2(operator.uuid, 'command'), options: { auth: null, body: {} } },
      ...['v1', 'v2'].flatMap((api) => {
        const op = api === 'v1' ? 'getV1File' : 'getV2File';
        return [
          { operationId: op, status: 200, method: 'GET', path: `/api/${api}/file/${file.id}` },
          { operationId: op, status: 404, method: 'GET', path: `/api/${api}/file/1` },
          { operationId: op, status: 404, method: 'GET', path: `/api/${api}/file/abc` },
          { operationId: op, status: 401, method: 'GET', path: `/api/${api}/file/${file.id}`, options: { auth: null } },
        ];
      }),
      { operationId: 'postVertexSendMessage', status: 200, method: 'POST', path: '/api/vertex/v1/dialog/send_message', options: { body: { token, text: 'bot says hi', typing: false } } },
      { operationId: 'postVertexSendMessage', status: 400, method: 'POST', path: '/api/vertex/v1/dialog/send_message', options: { body: { token, text: 5 } } },
      { operationId: 'postVertexSendMessage', status: 400, method: 'POST', path: '/api/vertex/v1/dialog/send_message', options: { body: '{"token":' } },
      { operationId: 'postVertexSendMessage', status: 403, method: 'POST', path: '/api/vertex/v1/dialog/send_message', options: { body: { token: 'forged', text: 'x' } } },
      { operationId: 'postVertexComplete', status: 403, method: 'POST', path: '/api/vertex/v1/complete', options: { body: '{"token":' } },
      { operationId: 'postVertexComplete', status: 204, method: 'POST', path: '/api/vertex/v1/complete', options: { body: { token, data: { ok: true } } } },
      { operationId: 'postVertexComplete', status: 403, method: 'POST', path: '/api/vertex/v1/complete', options: { body: { token, data: null } } },
    ];
    for (const c of cases) await expectConforming(sim, c);

    // A blocked instance answers 403 on every operation (spec §5.3).
    for (const c of cases.filter((c) => c.status < 300)) {
      await expectConforming(blocked, { ...c, status: 403 });
    }
  });

  it('reaches every documented status of every operation', () => {
    for (const op of validators.operations.values()) {
      const seen = [...(observed.get(op.operationId) ?? [])];
      for (const key of validators.documentedStatuses(op.operationId)) {
        const hit = seen.some((status) => validators.responseKey(op, status) === key);
        assert.ok(hit, `${op.label}: documented ${key} never observed (seen ${seen.join(', ') || 'nothing'})`);
      }
    }
  });
});
