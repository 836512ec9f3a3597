import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { findSecrets, leakLine, unzip } from './secret-scan.ts';
import { guardSecret, suiteText } from '../../http/secret-match.ts';
import { callFields } from '../../http/callback-request.ts';
import { startSimulator } from '../../simulator/server.ts';
import { parseSuiteConfig, secretsOf } from '../../config/suite-config.ts';
import { SUITE_ENVIRONMENT } from '../core/env.ts';
import { freePort } from '../../config/free-port.ts';
import { simulatorTargetEnv } from '../../scripts/suite-run.ts';

/** A one-entry deflated zip, as Playwright embeds its report data. */
function zipOf(name: string, content: string): Buffer {
  const data = deflateRawSync(Buffer.from(content));
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const body = Buffer.concat([local, nameBytes, data]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(body.length, 16);
  return Buffer.concat([body, central, nameBytes, end]);
}

test('the scan finds secrets in plain files and inside the HTML report embedded zip, and names no clean file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
  mkdirSync(join(dir, 'html'));
  writeFileSync(join(dir, 'clean.txt'), 'nothing to see');
  writeFileSync(join(dir, 'plain.log'), 'password=hunter2-secret');
  writeFileSync(join(dir, 'header.txt'), '"authorization": "Basic cWEtY29udHJhY3Q6eHg="');
  const zipped = zipOf('data.json', JSON.stringify({ error: 'token tok-123456 leaked' }));
  assert.equal(unzip(zipped)[0]!.toString(), '{"error":"token tok-123456 leaked"}');
  writeFileSync(join(dir, 'html', 'index.html'), `<template id="playwrightReportBase64">data:application/zip;base64,${zipped.toString('base64')}</template>`);
  const leaks = findSecrets([dir], ['hunter2-secret', 'tok-123456'])
    .map((l) => `${l.file.slice(dir.length + 1)} ${l.kind}`)
    .sort();
  assert.deepEqual(leaks, ['header.txt Authorization header', 'html/index.html configured secret', 'plain.log configured secret']);
});

/** A reports folder with the given files (paths below it), for the scan. */
function reportsWith(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}
const leaksIn = (dir: string, secrets: Parameters<typeof findSecrets>[1]) =>
  findSecrets([dir], secrets)
    .map((l) => leakLine(l, dir))
    .sort();

// What a green or failing run writes where a secret that is an ordinary word also shows: test titles and their
// slugs, the vendor's prose, the suite's own field names, Playwright's page script, Respect's masked inputs.
const TITLE = 'GET /v1/conversations rejects a missing or a wrong password with 401';
const SLUG = 'v1-auth-GET-v1-conversatio-06bc9-r-a-wrong-password-with-401-api';
const PROSE_REPORTS = {
  'junit.xml': `<testcase name="${TITLE}" classname="v1/auth.spec.ts"><system-out>\n[[ATTACHMENT|test-results/${SLUG}/error-context.md]]\n</system-out>\n<failure message="expected 401 for a wrong password (spec §5.2)"/></testcase>`,
  'exchanges.har': JSON.stringify({
    log: {
      entries: [
        {
          request: { headers: [{ name: 'authorization', value: 'Basic [redacted] (a wrong password)' }] },
          response: { content: { text: '{"detail":"missing or wrong login or password (HTTP Basic)"}' } },
          _credentials: 'wrong password',
          _test: `v1/auth.spec.ts › ${TITLE}`,
        },
      ],
    },
  }),
  'drift.md': '| not-observable | §5.5 | how login, password and integration tokens are issued | not shown |\n',
  'html/index.html': `<script>constructor({password:e,rawPassword:t}){e.password=null;pt=\`Invalid password\`}</script><template>data:application/zip;base64,${zipOf('report.json', JSON.stringify({ title: TITLE, outputDir: `test-results/${SLUG}` })).toString('base64')}</template>`,
  'respect/respect.json': JSON.stringify({
    inputs: { env: { password: '********', login: 'qa-contract' } },
    steps: [{ description: 'a wrong password is refused with 401' }],
  }),
  [`test-results/${SLUG}/error-context.md`]: `# ${TITLE}\n`,
};

test('the scan reads what a run wrote since it began, not what other commands left in the same folder', () => {
  const dir = reportsWith({ 'mutation/drift/failures.json': 'token hunter2-secret', 'failures.json': 'token tok-123456' });
  const begun = Date.now() - 1000;
  const before = new Date(begun - 60_000);
  utimesSync(join(dir, 'mutation/drift/failures.json'), before, before);
  assert.deepEqual(
    findSecrets([dir], ['hunter2-secret', 'tok-123456'], begun).map((l) => leakLine(l, dir)),
    ['failures.json contains a configured secret'],
  );
  assert.equal(findSecrets([dir], ['hunter2-secret']).length, 1, 'without a start, every file is read');
});

test("a green run's reports do not trip the guard for a password that is an ordinary word (password, wrong-password)", () => {
  const dir = reportsWith(PROSE_REPORTS);
  for (const password of ['password', 'wrong-password', 'Password'])
    assert.deepEqual(leaksIn(dir, [guardSecret('API_PASSWORD', password, suiteText(TITLE))]), [], password);
});

test("a real leak fails the guard wherever it is written: evidence the vendor echoed, a HAR entry, Respect's output, a Basic header", () => {
  for (const [name, password] of [
    ['random', 'sim-secret-7f3a9c'],
    ['an ordinary word', 'password'],
  ] as const) {
    const secret = guardSecret('API_PASSWORD', password);
    const dir = reportsWith({
      ...PROSE_REPORTS,
      'drift.json': JSON.stringify({
        entries: [{ evidence: `request: POST /api/vertex/v1/dialog/send_message\nresponse: 200 application/json {"message_id":1,"echo":"${password}"}` }],
      }),
      'exchanges.har': JSON.stringify({ log: { entries: [{ request: { postData: { text: JSON.stringify({ token: password }) } } }] } }),
      'respect/respect.har': JSON.stringify({ log: { entries: [{ request: { queryString: [{ name: 'token', value: password }] } }] } }),
      'respect/respect.json': JSON.stringify({ inputs: { env: { password } } }),
    });
    assert.deepEqual(
      leaksIn(dir, [secret]),
      [
        'drift.json contains API_PASSWORD',
        'exchanges.har contains API_PASSWORD',
        'respect/respect.har contains API_PASSWORD',
        'respect/respect.json contains API_PASSWORD',
      ],
      name,
    );
  }
  // A random one inside the vendor's prose too, and in the forms a value takes in JSON, URLs and HTML.
  const quoted = guardSecret('VERTEX_TOKEN', 'tok"9x/Qe&7');
  const dir = reportsWith({
    'a.json': JSON.stringify({ detail: `token tok"9x/Qe&7 is not valid` }),
    'b.har': `{"url":"http://h/api?token=${encodeURIComponent('tok"9x/Qe&7')}"}`,
    'c.html': '<td>tok&quot;9x/Qe&amp;7</td>',
  });
  assert.deepEqual(leaksIn(dir, [quoted]), ['a.json contains VERTEX_TOKEN', 'b.har contains VERTEX_TOKEN', 'c.html contains VERTEX_TOKEN']);
  // Any Basic credential, whoever's: as a HAR header too, which names and values apart.
  const basic = reportsWith({
    'exchanges.har': JSON.stringify({
      log: { entries: [{ request: { headers: [{ name: 'authorization', value: `Basic ${Buffer.from('qa:other-password').toString('base64')}` }] } }] },
    }),
  });
  assert.deepEqual(leaksIn(basic, []), ['exchanges.har contains a Basic credential (an Authorization header)']);
});

test("the reporter names the leak and fails the run, in its reports and in its tests' output folder wherever --output put it; it warns at the start about a password that is an ordinary word", () => {
  const reports = reportsWith({ 'failures.json': JSON.stringify({ failures: [{ context: { exchanges: [{ response: { body: 'password' } }] } }] }) });
  // The tests' output folder apart from the reports, as `--output` puts it: read too.
  const output = reportsWith({ 'a-test/error-context.md': '```json\n{"body":"password"}\n```\n' });
  const guard = new URL('./secret-guard.ts', import.meta.url).pathname;
  const script = `
    const { default: Guard } = await import(${JSON.stringify(guard)});
    const guard = new Guard();
    guard.onBegin({ projects: [{ outputDir: ${JSON.stringify(output)} }] }, { allTests: () => [{ titlePath: () => ['', 'api', ${JSON.stringify(TITLE)}] }] });
    console.log(JSON.stringify(await guard.onEnd({ status: 'passed' })));`;
  // In the reports folder: the project's own test-results/ is not this test's.
  const run = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], {
    cwd: reports,
    encoding: 'utf8',
    env: {
      ...process.env,
      REPORTS_DIR: reports,
      API_BASE_URL: 'http://127.0.0.1:9',
      API_LOGIN: 'qa',
      API_PASSWORD: 'password',
      BOT_ID: '1',
      GOTO_BOT_ID: '2',
      CUSTOM_BLOCK_BOT_ID: '3',
      SIMULATOR_PROFILE: '',
    },
  });
  assert.equal(run.stdout.trim(), '{"status":"failed"}', run.stderr);
  assert.deepEqual(run.stderr.trim().split('\n'), [
    'secret-guard: API_PASSWORD is too short or too common to be guarded reliably (it reads as ordinary words): it is looked for only where a value is written (headers, bodies, URLs, report fields), not in prose; use a random value of 12 or more characters',
    'secret-guard: failures.json contains API_PASSWORD: remove it from what writes that file',
    `secret-guard: ${join(output, 'a-test/error-context.md')} contains API_PASSWORD: remove it from what writes that file`,
  ]);
});

/**
 * Stands between the simulator's custom block and the suite's listener: keeps every value of each call (the test
 * must know the tokens to look for them) and hands the call on unchanged.
 */
async function relay(inboxPort: number): Promise<{ url: string; values: Set<string>; close(): Promise<void> }> {
  const values = new Set<string>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    for (const field of await callFields({ method: req.method ?? 'POST', url: req.url ?? '/', headers, body })) values.add(field.value);
    const { host: _host, 'content-length': _length, ...forwarded } = headers;
    const answer = await fetch(`http://127.0.0.1:${inboxPort}${req.url}`, { method: req.method, headers: forwarded, body: body.length ? body : undefined });
    res.writeHead(answer.status).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    values,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// The token as JSON, as form fields and in a header; the drifts make tests fail after the token was used, and make
// send_message echo it back in the very answers the failures quote.
const DELIVERIES = [
  { how: 'a JSON body', callback: {} },
  { how: 'form fields', callback: { encoding: 'form' } },
  { how: 'an X-Integration-Token header', callback: { tokenHeader: 'X-Integration-Token' } },
] as const;

/** The suite's tests matching `grep` in `folders` against a simulator, as a user points it at a target. */
async function runAgainst(sim: { url: string; config: Parameters<typeof simulatorTargetEnv>[2] }, inboxPort: number, folders: string[], grep: string) {
  const reports = mkdtempSync(join(tmpdir(), 'secret-run-'));
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const env = { ...simulatorTargetEnv(sim.url, inboxPort, sim.config), REPORTS_DIR: reports };
  // Asynchronously: the simulator (and a relay) answer from this very process.
  const child = spawn(process.execPath, [cli, 'test', '--output', join(reports, 'test-results'), ...folders, '--project', 'api', '-g', grep], { env });
  const run = { output: '', status: null as number | null, reports, env };
  child.stdout.on('data', (c: Buffer) => (run.output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (run.output += c.toString()));
  run.status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return run;
}

for (const { how, callback } of DELIVERIES) {
  test(`a failing run writes no password, Basic header or integration token (delivered in ${how}) into any artifact`, async () => {
    const inboxPort = await freePort();
    const calls = await relay(inboxPort);
    const drifts = ['created-at-milliseconds', 'send-message-echoes-token', 'wrong-password-403'];
    const sim = await startSimulator({ port: 0, callbackUrl: calls.url, config: { callback }, drifts, log: () => {} });
    try {
      const run = await runAgainst(sim, inboxPort, ['contract/v1/', 'contract/vertex/'], 'token|password');
      const tokens = [...calls.values].filter((v) => v.length >= 16 && !/^[0-9a-f-]{36}$/i.test(v));
      assert.ok(tokens.length > 0, `the custom block delivered no token in ${how}`);
      assert.notEqual(run.status, 0, 'the drifted target must fail the run');
      assert.match(run.output, /failed/);
      assert.doesNotMatch(run.output, /secret-guard:/, 'the guard found a leak');
      const secrets = [...secretsOf(parseSuiteConfig(run.env, SUITE_ENVIRONMENT)), ...tokens];
      assert.ok(existsSync(join(run.reports, 'exchanges.har')), 'the HAR of every request and answer is among the artifacts scanned');
      assert.deepEqual(findSecrets([run.reports], secrets), [], 'a report holds a secret');
      assert.ok(
        secrets.every((secret) => !run.output.includes(secret)),
        'the console shows a secret',
      );
    } finally {
      await sim.close();
      await calls.close();
    }
  });
}

// The two false alarms of issue 20: a password that is an ordinary word turned a green run red, and one matched a
// test title's slug in junit.xml. Both now pass with a warning that such a password cannot be guarded everywhere.
const WARNING = /secret-guard: API_PASSWORD is too short or too common to be guarded reliably \(it reads as ordinary words\)/;
const auth = (password: string) => ({ auth: { login: 'qa-contract', password, realm: 'dialog-bot' } });

test('a green run with the password "password" stays green: titles and the vendor\'s prose say "password", nothing leaked', async () => {
  const inboxPort = await freePort();
  const sim = await startSimulator({ port: 0, callbackUrl: `http://127.0.0.1:${inboxPort}/callback`, config: auth('password'), log: () => {} });
  try {
    const run = await runAgainst(sim, inboxPort, ['contract/v1/', 'contract/v2/'], 'password');
    assert.equal(run.status, 0, run.output);
    assert.match(readFileSync(join(run.reports, 'junit.xml'), 'utf8'), /wrong password with 401/, 'the word is in the report');
    assert.match(run.output, WARNING);
    assert.doesNotMatch(run.output, / contains /);
  } finally {
    await sim.close();
  }
});

// Test-title slugs (test-results/…-wrong-password-with-401-api/) in junit.xml: the prose reports above.
test('a failing run with the password "wrong-password": its failing tests\' titles in junit.xml are no leak', async () => {
  const inboxPort = await freePort();
  const sim = await startSimulator({
    port: 0,
    callbackUrl: `http://127.0.0.1:${inboxPort}/callback`,
    config: auth('wrong-password'),
    drifts: ['wrong-password-403'],
    log: () => {},
  });
  try {
    const run = await runAgainst(sim, inboxPort, ['contract/v1/'], 'password');
    assert.notEqual(run.status, 0, 'the drift fails the auth tests');
    assert.match(
      readFileSync(join(run.reports, 'junit.xml'), 'utf8'),
      /<testcase name="[^"]*wrong password with 401"[^>]*>\s*<properties>/,
      'a failed test of that title is in junit.xml',
    );
    assert.match(run.output, WARNING);
    assert.doesNotMatch(run.output, / contains /);
  } finally {
    await sim.close();
  }
});
