// The simulator and the OpenAPI document agree, in the default configuration and in every vendor profile: every
// operation, driven to every status it can return, answers what the document says (checked by the project's
// validators), and every documented status is reached. Bots, credentials and body fields come from the profile.
import { responseFailures } from '../checks/response.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StatusExpectation } from '../checks/response.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { renderHeadline } from '../lib/failure.ts';
import { contractValidators } from '../openapi/validators.ts';
import type { SimulatorConfig } from './config.ts';
import { listProfiles, loadProfile } from './profiles.ts';
import {
  basicAuth,
  blockListener,
  bodyWith,
  deliveredFor,
  deliveredToken,
  seededStore,
  simulator,
  type Answer,
  type CallOptions,
  type TestSimulator,
} from './test-support.ts';

interface Case {
  operationId: OperationId;
  status: number;
  method: string;
  path: string;
  options?: CallOptions;
  /** POST create with response false: its body is not shown, so only the status is checked. */
  check?: StatusExpectation;
}

const validators = contractValidators();

/** The bots a session needs, by role: the first two plain bots are the main one and the goto target. */
function botsOf(config: SimulatorConfig) {
  const plain = config.bots.filter((b) => !b.blocked && b.customBlockUrl === null);
  return {
    main: plain[0]!.id,
    goto: plain[1]!.id,
    custom: config.bots.find((b) => !b.blocked && b.customBlockUrl !== null)!.id,
    blocked: config.bots.find((b) => b.blocked)!.id,
    unknown: Math.max(...config.bots.map((b) => b.id)) + 4242,
  };
}

/** Documented statuses a conforming vendor may never answer, given its choices of "not shown" items. */
function unreachable(config: SimulatorConfig): Set<string> {
  const out = new Set<string>();
  if (config.files.v2 === 'not-found') out.add('getV2File 200');
  // "2XX" of POST create is the response=false success; a vendor answering that with 200 uses the key "200".
  if (config.create.startedWithoutResponse.status === 200) out.add('postV2DialogCreate 2XX');
  return out;
}

for (const profile of listProfiles()) {
  describe(`agreement of the simulator with the OpenAPI document (profile ${profile})`, () => {
    const { patch } = loadProfile(profile);
    // The profile's rate limit is off here: a 429 is no documented status (profiles.test.ts checks the limit).
    const noRate = { limits: { rate: null } };
    let sim: TestSimulator;
    let blocked: TestSimulator;
    let listener: Awaited<ReturnType<typeof blockListener>>;
    const observed = new Map<string, Set<number>>();

    before(async () => {
      listener = await blockListener();
      sim = await simulator({ profile, config: noRate, callbackUrl: listener.url });
      blocked = await simulator({ profile, config: { ...noRate, blocked: true } });
    });
    after(async () => {
      await Promise.all([sim.close(), blocked.close(), listener.close()]);
    });

    async function expectConforming(target: TestSimulator, c: Case): Promise<Answer> {
      const res = await target.call(c.method, c.path, c.options);
      assert.equal(res.status, c.status, `${c.method} ${c.path}: ${res.body.slice(0, 200)}`);
      const problems = responseFailures(validators, c.operationId, { status: res.status, contentType: res.contentType, body: res.body }, c.check);
      assert.deepEqual(problems.map(renderHeadline), [], `${c.method} ${c.path}`);
      const seen = observed.get(c.operationId) ?? new Set<number>();
      observed.set(c.operationId, seen.add(res.status));
      return res;
    }

    it('answers every operation with each status it can return, as documented', async () => {
      const { send, command, create, transitions, limits } = sim.config;
      const bots = botsOf(sim.config);
      const store = seededStore(patch);
      const live = store.dialogs.filter((d) => !d.deleted);
      const [completed, reopened] = live.filter((d) => d.state === 'completed');
      const inProcess = live.find((d) => d.state === 'inProcess')!;
      const operator = live.find((d) => d.state === 'operator')!;
      const deleted = store.dialogs.find((d) => d.deleted)!;
      const file = [...store.files.values()].find((f) => !f.deleted)!;
      const unknown = '00000000-0000-4000-8000-000000000000';
      const v2 = (uuid: string, action: string) => `/api/v2/conversation/${uuid}/${action}`;
      const wrongAuth = basicAuth(sim.config, 'nope');
      const text = (value: unknown) => ({ body: bodyWith([send.textFields[0]!, value]) });
      const botValue = (id: number) => (command.botType === 'string' ? String(id) : id);
      const goto = (bot: unknown, value: unknown = command.gotoValue) => ({ body: bodyWith([command.commandField, value], [command.botField, bot]) });
      const maxPageCount = limits.maxPageCount;
      const notShown: StatusExpectation = { bodyNotShown: true };

      // A custom-block session: POST create on the custom-block bot delivers the token to the listener.
      const created = await expectConforming(sim, {
        operationId: 'postV2DialogCreate',
        status: 200,
        method: 'POST',
        path: `/api/v2/dialog/${bots.custom}/create`,
        options: { body: { response: true } },
      });
      const delivery = await listener.next();
      const token = deliveredToken(sim.config, delivery);
      assert.equal(delivery.method, sim.config.callback.method);
      assert.ok(deliveredFor(sim.config, delivery, { uuid: created.json().dialogUUID, id: created.json().dialogId }), JSON.stringify(delivery.fields));

      const cases: Case[] = [
        ...['v1', 'v2'].flatMap((api): Case[] => {
          const op = api === 'v1' ? 'getV1Conversations' : 'getV2Conversations';
          return [
            { operationId: op, status: 200, method: 'GET', path: `/api/${api}/conversations` },
            {
              operationId: op,
              status: 200,
              method: 'GET',
              path: `/api/${api}/conversations?BotID=${bots.goto}&PageNumber=2&PageCount=5&CreatedFrom=2026-09-01&UpdatedTo=2026-11-19T12:00:00%2B02:00`,
            },
            { operationId: op, status: 200, method: 'GET', path: `/api/${api}/conversations?PageNumber=99` },
            {
              operationId: op,
              status: maxPageCount && !maxPageCount.clamp && maxPageCount.value < 1000 ? 400 : 200,
              method: 'GET',
              path: `/api/${api}/conversations?PageCount=1000`,
            },
            { operationId: op, status: 400, method: 'GET', path: `/api/${api}/conversations?PageCount=0` },
            { operationId: op, status: 400, method: 'GET', path: `/api/${api}/conversations?UpdatedFrom=yesterday` },
            { operationId: op, status: 401, method: 'GET', path: `/api/${api}/conversations`, options: { auth: null } },
          ];
        }),
        { operationId: 'getV1Conversation', status: 200, method: 'GET', path: `/api/v1/conversation/${completed!.id}` },
        { operationId: 'getV1Conversation', status: 403, method: 'GET', path: `/api/v1/conversation/${deleted.id}` },
        { operationId: 'getV1Conversation', status: 404, method: 'GET', path: '/api/v1/conversation/999999' },
        { operationId: 'getV1Conversation', status: 404, method: 'GET', path: '/api/v1/conversation/abc' },
        { operationId: 'getV1Conversation', status: 401, method: 'GET', path: `/api/v1/conversation/${completed!.id}`, options: { auth: wrongAuth } },
        { operationId: 'getV2Conversation', status: 200, method: 'GET', path: `/api/v2/conversation/${completed!.uuid}` },
        { operationId: 'getV2Conversation', status: 403, method: 'GET', path: `/api/v2/conversation/${deleted.uuid}` },
        { operationId: 'getV2Conversation', status: 404, method: 'GET', path: `/api/v2/conversation/${unknown}` },
        { operationId: 'getV2Conversation', status: 404, method: 'GET', path: '/api/v2/conversation/not-a-uuid' },
        { operationId: 'getV2Conversation', status: 401, method: 'GET', path: `/api/v2/conversation/${completed!.uuid}`, options: { auth: null } },
        ...['v1', 'v2'].flatMap((api): Case[] => {
          const op = api === 'v1' ? 'getV1DialogCreate' : 'getV2DialogCreate';
          return [
            { operationId: op, status: 200, method: 'GET', path: `/api/${api}/dialog/${bots.main}/create` },
            { operationId: op, status: 200, method: 'GET', path: `/api/${api}/dialog/${bots.main}/create?variables=${encodeURIComponent('{"name":"Ada"}')}` },
            { operationId: op, status: 403, method: 'GET', path: `/api/${api}/dialog/${bots.blocked}/create` },
            { operationId: op, status: 404, method: 'GET', path: `/api/${api}/dialog/${bots.unknown}/create` },
            { operationId: op, status: 404, method: 'GET', path: `/api/${api}/dialog/x/create` },
            { operationId: op, status: 404, method: 'GET', path: `/api/${api}/dialog/${bots.main}/create?variables=%7Bnope` },
            { operationId: op, status: 401, method: 'GET', path: `/api/${api}/dialog/${bots.main}/create`, options: { auth: null } },
          ];
        }),
        create.responseDefault
          ? { operationId: 'postV2DialogCreate', status: 200, method: 'POST', path: `/api/v2/dialog/${bots.main}/create` }
          : {
              operationId: 'postV2DialogCreate',
              status: create.startedWithoutResponse.status,
              method: 'POST',
              path: `/api/v2/dialog/${bots.main}/create`,
              check: notShown,
            },
        {
          operationId: 'postV2DialogCreate',
          status: create.startedWithoutResponse.status,
          method: 'POST',
          path: `/api/v2/dialog/${bots.main}/create?response=false`,
          options: { body: { variables: '{"a":1}' } },
          check: notShown,
        },
        { operationId: 'postV2DialogCreate', status: 200, method: 'POST', path: `/api/v2/dialog/${bots.main}/create?response=true` },
        { operationId: 'postV2DialogCreate', status: 403, method: 'POST', path: `/api/v2/dialog/${bots.blocked}/create` },
        { operationId: 'postV2DialogCreate', status: 404, method: 'POST', path: `/api/v2/dialog/${bots.unknown}/create` },
        { operationId: 'postV2DialogCreate', status: 404, method: 'POST', path: `/api/v2/dialog/${bots.main}/create`, options: { body: '{broken' } },
        { operationId: 'postV2DialogCreate', status: 404, method: 'POST', path: `/api/v2/dialog/${bots.main}/create`, options: { body: { response: 'yes' } } },
        { operationId: 'postV2DialogCreate', status: 401, method: 'POST', path: `/api/v2/dialog/${bots.main}/create`, options: { auth: null } },
        ...(['start', 'stop'] as const).flatMap((action): Case[] => {
          const op = action === 'start' ? 'postV2ConversationStart' : 'postV2ConversationStop';
          // A vendor that reopens completed dialogs on start (spec §3: from "any" state) answers 204 there.
          const onCompleted: Case =
            action === 'start' && transitions.startCompleted === 'reopen'
              ? { operationId: op, status: 204, method: 'POST', path: v2(reopened!.uuid, action) }
              : { operationId: op, status: 403, method: 'POST', path: v2(completed!.uuid, action) };
          return [
            { operationId: op, status: 204, method: 'POST', path: v2(inProcess.uuid, action) },
            onCompleted,
            { operationId: op, status: 403, method: 'POST', path: v2(deleted.uuid, action) },
            { operationId: op, status: 404, method: 'POST', path: v2(unknown, action) },
            { operationId: op, status: 404, method: 'POST', path: v2('1234', action) },
            { operationId: op, status: 401, method: 'POST', path: v2(inProcess.uuid, action), options: { auth: null } },
          ];
        }),
        { operationId: 'postV2ConversationSend', status: 204, method: 'POST', path: v2(operator.uuid, 'send'), options: text('Hello from an operator') },
        { operationId: 'postV2ConversationSend', status: 400, method: 'POST', path: v2(operator.uuid, 'send'), options: text(42) },
        { operationId: 'postV2ConversationSend', status: 400, method: 'POST', path: v2(operator.uuid, 'send'), options: { body: '{"text":' } },
        { operationId: 'postV2ConversationSend', status: 400, method: 'POST', path: v2(operator.uuid, 'send') },
        { operationId: 'postV2ConversationSend', status: 403, method: 'POST', path: v2(completed!.uuid, 'send'), options: text('hi') },
        { operationId: 'postV2ConversationSend', status: 404, method: 'POST', path: v2(unknown, 'send'), options: text('hi') },
        { operationId: 'postV2ConversationSend', status: 401, method: 'POST', path: v2(operator.uuid, 'send'), options: { auth: null, ...text('hi') } },
        {
          operationId: 'postV2ConversationCommand',
          status: command.success.status,
          method: 'POST',
          path: v2(operator.uuid, 'command'),
          options: goto(botValue(bots.goto)),
        },
        {
          operationId: 'postV2ConversationCommand',
          status: command.lenient ? command.success.status : 400,
          method: 'POST',
          path: v2(operator.uuid, 'command'),
          options: goto(botValue(bots.goto), 'jump'),
        },
        {
          operationId: 'postV2ConversationCommand',
          status: 400,
          method: 'POST',
          path: v2(operator.uuid, 'command'),
          options: goto(command.botType === 'string' ? bots.goto : String(bots.goto)),
        },
        { operationId: 'postV2ConversationCommand', status: 403, method: 'POST', path: v2(completed!.uuid, 'command'), options: goto(botValue(bots.goto)) },
        { operationId: 'postV2ConversationCommand', status: 404, method: 'POST', path: v2(unknown, 'command'), options: goto(botValue(bots.goto)) },
        {
          operationId: 'postV2ConversationCommand',
          status: command.unknownBotStatus,
          method: 'POST',
          path: v2(operator.uuid, 'command'),
          options: goto(botValue(bots.unknown)),
        },
        { operationId: 'postV2ConversationCommand', status: 401, method: 'POST', path: v2(operator.uuid, 'command'), options: { auth: null, body: {} } },
        ...['v1', 'v2'].flatMap((api): Case[] => {
          const op = api === 'v1' ? 'getV1File' : 'getV2File';
          return [
            { operationId: op, status: api === 'v2' && sim.config.files.v2 === 'not-found' ? 404 : 200, method: 'GET', path: `/api/${api}/file/${file.id}` },
            { operationId: op, status: 404, method: 'GET', path: `/api/${api}/file/1` },
            { operationId: op, status: 404, method: 'GET', path: `/api/${api}/file/abc` },
            { operationId: op, status: 401, method: 'GET', path: `/api/${api}/file/${file.id}`, options: { auth: null } },
          ];
        }),
        {
          operationId: 'postVertexSendMessage',
          status: 200,
          method: 'POST',
          path: '/api/vertex/v1/dialog/send_message',
          options: { body: { token, text: 'bot says hi', typing: false } },
        },
        {
          operationId: 'postVertexSendMessage',
          status: 400,
          method: 'POST',
          path: '/api/vertex/v1/dialog/send_message',
          options: { body: { token, text: 5 } },
        },
        { operationId: 'postVertexSendMessage', status: 400, method: 'POST', path: '/api/vertex/v1/dialog/send_message', options: { body: '{"token":' } },
        {
          operationId: 'postVertexSendMessage',
          status: 403,
          method: 'POST',
          path: '/api/vertex/v1/dialog/send_message',
          options: { body: { token: 'forged', text: 'x' } },
        },
        { operationId: 'postVertexComplete', status: 403, method: 'POST', path: '/api/vertex/v1/complete', options: { body: '{"token":' } },
        { operationId: 'postVertexComplete', status: 204, method: 'POST', path: '/api/vertex/v1/complete', options: { body: { token, data: { ok: true } } } },
        { operationId: 'postVertexComplete', status: 403, method: 'POST', path: '/api/vertex/v1/complete', options: { body: { token, data: null } } },
      ];
      for (const c of cases) await expectConforming(sim, c);

      // A blocked instance answers 403 on every operation a valid caller makes (spec §5.3).
      for (const c of cases.filter((c) => c.status !== 401)) {
        await expectConforming(blocked, { ...c, status: 403, check: undefined });
      }
    });

    it('reaches every documented status of every operation', () => {
      const exempt = unreachable(sim.config);
      for (const op of validators.operations.values()) {
        const seen = [...(observed.get(op.operationId) ?? [])];
        for (const key of validators.documentedStatuses(op.operationId)) {
          if (exempt.has(`${op.operationId} ${key}`)) continue;
          const hit = seen.some((status) => validators.responseKey(op, status) === key);
          assert.ok(hit, `${op.label}: documented ${key} never observed (seen ${seen.join(', ') || 'nothing'})`);
        }
      }
    });
  });
}
