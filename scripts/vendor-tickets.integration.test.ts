// Only the vendor's drift becomes a ticket (issue 45): one missing field is one ticket, listing where it was seen, and
// the run's observations stay whole (the tests it passes through go on gathering); JUnit calls each contract failure a
// <failure> with its ticket's headline, never an <error>; no ticket or failure quotes an end user's IP address or city
// unless KEEP_PERSONAL_DATA says so; a custom block's listener nobody reached is not judged, never a vendor ticket.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../config/free-port.ts';
import { STOPPED_RUN_DIR } from '../contract/run/run-files.ts';
import { runAgainstSimulator } from './suite-run.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const json = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;
const tickets = (dir: string) => (existsSync(join(dir, 'tickets')) ? readdirSync(join(dir, 'tickets')) : []);
/** An IPv4 address that is no server's in a URL (http://127.0.0.1:…): an end user's, from a dialog. */
const USER_IP = /(?<![\d.]|\/\/)\b(?:\d{1,3}\.){3}\d{1,3}\b(?![\d.])/;

test("one missing field is one ticket, with the run's observations whole; JUnit calls it a <failure>; no ticket quotes an end user's IP", async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'one-ticket-'));
  const run = await runAgainstSimulator({ drifts: ['v2-source-removed'] }, { reportsDir, workers: 2 });
  assert.notEqual(run.exitCode, 0, 'the drift fails the run');
  const filed = tickets(reportsDir);
  assert.equal(filed.length, 1, `one cause, one ticket: ${filed.join(', ')}`);
  const ticket = readFileSync(join(reportsDir, 'tickets', filed[0]!), 'utf8');
  assert.match(ticket, /^# \[Dialog Bot Service\] GET \/v2\/conversation\/\{uuid\}, GET \/v2\/conversations: source: expected required property\n/);
  assert.match(ticket, /- Seen at 2 places \(one cause, one ticket\):/);

  // Every observation the conforming simulator gives (its committed baseline) is in this run's fingerprint too.
  const conforming = json<{ items: Array<{ id: string; severity?: string }> }>(join(ROOT, 'baselines', 'simulator.json')).items.filter((i) => !i.severity);
  const seen = new Set(json<{ items: Array<{ id: string }> }>(join(reportsDir, 'fingerprint.json')).items.map((i) => i.id));
  assert.deepEqual(
    conforming.map((i) => i.id).filter((id) => !seen.has(id)),
    [],
    'no observation lost to the drift',
  );

  const junit = readFileSync(join(reportsDir, 'junit.xml'), 'utf8');
  assert.equal((junit.match(/<error /g) ?? []).length, 0, 'a contract failure is no crash');
  const failures = [...junit.matchAll(/<failure message="([^"]*)" type="contract">/g)].map((m) => m[1]);
  assert.ok(failures.length > 0, 'each test that met the drift is a <failure>');
  assert.deepEqual([...new Set(failures)], ['[Dialog Bot Service] GET /v2/conversation/{uuid}, GET /v2/conversations: source: expected required property']);

  // The ticket and the failures it quotes carry pseudonyms, never an end user's address or city.
  assert.doesNotMatch(ticket, USER_IP);
  assert.match(ticket, /"ip":"ip-\d+","location":"city-\d+"/);
  const quoted = JSON.stringify(json<{ failures: Array<{ context: unknown }> }>(join(reportsDir, 'failures.json')).failures.map((f) => f.context));
  assert.doesNotMatch(quoted, USER_IP);
  assert.doesNotMatch(readFileSync(join(reportsDir, 'drift.md'), 'utf8'), USER_IP);
});

test('KEEP_PERSONAL_DATA=1 keeps the real addresses and cities, for reports that stay in the company', async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'kept-'));
  await runAgainstSimulator(
    { drifts: ['v2-source-removed'] },
    { reportsDir, workers: 1, env: { KEEP_PERSONAL_DATA: '1' }, extraArgs: ['contract/v2/create.spec.ts'] },
  );
  const filed = tickets(reportsDir);
  assert.ok(filed.length > 0);
  assert.match(readFileSync(join(reportsDir, 'tickets', filed[0]!), 'utf8'), USER_IP);
});

test("a custom block's listener no call reached is not judged: no vendor ticket, no exit 1, the line says what to fix", async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'no-callback-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(API_|BOT_ID|GOTO_BOT_ID|CUSTOM_BLOCK_BOT_ID|SIMULATOR_PROFILE)/.test(k)));
  // The block calls a URL nothing listens on, the listener on CALLBACK_PORT: as when a tunnel is down.
  const [simulator, listener, nowhere] = [await freePort(), await freePort(), await freePort()];
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    // Its own output folder: another test's Playwright run in the project's root empties test-results/ as it starts.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/contract.ts', 'contract/vertex/custom-block.spec.ts', '--output', join(reportsDir, 'test-results')],
      {
        cwd: ROOT,
        env: {
          ...env,
          REPORTS_DIR: reportsDir,
          SIMULATOR_PORT: String(simulator),
          CALLBACK_PORT: String(listener),
          CALLBACK_PUBLIC_URL: `http://127.0.0.1:${nowhere}/callback`,
          CALLBACK_TIMEOUT_S: '2',
          FORCE_COLOR: '0',
        },
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    child.once('close', (code) => resolve({ code, stderr }));
  });
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr.trim().split('\n').at(-1)!, /^dialog-contract: no verdict: .*no call reached the listener .*check that the custom block's URL/);
  assert.deepEqual([...tickets(reportsDir), ...tickets(join(reportsDir, STOPPED_RUN_DIR))], [], 'no vendor ticket');
  const stopped = json<{ notJudged: string[] }>(join(reportsDir, STOPPED_RUN_DIR, 'drift.json'));
  assert.ok(stopped.notJudged.some((line) => /no call reached the listener/.test(line)));
});
