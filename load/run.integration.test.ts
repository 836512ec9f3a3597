// The runner without k6: a missing k6 and an unknown script each give one line and exit 2; with a stand-in k6 on
// PATH, the runner builds, starts the simulator with hidden limits, hands k6 every variable the k6 config requires,
// and stops the simulator afterwards; against a target it hands k6 the user's environment unchanged.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLoadConfig } from '../config/suite-config.ts';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { startSimulator } from '../simulator/server.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { helpText } from '../config/command-line.ts';
import { COMMAND, INSTALL_K6, NO_VERDICT } from './run.ts';

const RUNNER = fileURLToPath(new URL('./run.ts', import.meta.url));

function runner(args: string[], path: string, env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, ...args], {
      env: { PATH: path, HOME: process.env.HOME ?? '', API_BASE_URL: '', API_PASSWORD: '', VERTEX_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

interface Seen {
  args: string[];
  env: Record<string, string>;
  /** What the target answered k6's credentials on GET /v2/conversations. */
  status: number;
}

/** A k6 stand-in that records its arguments and environment, and checks the target answers. */
/** The fake k6s' folders: removed at the end, so no executable named k6 outlives the tests (a CI host looks for one). */
const fakes: string[] = [];
after(() => {
  for (const dir of fakes) rmSync(dir, { recursive: true, force: true });
});

function fakeK6(): { dir: string; seen: () => Seen } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-k6-'));
  fakes.push(dir);
  const record = join(dir, 'record.json');
  const k6 = join(dir, 'k6');
  writeFileSync(
    k6,
    `#!${process.execPath}
const { API_BASE_URL, API_LOGIN, API_PASSWORD } = process.env;
const auth = 'Basic ' + Buffer.from(API_LOGIN + ':' + API_PASSWORD).toString('base64');
fetch(API_BASE_URL + '/api/v2/conversations', { headers: { authorization: auth } }).then((res) => {
  require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), env: process.env, status: res.status }));
  process.exit(7);
});
`,
  );
  chmodSync(k6, 0o755);
  return { dir, seen: () => JSON.parse(readFileSync(record, 'utf8')) as Seen };
}

test('without k6 on PATH: one line on how to install it, exit 2', async () => {
  const { code, stderr } = await runner(['list'], mkdtempSync(join(tmpdir(), 'no-k6-')));
  assert.equal(code, 2);
  assert.equal(stderr, `${INSTALL_K6}\n`);
});

test('an unknown script: one line naming the valid ones, exit 2', async () => {
  const { code, stderr } = await runner(['hammer'], fakeK6().dir);
  assert.equal(code, 2);
  assert.equal(stderr, 'load: unknown load script "hammer": use one of list, send, rate-limit, size-limits; see npm run load -- --help\n');
});

test('--help and -h print the usage and exit 0, with or without k6', async () => {
  for (const flag of ['--help', '-h']) {
    const { code, stdout } = await runner([flag], mkdtempSync(join(tmpdir(), 'no-k6-')));
    assert.equal(code, 0);
    assert.equal(stdout, helpText(COMMAND));
  }
});

test('--split takes 1 to 8 runners; anything else is one line, exit 2', async () => {
  for (const n of ['0', '9', 'two', '']) {
    const { code, stderr } = await runner(['rate-limit', '--split', n], fakeK6().dir);
    assert.equal(code, 2);
    assert.match(stderr, /^load: --split .* is not valid: give a number of runners from 1 to 8\n$/);
  }
});

test('a target that cannot be judged stops the runner before k6, in one line, with the no-verdict status', async () => {
  const gateway = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html>no route</html>'));
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const target = await startSimulator({ port: 0, log: () => {} });
  try {
    const who = { API_LOGIN: DEFAULT_CONFIG.auth.login, LOAD_ALLOW_HOSTS: '127.0.0.1', BOT_ID: '101' };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { API_BASE_URL: target.url, API_PASSWORD: 'rotated-yesterday' },
        /^load: no verdict: credentials rejected: GET .* answered 401 .*check API_LOGIN and API_PASSWORD\n$/,
      ],
      [
        { API_BASE_URL: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`, API_PASSWORD: 'gateway-password' },
        /does not look like the Dialog Bot Service: .* answered 404 text\/html; check the base path/,
      ],
    ];
    for (const [env, line] of cases) {
      const { dir, seen } = fakeK6();
      const { code, stderr } = await runner(['list'], dir, { ...who, ...env });
      assert.equal(code, NO_VERDICT, stderr);
      assert.match(stderr, line);
      assert.doesNotMatch(stderr, /rotated-yesterday/);
      assert.throws(seen, 'k6 never ran');
    }
  } finally {
    await target.close();
    gateway.close();
  }
});

test('runs k6 on the bundle against its own simulator, with every required variable, and returns k6 exit code', async () => {
  const { dir, seen } = fakeK6();
  const { code, stderr } = await runner(['size-limits', '--quiet'], dir);
  assert.equal(code, 7, stderr);
  const { args, env, status } = seen();
  assert.deepEqual(args.slice(0, 2), ['run', '--quiet']);
  assert.match(args[2]!, /dist\/load\/size-limits\.js$/);
  assert.match(env.API_BASE_URL!, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(status, 200);
  // The k6 config accepts it as it is, and it names the simulator's own bots.
  const config = parseLoadConfig(env);
  const bots = DEFAULT_CONFIG.bots;
  assert.equal(config.botId, bots[0]!.id);
  assert.deepEqual([env.GOTO_BOT_ID, env.CUSTOM_BLOCK_BOT_ID], [String(bots[1]!.id), String(bots.find((b) => b.customBlockUrl)!.id)]);
  assert.ok(config.vertexToken, 'a custom-block token for the vertex requests');
  await assert.rejects(fetch(`${env.API_BASE_URL}/api/v2/conversations`), 'the simulator is stopped afterwards');
});

test("against a target (API_BASE_URL set) k6 gets the user's environment unchanged, and no simulator starts", async () => {
  const target = await startSimulator({ port: 0, log: () => {} });
  try {
    const user = {
      API_BASE_URL: target.url,
      API_LOGIN: DEFAULT_CONFIG.auth.login,
      API_PASSWORD: DEFAULT_CONFIG.auth.password,
      BOT_ID: '505',
      GOTO_BOT_ID: '101',
      CUSTOM_BLOCK_BOT_ID: '303',
      SEND_BODY: '{"text":"{{text}}"}',
      LOAD_ALLOW_HOSTS: '127.0.0.1',
    };
    const { dir, seen } = fakeK6();
    const { code, stderr } = await runner(['send'], dir, user);
    assert.equal(code, 7, stderr);
    const { env, status } = seen();
    assert.deepEqual(Object.fromEntries(Object.keys(user).map((name) => [name, env[name]])), user);
    assert.equal(env.VERTEX_TOKEN, '', 'no token fetched for a target');
    assert.equal(status, 200);
    assert.doesNotMatch(stderr, /simulator with hidden limits/);
  } finally {
    await target.close();
  }
});

test('a simulator profile together with a target stops the runner in one line, as it stops the suite', async () => {
  const { code, stderr } = await runner(['list'], fakeK6().dir, { API_BASE_URL: 'http://127.0.0.1:9', SIMULATOR_PROFILE: 'form-text-acme' });
  assert.equal(code, 2);
  assert.match(stderr, /^load: SIMULATOR_PROFILE=form-text-acme is set together with API_BASE_URL: .*unset one of them\n$/);
});
