// Every drift mode changes something a contract suite can observe through the public API, deterministically;
// additive drifts still satisfy the OpenAPI document.
import { responseFailures } from '../checks/response.ts';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contractValidators } from '../openapi/validators.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { renderHeadline } from '../lib/failure.ts';
import { DRIFTS } from './drifts/index.ts';
import { blockListener, seededStore, simulator, type CallOptions, type TestSimulator } from './test-support.ts';

/** What earlier steps learned: the integration token of the POST create on bot 303, the UUID of the V1 create, the UUIDs V2 creates answered. */
interface Learned {
  token: string;
  created: string;
  v2Created: string[];
}

interface Step {
  operationId: OperationId;
  method: string;
  path: string | ((learned: Learned) => string);
  options?: CallOptions | ((learned: Learned) => CallOptions);
}

interface Observation {
  operationId: OperationId;
  status: number;
  contentType: string | null;
  body: string;
}

/** Seeded dialogs, known without the API (a drift may hide the UUIDs from the list). */
function seededDialogs() {
  const store = seededStore();
  const live = store.dialogs.filter((d) => !d.deleted && store.dataOf(d).length > 0);
  const pick = (state: string) => live.find((d) => d.state === state)!;
  const downloadable = (item: { fileId?: number; deleted?: boolean }) => item.fileId !== undefined && !item.deleted;
  const withFile = live.find((d) => store.dataOf(d).some(downloadable))!;
  const fileId = store.dataOf(withFile).find(downloadable)!.fileId!;
  // A creation period ending an hour before a dialog's creation, written at +05:00: read as UTC it takes the dialog in.
  const { createdAt } = live[Math.floor(live.length / 2)]!;
  const zoned = (ms: number) => `${new Date(ms + 5 * 3_600_000).toISOString().slice(0, 19)}%2B05:00`;
  const createdTo = zoned(createdAt - 3_600_000);
  return { inProcess: pick('inProcess'), operator: pick('operator'), completed: pick('completed'), withFile, fileId, createdTo };
}

/**
 * One session touching every clause a drift can break: lists and filters (time zones and times included), reads,
 * files, creates with variables, transitions, send and its effect, vertex send and complete.
 */
function scenario(): Step[] {
  const { inProcess, operator, completed, withFile, fileId, createdTo } = seededDialogs();
  const conv = (uuid: string, action: string) => `/api/v2/conversation/${uuid}/${action}`;
  const target = operator.botId === 505 ? 202 : 505;
  return [
    ...['v1', 'v2'].flatMap((api): Step[] => {
      const operationId = api === 'v1' ? 'getV1Conversations' : 'getV2Conversations';
      return [
        '',
        '?PageCount=5&PageNumber=2',
        '?BotID=202&PageCount=100',
        '?CreatedFrom=2026-11-01&PageCount=100',
        '?UpdatedFrom=2026-11-10T00:00:00Z&UpdatedTo=2026-11-15&PageCount=100',
        '?UpdatedFrom=2026-11-10T00:00:00Z&PageCount=100',
        '?UpdatedFrom=2026-11-10T05:00:00%2B05:00&UpdatedTo=2026-11-15T00:00:00&PageCount=100',
        `?CreatedTo=${createdTo}&PageCount=100`,
        '?PageNumber=999',
        '?PageCount=0',
        // Inputs of the classes the generated inputs reach: a fraction of a second, a day February does not have, a
        // bot id past 32 bits.
        '?CreatedFrom=2026-11-01T00:00:00.250Z&PageCount=100',
        '?CreatedTo=2026-02-30',
        '?BotID=4294967296',
      ].map((query) => ({ operationId, method: 'GET', path: `/api/${api}/conversations${query}` }));
    }),
    { operationId: 'getV1Conversations', method: 'GET', path: '/api/v1/conversations', options: { auth: null } },
    { operationId: 'getV1Conversation', method: 'GET', path: `/api/v1/conversation/${completed.id}` },
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${completed.uuid}` },
    { operationId: 'getV1Conversation', method: 'GET', path: '/api/v1/conversation/999999' },
    { operationId: 'getV2Conversation', method: 'GET', path: '/api/v2/conversation/00000000-0000-4000-8000-000000000000' },
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${withFile.uuid}` },
    { operationId: 'getV1File', method: 'GET', path: `/api/v1/file/${fileId}` },
    { operationId: 'getV1DialogCreate', method: 'GET', path: `/api/v1/dialog/101/create?variables=${encodeURIComponent('{"city":"Oslo"}')}` },
    { operationId: 'getV2Conversation', method: 'GET', path: ({ created }) => `/api/v2/conversation/${created}` },
    { operationId: 'getV1DialogCreate', method: 'GET', path: '/api/v1/dialog/101/create' },
    { operationId: 'postV2ConversationStop', method: 'POST', path: ({ created }) => conv(created, 'stop') },
    { operationId: 'getV2Conversation', method: 'GET', path: ({ created }) => `/api/v2/conversation/${created}` },
    { operationId: 'getV2DialogCreate', method: 'GET', path: '/api/v2/dialog/101/create' },
    { operationId: 'getV2Conversations', method: 'GET', path: '/api/v2/conversations?BotID=101&PageCount=2' },
    { operationId: 'postV2DialogCreate', method: 'POST', path: '/api/v2/dialog/101/create?response=true' },
    { operationId: 'postV2DialogCreate', method: 'POST', path: '/api/v2/dialog/101/create?response=true' },
    // Variables in the query, in the body, and the dialogs that carry them: the newest of the list.
    {
      operationId: 'postV2DialogCreate',
      method: 'POST',
      path: `/api/v2/dialog/101/create?variables=${encodeURIComponent('{"city":"Oslo"}')}`,
      options: { body: { response: true } },
    },
    {
      operationId: 'postV2DialogCreate',
      method: 'POST',
      path: '/api/v2/dialog/101/create',
      options: { body: { response: true, variables: '{"city":"Bergen"}' } },
    },
    { operationId: 'getV2DialogCreate', method: 'GET', path: `/api/v2/dialog/101/create?variables=${encodeURIComponent('{"city":"Tromso"}')}` },
    ...[0, 1, 2].map(
      (i): Step => ({ operationId: 'getV2Conversation', method: 'GET', path: ({ v2Created }) => `/api/v2/conversation/${v2Created.at(i - 3)}` }),
    ),
    { operationId: 'getV2Conversations', method: 'GET', path: '/api/v2/conversations?BotID=101&PageCount=2' },
    { operationId: 'postV2DialogCreate', method: 'POST', path: '/api/v2/dialog/303/create?response=true' },
    ...[true, false].map(
      (typing): Step => ({
        operationId: 'postVertexSendMessage',
        method: 'POST',
        path: '/api/vertex/v1/dialog/send_message',
        options: ({ token }) => ({ body: { token, text: 'hi', typing } }),
      }),
    ),
    {
      operationId: 'postVertexComplete',
      method: 'POST',
      path: '/api/vertex/v1/complete',
      options: ({ token }) => ({ body: { token, data: ['done', { итог: 1 }] } }),
    },
    { operationId: 'postVertexSendMessage', method: 'POST', path: '/api/vertex/v1/dialog/send_message', options: { body: { token: 'forged', text: 'hi' } } },
    { operationId: 'postVertexComplete', method: 'POST', path: '/api/vertex/v1/complete', options: { body: { token: 'forged' } } },
    { operationId: 'postV2ConversationStart', method: 'POST', path: conv(completed.uuid, 'start') },
    { operationId: 'postV2ConversationStop', method: 'POST', path: conv(inProcess.uuid, 'stop') },
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${inProcess.uuid}` },
    { operationId: 'postV2ConversationSend', method: 'POST', path: conv(operator.uuid, 'send'), options: { body: { text: 'hello 🙂 e\u0301' } } },
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${operator.uuid}` },
    { operationId: 'postV2ConversationStart', method: 'POST', path: conv(operator.uuid, 'start') },
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${operator.uuid}` },
    { operationId: 'postV2ConversationCommand', method: 'POST', path: conv(operator.uuid, 'command'), options: { body: { command: 'goto', bot_id: target } } },
    { operationId: 'getV2Conversations', method: 'GET', path: `/api/v2/conversations?BotID=${target}&PageCount=100` },
    { operationId: 'getV1Conversations', method: 'GET', path: `/api/v1/conversations?BotID=${target}&PageCount=100` },
    // The moved dialog: still there, and start and stop still act on it.
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${operator.uuid}` },
    { operationId: 'postV2ConversationStop', method: 'POST', path: conv(operator.uuid, 'stop') },
    { operationId: 'getV2Conversation', method: 'GET', path: `/api/v2/conversation/${operator.uuid}` },
    { operationId: 'getV1Conversations', method: 'GET', path: '/api/v1/conversations?BotID=101&PageCount=8' },
    // Variables with a name and a value outside ASCII, read back.
    {
      operationId: 'postV2DialogCreate',
      method: 'POST',
      path: '/api/v2/dialog/101/create',
      options: { body: { response: true, variables: '{"город":"Мурманск"}' } },
    },
    { operationId: 'getV2Conversation', method: 'GET', path: ({ v2Created }) => `/api/v2/conversation/${v2Created.at(-1)}` },
    // Last, so the dialogs read above stay the same: a create asked for no identifiers.
    { operationId: 'postV2DialogCreate', method: 'POST', path: '/api/v2/dialog/101/create', options: { body: { response: false } } },
  ];
}

/** Marks the observation of the custom block's call (no answer of the API's): what fields it carried. */
const CALL = 'the call to the block URL';

describe('drift modes', () => {
  const validators = contractValidators();
  const steps = scenario();
  let listener: Awaited<ReturnType<typeof blockListener>>;
  let baseline: Observation[];

  async function observe(drifts: string[]): Promise<Observation[]> {
    const sim: TestSimulator = await simulator({ drifts, callbackUrl: listener.url });
    try {
      const out: Observation[] = [];
      const learned: Learned = { token: '', created: '', v2Created: [] };
      for (const step of steps) {
        const path = typeof step.path === 'function' ? step.path(learned) : step.path;
        const options = typeof step.options === 'function' ? step.options(learned) : step.options;
        // A reply the HTTP client refuses (a body shorter than its Content-Length) is an observation too.
        const res = await sim
          .call(step.method, path, options)
          .catch((err: Error) => ({ status: 0, contentType: null, body: err.message, json: () => undefined }));
        // Only the custom block's bot calls the block listener: what its call carried is observed too.
        if (step.operationId === 'postV2DialogCreate' && path.includes('/303/')) {
          const { fields } = await listener.next();
          learned.token = String(fields.token);
          out.push({ operationId: 'postV2DialogCreate', status: 0, contentType: CALL, body: JSON.stringify(Object.keys(fields).sort()) });
        }
        if (step.operationId === 'getV1DialogCreate' && res.status === 200) learned.created ||= String(res.json().dialogId);
        const answersIds = (step.operationId === 'postV2DialogCreate' || step.operationId === 'getV2DialogCreate') && res.status === 200;
        const uuid = answersIds ? (res.json() as { dialogUUID?: unknown }).dialogUUID : undefined;
        if (typeof uuid === 'string') learned.v2Created.push(uuid);
        // File links hold the simulator's port, which differs between sessions.
        out.push({ operationId: step.operationId, status: res.status, contentType: res.contentType, body: res.body.replaceAll(sim.url, 'SIMULATOR') });
      }
      return out;
    } finally {
      await sim.close();
    }
  }

  function problemsOf(observations: Observation[]): string[] {
    return observations
      .filter((o) => o.contentType !== CALL)
      .flatMap((o) =>
        o.status === 0
          ? [`${o.operationId}: no whole reply (${o.body})`]
          : responseFailures(validators, o.operationId, { status: o.status, contentType: o.contentType, body: o.body }).map(renderHeadline),
      );
  }

  before(async () => {
    listener = await blockListener();
    baseline = await observe([]);
  });
  after(() => listener.close());

  it('has at least 24 drifts, uniquely named, each with a kind, a spec clause and a description', () => {
    assert.ok(DRIFTS.length >= 24, `${DRIFTS.length} drifts`);
    assert.equal(new Set(DRIFTS.map((d) => d.name)).size, DRIFTS.length);
    for (const d of DRIFTS) {
      assert.match(d.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(['breaking', 'additive', 'undocumented'].includes(d.kind), d.name);
      assert.match(d.clause, /^§\d/, d.name);
      assert.ok(d.description.length > 10, d.name);
      assert.ok(d.config || d.beforeRequest || d.change || d.pageOffset || d.transformResponse, `${d.name} has no hook`);
    }
  });

  it('the conforming session satisfies the document and is reproducible', async () => {
    assert.deepEqual(problemsOf(baseline), []);
    assert.deepEqual(await observe([]), baseline);
  });

  for (const drift of DRIFTS) {
    it(`${drift.name} (${drift.kind}) is observable through the public API`, async () => {
      const drifted = await observe([drift.name]);
      assert.notDeepEqual(drifted, baseline, `${drift.name} changed nothing in the session`);
      assert.deepEqual(await observe([drift.name]), drifted, `${drift.name} is not deterministic`);
      if (drift.kind !== 'breaking') assert.deepEqual(problemsOf(drifted), [], `${drift.name} must break no documented clause`);
    });
  }
});
