// The size searches against the simulator with known hidden limits: the same definitions and search the k6 script
// runs (discovery/size-limits.ts), driven asynchronously over fetch. Each limit must come out exactly, within the bound.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { driveAsync } from '../discovery/drive.ts';
import { SIZE_LIMITS, sizeLimitSearch, type ProbeContext, type SizeSearchStep } from '../discovery/size-limits.ts';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { startSimulator, type RunningSimulator } from '../simulator/server.ts';
import { nodeClient, type Send } from './node-client.ts';
import { operationsTable } from './openapi-data.ts';
import { listenForToken, type TokenListener } from './vertex-token.ts';

const HIDDEN = { maxPageCount: 137, maxTextLength: 3001, maxVariablesBytes: 5000 };
const { login, password } = DEFAULT_CONFIG.auth;
const operations = operationsTable();

let simulator: RunningSimulator;
let listener: TokenListener;
let send: Send;
let context: ProbeContext;

before(async () => {
  listener = await listenForToken();
  simulator = await startSimulator({
    port: 0,
    callbackUrl: listener.url,
    log: () => {},
    config: {
      limits: {
        maxPageCount: { value: HIDDEN.maxPageCount },
        maxTextLength: { value: HIDDEN.maxTextLength, status: 422 },
        maxVariablesBytes: { value: HIDDEN.maxVariablesBytes },
        // A tight bucket, so the searches must also wait out 429s (Retry-After: 0 keeps the test fast).
        rate: { perSecond: 200, burst: 20, retryAfterSeconds: 0 },
      },
    },
  });
  send = nodeClient(simulator.url, login, password);
  const created = await send({ operationId: 'postV2DialogCreate', pathParams: { BotID: 101 }, query: { response: 'true' }, json: { response: true } });
  const dialogUuid = (JSON.parse(created.body) as { dialogUUID: string }).dialogUUID;
  assert.equal((await send({ operationId: 'postV2ConversationStop', pathParams: { uuid: dialogUuid } })).status, 204);
  await send({ operationId: 'postV2DialogCreate', pathParams: { BotID: 303 }, json: { response: true } });
  // The simulator's default send body; the k6 script discovers it (load/scripts.integration.test.ts).
  context = { botId: 101, dialogUuid, sendBody: '{"text":"{{text}}"}', vertexToken: await listener.token() };
});

after(async () => {
  await simulator.close();
  await listener.close();
});

const expected: Record<string, number> = {
  'limit.maxPageCount': HIDDEN.maxPageCount,
  'limit.maxTextLength.send': HIDDEN.maxTextLength,
  'limit.maxTextLength.sendMessage': HIDDEN.maxTextLength,
  'limit.maxVariablesBytes': HIDDEN.maxVariablesBytes,
};

for (const limit of SIZE_LIMITS) {
  test(`finds ${limit.id} exactly, within ⌈log2 range⌉ + 2 requests`, async () => {
    let waits = 0;
    const answer = async (step: SizeSearchStep) => {
      if (step.kind === 'send') return send(step.request);
      waits++;
      await new Promise((resolve) => setTimeout(resolve, step.seconds * 1000));
      return undefined;
    };
    const finding = await driveAsync(
      sizeLimitSearch(limit, context, { operation: operations[limit.operationId]!.label, secrets: [password, context.vertexToken] }),
      answer,
    );
    const result = finding.result!;
    assert.equal(result.outcome, 'found', `${limit.id}: ${JSON.stringify(result.probes)}`);
    assert.equal(result.limit, expected[limit.id]);
    assert.equal(result.firstRejected, expected[limit.id]! + 1);
    assert.ok(result.requests <= result.bound, `${result.requests} requests > bound ${result.bound} (and ${waits} waits)`);
    assert.equal(finding.refusal?.status, limit.id.startsWith('limit.maxTextLength') ? 422 : 400);
    assert.ok(!finding.refusal?.body.includes(context.vertexToken!), 'the token never reaches a finding');
  });
}
