// The k6 bundles without k6: built as `npm run load:build` builds them, then read as k6 would. No syntax above
// es2017, imports from k6 modules only, no Node globals, options with the thresholds that fail a hollow run, every
// scenario's exec function exported, the safety rails wired into the init context.
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
const ENV = { API_PASSWORD: 'sim-secret-7f3a9c' };

const bundles = buildBundles(mkdtempSync(join(tmpdir(), 'load-bundles-')));

type Node = { type: string; [key: string]: unknown };

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) node.forEach((child) => walk(child, visit));
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
    const program = parse(await readFile(file, 'utf8'), { ecmaVersion: 2017, sourceType: 'module' });
    const imports: string[] = [];
    walk(program, (node) => {
      if (node.type === 'ImportDeclaration') imports.push((node.source as { value: string }).value);
    });
    assert.ok(imports.length > 0);
    assert.deepEqual(imports.filter((source) => !K6_MODULES.test(source)), []);
    assert.deepEqual([...identifiersRead(program)].filter((name) => NODE_GLOBALS.has(name)), []);
  });

  test(`${script}: exports options with scenarios, run-failing thresholds, no redirects, and every exec function`, async () => {
    const module = await importBundle((await bundles)[script].file, newHarness(ENV));
    const options = module.options as { scenarios: Record<string, { exec: string }>; thresholds: Record<string, unknown[]>; maxRedirects: number };
    assert.ok(Object.keys(options.scenarios).length > 0);
    assert.deepEqual(options.thresholds.checks, ['rate>0.99']);
    assert.deepEqual(options.thresholds.completed_iterations, ['count>0']);
    assert.deepEqual(options.thresholds.http_req_failed, [{ threshold: 'rate<0.02', abortOnFail: true, delayAbortEval: '5s' }]);
    assert.equal(options.maxRedirects, 0);
    for (const { exec } of Object.values(options.scenarios)) assert.equal(typeof module[exec], 'function', `exec ${exec}`);
    assert.equal(typeof module.setup, 'function');
    assert.equal(typeof module.handleSummary, 'function');
  });

  test(`${script}: refuses a host outside the allow list before any request`, async () => {
    const harness = newHarness({ ...ENV, API_BASE_URL: 'http://localhost@evil.example.com' });
    await assert.rejects(importBundle((await bundles)[script].file, harness), /refusing to run: .*userinfo/);
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

test('refuses to start without API_PASSWORD in the environment', async () => {
  await assert.rejects(importBundle((await bundles).list.file, newHarness({})), /API_PASSWORD is not set/);
});
