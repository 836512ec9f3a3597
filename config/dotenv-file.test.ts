import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { badDotenvLine, loadDotenvFile } from './dotenv-file.ts';
import { ConfigError } from './suite-config.ts';

test('a line dotenv would skip is named by file and line, without the rest of it', () => {
  assert.equal(
    badDotenvLine('API_BASE_URL=\n# bots\nBOT_ID 101\nGOTO_BOT_ID=202\n', '.env'),
    '.env:3: not a NAME=value line (it starts with BOT_ID); write it as BOT_ID=value',
  );
  assert.equal(
    badDotenvLine('API_PASSWORD hunter2-secret\n', '.env'),
    '.env:1: not a NAME=value line (it starts with API_PASSWORD); write it as API_PASSWORD=value',
  );
  assert.equal(badDotenvLine('A=1\n= 2\n', '.env'), '.env:2: not a NAME=value line; fix or remove it');
  assert.equal(badDotenvLine('SEND_BODY="{\n  text: 1\n', '.env'), '.env:1: the value opened with " is never closed: close the quote');
});

test('every form dotenv reads passes: NAME=value, NAME: value, export, comments, blank lines, quoted values over lines', () => {
  const text = [
    '# comment',
    '',
    'A=1',
    'B = two words # trailing comment',
    'export C=3',
    'D: 4',
    "E='x'",
    'F="multi',
    'line"',
    'G=',
    '  H=indented',
    'I.J-K=5',
  ].join('\n');
  assert.equal(badDotenvLine(text, '.env'), undefined);
});

test('loading fills only what the environment leaves unset, and refuses a bad line with one ConfigError', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
  const good = join(dir, 'good.env');
  writeFileSync(good, 'BOT_ID=101\nAPI_LOGIN=from-file\n');
  const env: NodeJS.ProcessEnv = { API_LOGIN: 'from-environment' };
  loadDotenvFile(good, env);
  assert.deepEqual(env, { API_LOGIN: 'from-environment', BOT_ID: '101' });
  const bad = join(dir, 'bad.env');
  writeFileSync(bad, 'API_LOGIN=x\nBOT_ID 101\n');
  assert.throws(
    () => loadDotenvFile(bad, {}),
    (err: Error) =>
      err instanceof ConfigError && /bad\.env:2: not a NAME=value line \(it starts with BOT_ID\)/.test(err.message) && !err.message.includes('\n'),
  );
  loadDotenvFile(join(dir, 'missing.env'), env);
});
