// The k6 bundles' own functions, run in Node under the k6 stand-in (testing/k6-stub.ts) with blocking HTTP to the
// simulator: setup(), a few iterations of each scenario and handleSummary, as k6 would call them. This checks the
// scripts' glue (generated operations, auth, checks, setup dialogs, evidence, reports) where no k6 binary exists;
// k6's executors and metrics themselves are not exercised here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { buildBundles, type ScriptName } from './build.ts';
import { importBundle, newHarness, summaryOf, type K6Harness } from './testing/k6-harness.ts';
import { startSyncHttp, type SyncHttp } from './testing/sync-http.ts';
import { listenForToken, type TokenListener } from './vertex-token.ts';

const HIDDEN = { maxPageCount: 250, maxTextLength: 2000, maxVariablesBytes: 3000 };
const bundles = buildBundles(mkdtempSync(join(tmpdir(), 'load-scripts-')));

let target: SyncHttp;
let listener: TokenListener;
let vertexToken: string;

before(async () => {
  listener = await listenForToken();
  target = await startSyncHttp({
    port: 0,
    callbackUrl: listener.url,
    config: { limits: { maxPageCount: { value: HIDDEN.maxPageCount }, maxTextLength: { value: HIDDEN.maxTextLength }, maxVariablesBytes: { value: HIDDEN.maxVariablesBytes } } },
  });
  const harness = newHarness({}, target.request);
  const auth = `Basic ${Buffer.from(`${DEFAULT_CONFIG.auth.login}:${DEFAULT_CONFIG.auth.password}`).toString('base64')}`;
  harness.respond('POST', `${target.url}/api/v2/dialog/303/create`, '{"response":true}', { authorization: auth, 'content-type': 'application/json' });
  vertexToken = await listener.token();
});

after(async () => {
  await target.close();
  await listener.close();
});

/** Imports a bundle against the simulator, as `k6 run` with the runner's environment would. */
async function load(script: ScriptName, env: Record<string, string> = {}): Promise<{ module: Record<string, unknown>; harness: K6Harness }> {
  const harness = newHarness({ API_BASE_URL: target.url, API_PASSWORD: DEFAULT_CONFIG.auth.password, VERTEX_TOKEN: vertexToken, ...env }, target.request);
  const module = await importBundle((await bundles)[script].file, harness);
  harness.consolidatedOptions = module.options;
  return { module, harness };
}

const call = (module: Record<string, unknown>, name: string, ...args: unknown[]) => (module[name] as (...a: unknown[]) => unknown)(...args);
const failedChecks = (harness: K6Harness) => harness.checks.filter((c) => !c.ok).map((c) => c.name);

test('size-limits finds every hidden limit exactly and writes them as fingerprint items', async () => {
  const { module, harness } = await load('size-limits');
  call(module, 'searchLimits', call(module, 'setup'));
  assert.deepEqual(failedChecks(harness), []);
  assert.equal(harness.counters.completed_iterations, 1);

  const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
  const items = JSON.parse(files['reports/load/size-limits.fingerprint.json']!) as FingerprintItem[];
  const largest = Object.fromEntries(items.map((i) => [i.id, (i.observed as { largestAccepted: number }).largestAccepted]));
  assert.deepEqual(largest, {
    'limit.maxPageCount': HIDDEN.maxPageCount,
    'limit.maxTextLength.send': HIDDEN.maxTextLength,
    'limit.maxTextLength.sendMessage': HIDDEN.maxTextLength,
    'limit.maxVariablesBytes': HIDDEN.maxVariablesBytes,
  });
  assert.equal(items.find((i) => i.id === 'limit.maxPageCount')?.operation, 'GET /v2/conversations');
  assert.match(files.stdout!, /limit\.maxPageCount \(GET \/v2\/conversations\): 250 \(251 refused with 400\), \d+ requests \(bound 16\)/);
  assert.ok(!Object.values(files).some((text) => text.includes(vertexToken) || text.includes(DEFAULT_CONFIG.auth.password)), 'no secret in any report');
});

test('list: every paging and filter variant answers 200 with the envelope, requests tagged by operation', async () => {
  const { module, harness } = await load('list');
  call(module, 'setup');
  for (let i = 0; i < 6; i++) {
    harness.iterationInTest = i;
    call(module, 'listV1');
    call(module, 'listV2');
  }
  assert.deepEqual(failedChecks(harness), []);
  assert.equal(harness.checks.length, 24);
  assert.deepEqual([...new Set(harness.requests.map((r) => `${r.tags.operation} ${r.tags.name}`))].sort(), [
    'getV1Conversations GET /v1/conversations',
    'getV2Conversations GET /v2/conversations',
  ]);
});

test('send: setup prepares operator dialogs; operator and custom-block messages are accepted', async () => {
  const { module, harness } = await load('send');
  const data = call(module, 'setup') as { dialogs: string[] };
  assert.equal(data.dialogs.length, 4);
  for (let i = 0; i < 3; i++) {
    harness.iterationInTest = i;
    call(module, 'sendOperator', data);
    call(module, 'sendBotMessage');
  }
  assert.deepEqual(failedChecks(harness), []);
  assert.equal(harness.counters.completed_iterations, 6);
});

test('send runs without the custom-block scenario when no VERTEX_TOKEN is given', async () => {
  const { module } = await load('send', { VERTEX_TOKEN: '' });
  assert.deepEqual(Object.keys((module.options as { scenarios: object }).scenarios), ['sendOperator']);
});

test('rate-limit: a rung counts 2xx and 429 apart and hands over one redacted 429 sample per operation', async () => {
  const tight = await startSyncHttp({ port: 0, config: { limits: { rate: { perSecond: 1, burst: 3 } } } });
  try {
    const harness = newHarness({ API_BASE_URL: tight.url, API_PASSWORD: DEFAULT_CONFIG.auth.password }, tight.request);
    const module = await importBundle((await bundles)['rate-limit'].file, harness);
    harness.consolidatedOptions = module.options;
    for (let i = 0; i < 6; i++) call(module, 'listRung');
    assert.equal((harness.counters.ladder_ok ?? 0) + (harness.counters.ladder_rate_limited ?? 0), 6);
    assert.ok((harness.counters.ladder_rate_limited ?? 0) >= 2);
    const evidence = harness.checks.filter((c) => c.name.startsWith('evidence:rejection.getV2Conversations:'));
    assert.equal(evidence.length, 1);
    assert.match(evidence[0]!.name, /"status":429.*retry-after/i);

    const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
    const items = JSON.parse(files['reports/load/rate-limit.fingerprint.json']!) as FingerprintItem[];
    assert.deepEqual(items.map((i) => i.id), ['rate.limit.getV2Conversations', 'rate.limit.postV2ConversationSend']);
    assert.equal((items[0]!.observed as { refusalStatus: number }).refusalStatus, 429);
  } finally {
    await tight.close();
  }
});
