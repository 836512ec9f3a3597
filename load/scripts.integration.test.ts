// The k6 bundles' own functions, run in Node under the k6 stand-in (testing/k6-stub.ts) with blocking HTTP to the
// simulator: setup(), a few iterations of each scenario and handleSummary, as k6 would call them. This checks the
// scripts' glue (generated operations, auth, checks, setup dialogs, the send body's discovery, throttle waits,
// evidence, reports) where no k6 binary exists; k6's executors and metrics themselves are not exercised here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuthorization } from '../config/suite-config.ts';
import type { LadderResult } from '../discovery/ladder-analysis.ts';
import type { SizeLimitFinding } from '../discovery/size-limits.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { ObservedItems } from '../lib/observations.ts';
import { DEFAULT_CONFIG, type RateLimitConfig } from '../simulator/config.ts';
import type { SimulatorOptions } from '../simulator/server.ts';
import { buildBundles, type ScriptName } from './build.ts';
import { importBundle, newHarness, summaryOf, type K6Harness } from './testing/k6-harness.ts';
import { startSyncHttp, type SyncHttp } from './testing/sync-http.ts';
import { listenForToken, type TokenListener } from './vertex-token.ts';

const HIDDEN = { maxPageCount: 250, maxTextLength: 2000, maxVariablesBytes: 3000 };
const bundles = buildBundles(mkdtempSync(join(tmpdir(), 'load-scripts-')));
const { login, password } = DEFAULT_CONFIG.auth;
const authorization = basicAuthorization(login, password);

/** What the runner hands k6 for its simulator (load/run.ts): every variable the k6 config requires. */
const targetEnv = (url: string): Record<string, string> => ({
  API_BASE_URL: url,
  API_LOGIN: login,
  API_PASSWORD: password,
  BOT_ID: '101',
  GOTO_BOT_ID: '202',
  CUSTOM_BLOCK_BOT_ID: '303',
  LOAD_REPORTS_DIR: 'reports/load',
});

let target: SyncHttp;
let listener: TokenListener;
let vertexToken: string;

before(async () => {
  listener = await listenForToken();
  target = await startSyncHttp({
    port: 0,
    callbackUrl: listener.url,
    config: {
      limits: {
        maxPageCount: { value: HIDDEN.maxPageCount },
        maxTextLength: { value: HIDDEN.maxTextLength },
        maxVariablesBytes: { value: HIDDEN.maxVariablesBytes },
      },
    },
  });
  target.request('POST', `${target.url}/api/v2/dialog/303/create`, '{"response":true}', { authorization, 'content-type': 'application/json' });
  vertexToken = await listener.token();
});

after(async () => {
  await target.close();
  await listener.close();
});

/** Imports a bundle against a simulator (by default the shared one), as `k6 run` with the runner's environment would. */
async function load(
  script: ScriptName,
  env: Record<string, string> = {},
  on: Pick<SyncHttp, 'url' | 'request'> = target,
): Promise<{ module: Record<string, unknown>; harness: K6Harness }> {
  const harness = newHarness({ ...targetEnv(on.url), VERTEX_TOKEN: vertexToken, ...env }, on.request);
  const module = await importBundle((await bundles)[script].file, harness);
  harness.consolidatedOptions = module.options;
  return { module, harness };
}

/** A simulator of its own for one test. */
async function withSimulator(options: SimulatorOptions, body: (sim: SyncHttp) => Promise<void>): Promise<void> {
  const sim = await startSyncHttp({ port: 0, ...options });
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

const call = (module: Record<string, unknown>, name: string, ...args: unknown[]) => (module[name] as (...a: unknown[]) => unknown)(...args);
const failedChecks = (harness: K6Harness) => harness.checks.filter((c) => !c.ok).map((c) => c.name);

test('size-limits finds every hidden limit exactly and writes them as fingerprint items', async () => {
  const { module, harness } = await load('size-limits');
  call(module, 'searchLimits', call(module, 'setup'));
  assert.deepEqual(failedChecks(harness), []);
  assert.equal(harness.counters.completed_iterations, 1);

  const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
  const items = (JSON.parse(files['reports/load/size-limits.fingerprint.json']!) as { items: FingerprintItem[] }).items;
  const observed = new ObservedItems(items);
  const limits = ['limit.maxPageCount', 'limit.maxTextLength.send', 'limit.maxTextLength.sendMessage', 'limit.maxVariablesBytes'] as const;
  const largest = Object.fromEntries(limits.filter((id) => observed.has(id)).map((id) => [id, observed.get(id)?.largestAccepted]));
  assert.deepEqual(largest, {
    'limit.maxPageCount': HIDDEN.maxPageCount,
    'limit.maxTextLength.send': HIDDEN.maxTextLength,
    'limit.maxTextLength.sendMessage': HIDDEN.maxTextLength,
    'limit.maxVariablesBytes': HIDDEN.maxVariablesBytes,
  });
  assert.equal(items.find((i) => i.id === 'limit.maxPageCount')?.operation, 'GET /v2/conversations');
  assert.match(files.stdout!, /limit\.maxPageCount \(GET \/v2\/conversations\): 250 \(251 refused with 400\), \d+ requests \(bound 16\)/);
  assert.match(files.stdout!, /send body \{"text":"\{\{text\}\}"\}: discovered: .*verified by/);
  assert.ok(!Object.values(files).some((text) => text.includes(vertexToken) || text.includes(password)), 'no secret in any report');
  // The page beside the JSON draws each search as its steps: one mark per value tried.
  const report = JSON.parse(files['reports/load/size-limits.json']!) as { findings: { limits: SizeLimitFinding[] } };
  const page = files['reports/load/size-limits.html']!;
  for (const f of report.findings.limits) {
    const section = page.slice(page.indexOf(`<section class="search" data-id="${f.id}"`)).split('</section>')[0]!;
    assert.equal(section.match(/<circle class="probe /g)?.length, f.result!.probes.length, f.id);
    assert.match(section, new RegExp(`data-testid="size-limit-value">${f.result!.limit}<`));
  }
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

test('an iteration that throws is counted as an error, not as completed, and still throws', async () => {
  const { module, harness } = await load('list');
  call(module, 'setup');
  harness.respond = () => {
    throw new Error('the target went away');
  };
  assert.throws(() => call(module, 'listV1'), /the target went away/);
  assert.equal(harness.counters.iteration_errors, 1);
  assert.equal(harness.counters.completed_iterations ?? 0, 0);
});

test('send: setup prepares operator dialogs; operator and custom-block messages are accepted', async () => {
  const { module, harness } = await load('send');
  const data = call(module, 'setup') as { dialogs: string[]; sendBody: string };
  assert.equal(data.dialogs.length, 4);
  assert.equal(data.sendBody, '{"text":"{{text}}"}');
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
    const harness = newHarness(targetEnv(tight.url), tight.request);
    const module = await importBundle((await bundles)['rate-limit'].file, harness);
    harness.consolidatedOptions = module.options;
    harness.scenarioName = 'getV2Conversations_r05';
    for (let i = 0; i < 6; i++) call(module, 'listRung');
    // Each request waits out a random part of its arrival period (0.2 s at 5/s): the phase, for a split test.
    assert.equal(harness.sleeps.length, 6);
    assert.ok(harness.sleeps.every((s) => s >= 0 && s < 0.2));
    assert.equal((harness.counters.ladder_ok ?? 0) + (harness.counters.ladder_rate_limited ?? 0), 6);
    assert.ok((harness.counters.ladder_rate_limited ?? 0) >= 2);
    const evidence = harness.checks.filter((c) => c.name.startsWith('evidence:rejection.getV2Conversations:'));
    assert.equal(evidence.length, 1);
    assert.match(evidence[0]!.name, /"status":429.*retry-after/i);

    const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
    const items = (JSON.parse(files['reports/load/rate-limit.fingerprint.json']!) as { items: FingerprintItem[] }).items;
    assert.deepEqual(
      items.map((i) => i.id),
      ['rate.limit.getV2Conversations', 'rate.limit.postV2ConversationSend'],
    );
    assert.equal(new ObservedItems(items).get('rate.limit.getV2Conversations')?.refusalStatus, 429);
    // The page beside the JSON: one mark per rung of each ladder.
    const report = JSON.parse(files['reports/load/rate-limit.json']!) as { findings: { ladders: LadderResult[] } };
    assert.deepEqual(
      report.findings.ladders.map((l) => l.stages.length),
      [13, 13],
    );
    assert.equal(files['reports/load/rate-limit.html']!.match(/<g class="rung /g)?.length, 26);
  } finally {
    await tight.close();
  }
});

/** Send bodies as the simulator sees them: only the field `message` carries the text. */
const MESSAGE_VENDOR: SimulatorOptions = { config: { send: { textFields: ['message'] } } };
const MESSAGE_BODY = '{"message":"{{text}}"}';

test('send: without SEND_BODY, setup discovers a body whose field is not "text", stops its dialog and reports how', async () => {
  await withSimulator(MESSAGE_VENDOR, async (sim) => {
    const { module, harness } = await load('send', { VERTEX_TOKEN: '' }, sim);
    const data = call(module, 'setup') as { dialogs: string[]; sendBody: string };
    assert.equal(data.sendBody, MESSAGE_BODY);
    // The candidates it saw refused are expected answers, not failed requests.
    const refused = harness.requests.filter((r) => r.tags.operation === 'postV2ConversationSend');
    assert.ok(refused.length >= 2 && refused.every((r) => r.expected !== undefined), JSON.stringify(refused));
    for (let i = 0; i < 3; i++) {
      harness.iterationInTest = i;
      call(module, 'sendOperator', data);
    }
    assert.deepEqual(failedChecks(harness), []);

    const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
    const report = JSON.parse(files['reports/load/send.json']!) as { findings: { sendBody: { template: string; how: string; dialogs: string[] } } };
    const { sendBody } = report.findings;
    assert.equal(sendBody.template, MESSAGE_BODY);
    assert.match(sendBody.how, /^discovered: \{"message":"\{\{text\}\}"\}, verified by updated moved, after \d+ tries$/);
    assert.match(files.stdout!, /send body \{"message":"\{\{text\}\}"\}: discovered: /);
    assert.equal(sendBody.dialogs.length, 1);
    const record = sim.request('GET', `${sim.url}/api/v2/conversation/${sendBody.dialogs[0]}`, null, { authorization });
    assert.equal(
      (JSON.parse(record.body) as { status: string }).status,
      DEFAULT_CONFIG.statuses.operator,
      'the discovery dialog ends stopped, like the prepared ones',
    );
  });
});

test('send: SEND_BODY is used as given, with no discovery', async () => {
  await withSimulator(MESSAGE_VENDOR, async (sim) => {
    const { module, harness } = await load('send', { VERTEX_TOKEN: '', SEND_BODY: MESSAGE_BODY }, sim);
    const data = call(module, 'setup') as { dialogs: string[]; sendBody: string };
    assert.equal(data.sendBody, MESSAGE_BODY);
    assert.ok(!harness.requests.some((r) => r.tags.operation === 'getV1DialogCreate' || r.tags.operation === 'postV2ConversationSend'), 'nothing discovered');
    call(module, 'sendOperator', data);
    assert.deepEqual(failedChecks(harness), []);
    const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
    assert.match(files.stdout!, /send body \{"message":"\{\{text\}\}"\}: configured \(SEND_BODY\)/);
  });
  await withSimulator(MESSAGE_VENDOR, async (sim) => {
    // Taken as given even when it is wrong: the sends fail their check instead of being rediscovered.
    const { module, harness } = await load('send', { VERTEX_TOKEN: '', SEND_BODY: '{"text":"{{text}}"}' }, sim);
    call(module, 'sendOperator', call(module, 'setup'));
    assert.deepEqual(failedChecks(harness), ['postV2ConversationSend answers 204']);
  });
});

test('send: setup aborts with the one-line reason when no body shape can be established', async () => {
  await withSimulator({ config: { send: { textFields: ['payload.words'] } } }, async (sim) => {
    const { module, harness } = await load('send', { VERTEX_TOKEN: '' }, sim);
    assert.throws(() => call(module, 'setup'), /test aborted/);
    assert.match(harness.aborted ?? '', /^send body undetermined: no candidate body showed its message in the dialog .*; set SEND_BODY$/);
    assert.ok(!harness.requests.some((r) => r.tags.operation === 'postV2DialogCreate'), 'no dialogs prepared after the abort');
  });
});

test('setup waits out a throttled answer, and gives up after THROTTLE_MAX_RETRIES', async () => {
  await withSimulator({}, async (sim) => {
    let throttled = 0;
    const throttleFirstCreate: SyncHttp['request'] = (method, url, body, headers) => {
      if (url.includes('/dialog/101/create') && throttled++ === 0) return { status: 429, headers: {}, body: '' };
      return sim.request(method, url, body, headers);
    };
    const { module, harness } = await load('send', { VERTEX_TOKEN: '', SEND_BODY: MESSAGE_BODY }, { url: sim.url, request: throttleFirstCreate });
    assert.equal((call(module, 'setup') as { dialogs: string[] }).dialogs.length, 4);
    // No Retry-After: exponential backoff with jitter, the first wait between 0.25 and 0.5 s.
    assert.equal(harness.sleeps.length, 1);
    assert.ok(harness.sleeps[0]! >= 0.25 && harness.sleeps[0]! <= 0.5, String(harness.sleeps));

    const alwaysThrottled: SyncHttp['request'] = () => ({ status: 429, headers: { 'retry-after': '0' }, body: '' });
    const limited = await load(
      'send',
      { VERTEX_TOKEN: '', SEND_BODY: MESSAGE_BODY, THROTTLE_MAX_RETRIES: '2', LOAD_DIALOGS: '1' },
      { url: sim.url, request: alwaysThrottled },
    );
    assert.throws(() => call(limited.module, 'setup'), /test aborted/);
    assert.equal(limited.harness.requests.length, 3, 'the preflight read and 2 retries');
    assert.match(limited.harness.aborted ?? '', /^no verdict: the target kept throttling: GET .* still answered 429/);
  });
});

test('setup() stops before any load, in one line, on a target it cannot judge', async () => {
  const gateway: SyncHttp['request'] = () => ({ status: 404, headers: { 'Content-Type': 'text/html' }, body: '<html>no such route</html>' });
  const down: SyncHttp['request'] = () => ({ status: 0, headers: {}, body: '', error: 'dial tcp 127.0.0.1:9: connect: connection refused', error_code: 1212 });
  const cases: Array<[Record<string, string>, Pick<SyncHttp, 'url' | 'request'>, RegExp]> = [
    [{ API_PASSWORD: 'not-the-password' }, target, /^no verdict: credentials rejected: GET .* answered 401 .*check API_LOGIN and API_PASSWORD$/],
    [
      {},
      { url: target.url, request: gateway },
      /^no verdict: API_BASE_URL does not look like the Dialog Bot Service: .* answered 404 text\/html; check the base path/,
    ],
    [{}, { url: target.url, request: down }, /^no verdict: the target cannot be reached: .*\(1212 dial tcp .* connection refused\)/],
  ];
  for (const [env, on, reason] of cases) {
    const { module, harness } = await load('list', env, on);
    assert.throws(() => call(module, 'setup'), /test aborted/);
    assert.match(harness.aborted ?? '', reason);
    assert.equal(harness.requests.length, 1, 'one request');
    assert.ok(!(harness.aborted ?? '').includes('not-the-password'));
  }
});

/** The fingerprint items and the text summary of a script's handleSummary. */
function summaryItems(module: Record<string, unknown>, harness: K6Harness, script: ScriptName) {
  const files = call(module, 'handleSummary', summaryOf(harness)) as Record<string, string>;
  const items = (JSON.parse(files[`reports/load/${script}.fingerprint.json`]!) as { items: FingerprintItem[] }).items;
  return { stdout: files.stdout!, observed: new ObservedItems(items) };
}

test('size-limits names a limit refused with 503 as refused, not throttled, and one that clamps as clamped', async () => {
  const limits = { maxPageCount: { value: 250, clamp: true }, maxTextLength: { value: 2000, status: 503 }, maxVariablesBytes: { value: 3000, status: 503 } };
  await withSimulator({ config: { limits } }, async (sim) => {
    const { module, harness } = await load('size-limits', { VERTEX_TOKEN: '' }, sim);
    call(module, 'searchLimits', call(module, 'setup'));
    assert.deepEqual(failedChecks(harness), []);
    const { stdout, observed: items } = summaryItems(module, harness, 'size-limits');
    const observed = (id: 'limit.maxPageCount' | 'limit.maxTextLength.send') => items.get(id);
    assert.match(stdout, /limit\.maxPageCount \(GET \/v2\/conversations\): 250 \(251 clamped to 250\)/);
    assert.match(stdout, /limit\.maxTextLength\.send \([^)]+\): 2000 \(2001 refused with 503\)/);
    assert.match(stdout, /limit\.maxVariablesBytes \([^)]+\): 3000 \(3001 refused with 503\)/);
    assert.deepEqual([observed('limit.maxTextLength.send')?.largestAccepted, observed('limit.maxTextLength.send')?.refusalStatus], [2000, 503]);
    assert.deepEqual([observed('limit.maxPageCount')?.refusal, observed('limit.maxPageCount')?.clampedTo], ['clamped', 250]);
    assert.equal(harness.sleeps.length, 0, 'a 503 the target gives a value alone is no throttle to wait out');
  });
});

test('size-limits says plainly that it could not tell when the target answers 503 to everything', async () => {
  await withSimulator({}, async (sim) => {
    const overloaded: SyncHttp['request'] = (method, url, body, headers) =>
      url.includes('/send') ? { status: 503, headers: { 'retry-after': '0' }, body: '' } : sim.request(method, url, body, headers);
    const { module, harness } = await load(
      'size-limits',
      { VERTEX_TOKEN: '', SEND_BODY: '{"text":"{{text}}"}', THROTTLE_MAX_RETRIES: '1' },
      { url: sim.url, request: overloaded },
    );
    call(module, 'searchLimits', call(module, 'setup'));
    const { stdout, observed } = summaryItems(module, harness, 'size-limits');
    assert.match(stdout, /limit\.maxTextLength\.send \([^)]+\): could not tell: /);
    assert.equal(observed.get('limit.maxTextLength.send')?.outcome, 'inconclusive');
  });
});

test('rate-limit names how the target refuses: Retry-After in seconds, as an HTTP date, or absent, and a 503 as ambiguous', async () => {
  const cases: Array<[RateLimitConfig, RegExp, string]> = [
    [{ perSecond: 1, burst: 3 }, /refused with 429, Retry-After \d+ s/, 'seconds'],
    [{ perSecond: 1, burst: 3, retryAfter: 'http-date' }, /refused with 429, Retry-After at [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4}/, 'http-date'],
    [{ perSecond: 1, burst: 3, retryAfter: 'none' }, /refused with 429, Retry-After absent/, 'absent'],
    [{ perSecond: 1, burst: 3, status: 503 }, /refused with 503 \(an overload looks the same: could not tell it from a rate limit\)/, 'seconds'],
  ];
  for (const [rate, line, form] of cases) {
    await withSimulator({ config: { limits: { rate } } }, async (sim) => {
      const { module, harness } = await load('rate-limit', {}, sim);
      harness.scenarioName = 'getV2Conversations_r05';
      for (let i = 0; i < 6; i++) call(module, 'listRung');
      const { stdout, observed } = summaryItems(module, harness, 'rate-limit');
      assert.match(stdout, line, JSON.stringify(rate));
      assert.equal(observed.get('rate.limit.getV2Conversations')?.retryAfter, form, JSON.stringify(rate));
      assert.equal(observed.get('rate.limit.getV2Conversations')?.refusalStatus, rate.status ?? 429);
    });
  }
});
