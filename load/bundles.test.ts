// The k6 bundles without k6: built as `npm run load:build` builds them, then read as k6 would. No syntax above
// es2017, imports from k6 modules only, no Node globals, options with the thresholds that fail a hollow run, every
// scenario's exec function exported, the configuration and the safety rails wired into the init context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'acorn';
import { buildBundles, SCRIPTS } from './build.ts';
import { importBundle, newHarness } from './testing/k6-harness.ts';

const K6_MODULES = /^k6(\/(http|metrics|data|execution|encoding|crypto|timers|ws|net\/grpc|html|experimental\/[a-z-]+))?$/;
const NODE_GLOBALS = new Set(['require', 'process', 'Buffer', '__dirname', '__filename', 'global', 'module', 'exports']);
const ENV: Record<string, string> = {
  API_BASE_URL: 'http://127.0.0.1:4010',
  API_LOGIN: 'qa-contract',
  API_PASSWORD: 'sim-secret-7f3a9c',
  BOT_ID: '101',
  GOTO_BOT_ID: '202',
  CUSTOM_BLOCK_BOT_ID: '303',
};

const bundles = buildBundles(mkdtempSync(join(tmpdir(), 'load-bundles-')));

type Node = { type: string; [key: string]: unknown };

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) for (const child of node) walk(child, visit);
  else if (node && typeof node === 'object' && typeof (node as Node).type === 'string') {
    visit(node as Node);
    for (const value of Object.values(node)) if (value && typeof value === 'object') walk(value, visit);
  }
}

/** Names a program reads as free variables (declared nowhere in it): a cheap over-approximation is enough here. */
function identifiersRead(program: unknown): Set<string> {
  const names = new Set<string>();
  walk(program, (node) => {
    if (node.type === 'Identifier') names.add(node.name as string);
  });
  return names;
}

for (const script of SCRIPTS) {
  test(`${script}: parses as es2017 module code and imports only k6 modules`, async () => {
    const { file } = (await bundles)[script];
    const source = await readFile(file, 'utf8');
    const program = parse(source, { ecmaVersion: 2017, sourceType: 'module' });
    const imports: string[] = [];
    walk(program, (node) => {
      if (node.type === 'ImportDeclaration') imports.push((node.source as { value: string }).value);
    });
    assert.ok(imports.length > 0);
    assert.deepEqual(
      imports.filter((source) => !K6_MODULES.test(source)),
      [],
    );
    assert.deepEqual(
      [...identifiersRead(program)].filter((name) => NODE_GLOBALS.has(name)),
      [],
    );
    // The callback reader (http/callback-request.ts) parses forms with busboy, a Node library: never for k6.
    assert.ok(!/busboy/i.test(source), 'no multipart parser in a k6 bundle');
  });

  test(`${script}: exports options with scenarios, run-failing thresholds, no redirects, and every exec function`, async () => {
    const module = await importBundle((await bundles)[script].file, newHarness(ENV));
    const options = module.options as { scenarios: Record<string, { exec: string }>; thresholds: Record<string, unknown[]>; maxRedirects: number };
    assert.ok(Object.keys(options.scenarios).length > 0);
    assert.deepEqual(options.thresholds.checks, ['rate>0.99']);
    assert.deepEqual(options.thresholds.completed_iterations, ['count>0']);
    assert.deepEqual(options.thresholds.iteration_errors, [{ threshold: 'count==0', abortOnFail: true }]);
    assert.deepEqual(options.thresholds.http_req_failed, [{ threshold: 'rate<0.02', abortOnFail: true, delayAbortEval: '5s' }]);
    assert.equal(options.maxRedirects, 0);
    for (const { exec } of Object.values(options.scenarios)) assert.equal(typeof module[exec], 'function', `exec ${exec}`);
    assert.equal(typeof module.setup, 'function');
    assert.equal(typeof module.handleSummary, 'function');
  });

  test(`${script}: refuses a host outside the allow list, or a URL with userinfo, before any request`, async () => {
    const outside = newHarness({ ...ENV, API_BASE_URL: 'http://evil.example.com' });
    await assert.rejects(importBundle((await bundles)[script].file, outside), /refusing to run: host evil\.example\.com is not in LOAD_ALLOW_HOSTS/);
    const userinfo = newHarness({ ...ENV, API_BASE_URL: 'http://localhost@evil.example.com' });
    await assert.rejects(importBundle((await bundles)[script].file, userinfo), /^ConfigError: API_BASE_URL must not carry credentials in the URL/);
    assert.deepEqual([...outside.requests, ...userinfo.requests], []);
  });

  test(`${script}: without API_BASE_URL, one line on running it through npm run load`, async () => {
    const { API_BASE_URL: _, ...rest } = ENV;
    const harness = newHarness(rest);
    const error = await importBundle((await bundles)[script].file, harness).then(
      () => assert.fail('the bundle loaded without API_BASE_URL'),
      (e: Error) => e,
    );
    assert.equal(error.name, 'ConfigError');
    assert.match(error.message, /^API_BASE_URL is missing: run the k6 scripts through `npm run load`, which starts a simulator, or set API_BASE_URL/);
    assert.ok(!error.message.includes('\n'), 'one line');
    assert.deepEqual(harness.requests, []);
  });
}

test('setup() aborts when CLI flags push the consolidated options past the caps', async () => {
  const harness = newHarness(ENV);
  const module = await importBundle((await bundles).list.file, harness);
  harness.consolidatedOptions = { ...(module.options as object), scenarios: { default: { executor: 'constant-vus', vus: 500, duration: '1h' } } };
  assert.throws(() => (module.setup as () => void)(), /test aborted/);
  assert.match(harness.aborted ?? '', /500 VUs .* LOAD_MAX_VUS.*LOAD_MAX_DURATION/);
  assert.deepEqual(harness.requests, []);
});

for (const name of ['API_LOGIN', 'API_PASSWORD', 'BOT_ID']) {
  test(`without ${name} the init context stops with one line naming it`, async () => {
    const error = await importBundle((await bundles).send.file, newHarness({ ...ENV, [name]: '' })).then(
      () => assert.fail(`the bundle loaded without ${name}`),
      (e: Error) => e,
    );
    assert.equal(error.name, 'ConfigError');
    assert.match(error.message, new RegExp(`^${name} is missing: `));
    assert.ok(!error.message.includes('\n'), 'one line');
  });
}

test('each script requires only what it uses: no script needs GOTO_BOT_ID or CUSTOM_BLOCK_BOT_ID, list not even BOT_ID', async () => {
  const built = await bundles;
  for (const script of ['list', 'send', 'rate-limit', 'size-limits'] as const) {
    const unused = script === 'list' ? ['BOT_ID', 'GOTO_BOT_ID', 'CUSTOM_BLOCK_BOT_ID'] : ['GOTO_BOT_ID', 'CUSTOM_BLOCK_BOT_ID'];
    const module = await importBundle(built[script].file, newHarness({ ...ENV, ...Object.fromEntries(unused.map((name) => [name, ''])) }));
    assert.ok(module.options, `${script} loads without ${unused.join(', ')}`);
  }
});

test('a malformed setting is refused in one line too: SEND_BODY without {{text}}', async () => {
  const error = await importBundle((await bundles).send.file, newHarness({ ...ENV, SEND_BODY: '{"message":"hi"}' })).then(
    () => assert.fail('the bundle loaded with a SEND_BODY that carries no text'),
    (e: Error) => e,
  );
  assert.match(error.message, /^SEND_BODY must hold \{\{text\}\} as a whole value/);
  assert.ok(!error.message.includes('\n'), 'one line');
});
