// The runner without k6: a missing k6 and an unknown script each give one line and exit 2; with a stand-in k6 on
// PATH, the runner builds, starts the simulator with hidden limits, hands k6 the target in its environment, and
// stops the simulator afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTALL_K6 } from './run.ts';

const RUNNER = fileURLToPath(new URL('./run.ts', import.meta.url));

function runner(args: string[], path: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, ...args], {
      env: { PATH: path, HOME: process.env.HOME ?? '', API_BASE_URL: '', API_PASSWORD: '', VERTEX_TOKEN: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** A k6 stand-in that records its arguments and environment, and checks the target answers. */
function fakeK6(): { dir: string; record: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-k6-'));
  const record = join(dir, 'record.json');
  const k6 = join(dir, 'k6');
  writeFileSync(
    k6,
    `#!${process.execPath}
const { API_BASE_URL, API_LOGIN, API_PASSWORD, VERTEX_TOKEN } = process.env;
const auth = 'Basic ' + Buffer.from(API_LOGIN + ':' + API_PASSWORD).toString('base64');
fetch(API_BASE_URL + '/api/v2/conversations', { headers: { authorization: auth } }).then((res) => {
  require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), API_BASE_URL, hasToken: Boolean(VERTEX_TOKEN), status: res.status }));
  process.exit(7);
});
`,
  );
  chmodSync(k6, 0o755);
  return { dir, record };
}

test('without k6 on PATH: one line on how to install it, exit 2', async () => {
  const { code, stderr } = await runner(['list'], mkdtempSync(join(tmpdir(), 'no-k6-')));
  assert.equal(code, 2);
  assert.equal(stderr, `${INSTALL_K6}\n`);
});

test('an unknown script: one line naming the valid ones, exit 2', async () => {
  const { code, stderr } = await runner(['hammer'], fakeK6().dir);
  assert.equal(code, 2);
  assert.equal(stderr, 'unknown load script "hammer": use one of list, send, rate-limit, size-limits\n');
});

test('runs k6 on the bundle against its own simulator, passes k6 arguments through, returns k6 exit code', async () => {
  const { dir, record } = fakeK6();
  const { code, stderr } = await runner(['size-limits', '--quiet'], dir);
  assert.equal(code, 7, stderr);
  const seen = JSON.parse(readFileSync(record, 'utf8')) as { args: string[]; API_BASE_URL: string; hasToken: boolean; status: number };
  assert.deepEqual(seen.args.slice(0, 2), ['run', '--quiet']);
  assert.match(seen.args[2]!, /dist\/load\/size-limits\.js$/);
  assert.match(seen.API_BASE_URL, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(seen.status, 200);
  assert.equal(seen.hasToken, true, 'a custom-block token for the vertex requests');
  await assert.rejects(fetch(`${seen.API_BASE_URL}/api/v2/conversations`), 'the simulator is stopped afterwards');
});
