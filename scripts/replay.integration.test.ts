// A ticket's curl line reproduces its failure: against a drifted simulator, the run's tickets and failures.json carry
// the request as a curl command with the credentials as references only; pasted into bash with API_BASE_URL,
// API_LOGIN and API_PASSWORD set it gets the answer the failure was found on, and `npm run replay -- … --run` sends
// the same request and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedFailure } from '../lib/failure.ts';
import { runSuite, startRunSimulator } from './suite-run.ts';

const REPLAY = fileURLToPath(new URL('./replay.ts', import.meta.url));

// Asynchronous: the simulator answering them runs in this process.
const exec = promisify(execFile);

/** The status line curl -i printed last (a 100 Continue may come first). */
const statusOf = (output: string) => Number([...output.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].pop()?.[1]);

test("a ticket's curl line and npm run replay --run reproduce the failure against the drifted target", async () => {
  const { sim, callbackPort } = await startRunSimulator({ drifts: ['wrong-password-403', 'v2-source-removed'] });
  try {
    const reportsDir = mkdtempSync(join(tmpdir(), 'replay-'));
    const run = await runSuite({
      baseUrl: sim.url,
      callbackPort,
      reportsDir,
      workers: 1,
      simulator: sim.config,
      extraArgs: ['contract/v2/auth.spec.ts', 'contract/v2/lists.spec.ts'],
    });
    assert.ok(run.failed.length > 0, 'the drifts fail the run');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      API_BASE_URL: sim.url,
      API_LOGIN: sim.config.auth.login,
      API_PASSWORD: sim.config.auth.password,
    };

    const tickets = readdirSync(join(reportsDir, 'tickets')).map((f) => readFileSync(join(reportsDir, 'tickets', f), 'utf8'));
    const replayable = tickets.filter((t) => t.includes('## Reproduce'));
    const seen = new Set<string>();
    for (const ticket of replayable) {
      const curl = /## Reproduce\n\n.*\n\n```sh\n(curl .*)\n```/.exec(ticket)![1]!;
      assert.ok(!curl.includes(sim.config.auth.password) && !curl.includes(sim.url), 'no credential or target in the command');
      const recorded = Number(/^response: (\d{3}) /m.exec(ticket)![1]);
      const { stdout: output } = await exec('bash', ['-c', curl], { env, encoding: 'utf8' });
      assert.equal(statusOf(output), recorded, `${curl}\n${output.slice(0, 300)}`);
      if (ticket.includes('check: ignored_auth')) assert.equal(recorded, 403, 'the drift: a wrong password answered 403');
      if (ticket.includes('/source')) assert.doesNotMatch(output, /"source"/, 'the drift: no source');
      seen.add(curl.includes('-wrong"') ? 'wrong password' : curl.includes('-u ') ? 'configured' : 'none');
    }
    assert.ok(seen.has('none') && seen.has('configured'), `tickets replayed: ${[...seen].join(', ')}`);

    // A ticket shows the first request of its drift; failures.json has each, the wrong password's too.
    const { failures } = JSON.parse(readFileSync(join(reportsDir, 'failures.json'), 'utf8')) as { failures: Array<RecordedFailure & { replay?: string }> };
    const wrong = failures.findIndex((f) => f.check === 'ignored_auth' && f.operationId === 'getV2Conversations' && f.replay?.includes('-wrong"'));
    const auth = failures[wrong]!;
    assert.match(auth.replay ?? '', /^curl -sS -i -X GET "\$API_BASE_URL"'\/api\/v2\/conversations.*' -u "\$API_LOGIN:\$API_PASSWORD-wrong"$/);

    const replay = await exec(process.execPath, ['--import', 'tsx', REPLAY, String(wrong + 1), '--run'], {
      env: { ...env, REPORTS_DIR: reportsDir },
      encoding: 'utf8',
    });
    assert.ok(replay.stdout.includes(auth.replay!), 'it prints the curl command');
    assert.match(replay.stdout, /^now response: 403 /m);
    assert.match(replay.stdout, /^compared the status \(403, as recorded\): the request reproduces what the failure is about$/m);
    // A failure of a field: the field at its place is compared too, and said.
    const source = failures.findIndex((f) => f.check === 'response_schema_conformance' && f.pointer.endsWith('/source'));
    const field = await exec(process.execPath, ['--import', 'tsx', REPLAY, String(source + 1), '--run'], {
      env: { ...env, REPORTS_DIR: reportsDir },
      encoding: 'utf8',
    });
    assert.match(
      field.stdout,
      /^compared the status \(200, as recorded\) and the field at \/(\*\/)?source \(response_schema_conformance fails there, as recorded\): the request reproduces what the failure is about$/m,
    );
    assert.ok(!replay.stdout.includes(sim.config.auth.password));
  } finally {
    await sim.close();
  }
});

test('replay: a bad argument, no report or no such failure is one line and exit 2', () => {
  const empty = mkdtempSync(join(tmpdir(), 'replay-none-'));
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', REPLAY, ...args], { env: { ...process.env, REPORTS_DIR: empty }, encoding: 'utf8' });
  const help = run(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: npm run replay -- FAILURE \[--run\]/);
  for (const [args, why] of [
    [[], /give one failure/],
    [['--bogus', 'x'], /unknown option --bogus/],
    [['x'], /failures\.json does not exist: run npm run contract first/],
  ] as const) {
    const r = run([...args]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, why);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});
