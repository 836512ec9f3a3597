// One meaning per exit code, and nothing lost to a caller's mistake (issue 45): a typo of an option (ours or
// Playwright's), a selection of no test, an unknown check or project, a bad baseline name or setting each exit 2 with
// one line pointing at --help, the last run's reports byte-identical; a filtered run against a whole baseline files no
// ticket and calls nothing it did not set out to observe changed, and its fingerprint is refused as a baseline; the
// judge writes into a folder of its own, honours baselines/acknowledged.yaml, and names and links only what it wrote.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { freePort } from '../config/free-port.ts';
import { STOPPED_RUN_DIR } from '../contract/run/run-files.ts';

const ROOT = new URL('..', import.meta.url).pathname;

/** The embedded simulator on ports of its own, as a user with no target runs it (no variable of the target set). */
async function ownEnvironment(reportsDir: string, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(API_|BOT_ID|GOTO_BOT_ID|CUSTOM_BLOCK_BOT_ID|SIMULATOR_PROFILE|BASELINE|CHECKS)/.test(k)),
  );
  return { ...env, SIMULATOR_PORT: String(await freePort()), CALLBACK_PORT: String(await freePort()), REPORTS_DIR: reportsDir, FORCE_COLOR: '0', ...extra };
}

function command(script: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const files = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)])) : [];

/** Every file of a reports folder and a hash of its bytes, but what `skip` names (a stopped run's own folder). */
function snapshot(dir: string, skip: string): Record<string, string> {
  return Object.fromEntries(
    files(dir)
      .filter((f) => !relative(dir, f).startsWith(`${skip}/`))
      .map((f) => [relative(dir, f), createHash('sha256').update(readFileSync(f)).digest('hex')]),
  );
}

/** The reports an earlier run left, as a run of the main command writes them. */
function earlierRun(dir: string): void {
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  write('fingerprint.json', '{"items":[],"run":null}\n');
  write('drift.html', '<!doctype html><title>the last run</title>\n');
  write('drift.json', '{"entries":[]}\n');
  write('junit.xml', '<testsuites tests="127" failures="0"></testsuites>\n');
  write('exchanges.har', '{"log":{"entries":[]}}\n');
  write('html/index.html', '<!doctype html>\n');
  write('tickets/breaking-x.md', '# a ticket of the last run\n');
}

test("a caller's mistake exits 2 with one line pointing at --help, before anything runs, and leaves the last run's reports byte-identical", async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'mistakes-'));
  earlierRun(reportsDir);
  const before = snapshot(reportsDir, STOPPED_RUN_DIR);
  const mistakes: Array<[string, string[], Record<string, string>, RegExp]> = [
    [
      'an option typo (neither ours nor Playwright’s)',
      ['--baselin', 'staging'],
      {},
      /unknown option '--baselin': neither this command nor playwright test has it/,
    ],
    ['a selection of no test', ['-g', 'no test is called this'], {}, /the selection matches no test/],
    ['a file filter of no test', ['contract/no-such-folder'], {}, /the selection matches no test/],
    ['a project that does not exist', ['--project', 'v3'], {}, /Project\(s\) "v3" not found/],
    ['a bad baseline name', ['--baseline', 'no-such-baseline'], {}, /baseline "no-such-baseline" not found/],
    ['an unknown check', ['--checks', 'no_such_check'], {}, /--checks names no check: no_such_check/],
    [
      'a bad setting',
      [],
      { BOT_ID: '-5', API_BASE_URL: 'http://127.0.0.1:9', API_LOGIN: 'a', API_PASSWORD: 'b', GOTO_BOT_ID: '2', CUSTOM_BLOCK_BOT_ID: '3' },
      /BOT_ID=-5 is not valid/,
    ],
  ];
  for (const [what, args, extra, says] of mistakes) {
    const run = await command('contract', args, await ownEnvironment(reportsDir, extra));
    assert.equal(run.code, 2, `${what}: exit 2\n${run.stderr}\n${run.stdout.slice(-1000)}`);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${what}: one line\n${run.stderr}`);
    assert.match(lines[0]!, says, what);
    assert.match(lines[0]!, /; see npm run contract -- --help$/, `${what}: the line points at --help`);
    assert.equal(run.stdout, '', `${what}: nothing ran`);
    assert.deepEqual(snapshot(reportsDir, STOPPED_RUN_DIR), before, `${what}: the last run's reports are byte-identical`);
    assert.match(readFileSync(join(reportsDir, STOPPED_RUN_DIR, 'junit.xml'), 'utf8'), /<error message="contract: /, `${what}: its own JUnit apart`);
  }
});

test('a filtered run against a whole baseline exits 0 with no ticket and nothing changed, listing what it did not reach; baseline refuses its fingerprint', async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'filtered-'));
  // baselines/simulator.json: the conforming simulator's whole run.
  const env = await ownEnvironment(reportsDir);
  // Its own output folder: another test's Playwright run in the project's root empties test-results/ as it starts.
  const run = await command('contract', ['--baseline', 'simulator', '-g', 'stop on a dialog', '--output', join(reportsDir, 'test-results')], env);
  assert.equal(run.code, 0, `${run.stderr}\n${run.stdout.slice(-2000)}`);
  assert.equal(run.stderr.trim().split('\n').at(-1), 'dialog-contract: pass: the vendor honours the contract', 'the verdict line, last');
  assert.deepEqual(files(join(reportsDir, 'tickets')), [], 'no ticket');
  const drift = JSON.parse(readFileSync(join(reportsDir, 'drift.json'), 'utf8')) as {
    counts: Record<string, number>;
    changes: number;
    entries: Array<{ id: string; severity: string; observed: string }>;
    run: { scope: { partial: string[]; selected: string[]; tests: { selected: number } } };
  };
  assert.equal(drift.counts.changed, 0);
  assert.equal(drift.changes, 0);
  assert.ok((drift.counts.unreached ?? 0) > 50, `the items of the baseline it did not set out to observe are unreached: ${drift.counts.unreached}`);
  for (const e of drift.entries.filter((x) => x.severity === 'unreached')) assert.match(e.observed, /^not reached: .*narrowed by -g/, e.id);
  assert.match(readFileSync(join(reportsDir, 'drift.md'), 'utf8'), /## Not reached: items of the baseline this run did not set out to observe/);
  assert.doesNotMatch(readFileSync(join(reportsDir, 'drift.md'), 'utf8'), /Undocumented behaviour changed since the baseline/);
  // Its scope: what it selected, and why it is partial.
  assert.deepEqual(drift.run.scope.partial, ['narrowed by -g']);
  assert.equal(drift.run.scope.tests.selected, drift.run.scope.selected.length);
  assert.ok(drift.run.scope.selected.every((t) => /stop on a dialog/.test(t)));

  const baseline = await command('baseline', ['from-a-filtered-run'], env);
  assert.equal(baseline.code, 2);
  assert.match(baseline.stderr.trim(), /^baseline: \S*fingerprint\.json is of a partial run \(narrowed by -g\).*--partial; see npm run baseline -- --help$/);
  assert.equal(existsSync(join(ROOT, 'baselines', 'from-a-filtered-run.json')), false, 'nothing saved');
});

/** A recording of one V2 read whose record lacks source (§2.1), an end user's IP and city in it. */
function recording(dir: string): string {
  const body = JSON.stringify({
    id: '6f1c2b7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
    name: '#1042 Berlin',
    status: 'in-process',
    ip: '203.0.113.7',
    location: 'Berlin',
    updated: '',
    duration: 3,
    data: [],
  });
  const entry = {
    startedDateTime: '2026-11-28T08:00:00.000Z',
    time: 5,
    request: {
      method: 'GET',
      url: 'https://staging.example/api/v2/conversation/6f1c2b7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f',
      httpVersion: 'HTTP/1.1',
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      cookies: [],
      content: { size: body.length, mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 5, receive: 0 },
  };
  const file = join(dir, 'staging.har');
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator: { name: 'proxy', version: '1' }, entries: [entry] } }));
  return file;
}

test("the judge writes into its own folder, never over a run's reports; it acknowledges as a run does, and names and links only what it wrote", async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'judge-own-'));
  earlierRun(reportsDir);
  const before = snapshot(reportsDir, 'judge');
  const har = recording(mkdtempSync(join(tmpdir(), 'har-')));
  const acknowledged = join(mkdtempSync(join(tmpdir(), 'ack-')), 'acknowledged.yaml');
  writeFileSync(acknowledged, stringify([]));
  const env = { ...process.env, REPORTS_DIR: reportsDir, ACKNOWLEDGED_FILE: acknowledged, FORCE_COLOR: '0' };

  const judged = await command('judge', [har], env);
  assert.equal(judged.code, 1, judged.stderr);
  assert.deepEqual(snapshot(reportsDir, 'judge'), before, "the run's drift.html, fingerprint.json and the rest are byte-identical");
  const own = join(reportsDir, 'judge');
  const wrote = files(own).map((f) => relative(own, f));
  // It names only what it wrote; every link of its summary leads to a file it wrote.
  const named = [...`${judged.stdout}\n${judged.stderr}`.matchAll(/(\S+\/(?:summary\.md|tickets\/|drift\.html))/g)].map((m) => m[1]!);
  assert.ok(named.length > 0);
  for (const path of named) assert.ok(existsSync(join(ROOT, path)) || existsSync(path), `it names ${path}, which it wrote`);
  assert.doesNotMatch(`${judged.stdout}${judged.stderr}`, /drift\.html/);
  const summary = readFileSync(join(own, 'summary.md'), 'utf8');
  const links = [...summary.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length > 0, 'its summary links its items');
  for (const link of links) assert.ok(wrote.includes(link), `the link ${link} leads to a file it wrote (${wrote.join(', ')})`);
  // Its ticket quotes no end user's address or city.
  const ticket = wrote.find((f) => f.startsWith('tickets/'))!;
  assert.doesNotMatch(readFileSync(join(own, ticket), 'utf8'), /203\.0\.113\.7|Berlin/);

  // Acknowledged as the main command acknowledges: every failure known, the recording passes.
  const { failures } = JSON.parse(readFileSync(join(own, 'failures.json'), 'utf8')) as { failures: Array<{ id: string }> };
  writeFileSync(
    acknowledged,
    stringify(failures.map((f) => ({ id: f.id, reason: 'known', ticket: 'https://vendor.example/t/1', acknowledgedBy: 'qa', until: '2099-12-31' }))),
  );
  const known = await command('judge', [har], env);
  assert.equal(known.code, 0, known.stdout + known.stderr);
  assert.match(known.stdout, /every failure of the recording is an acknowledged drift/);
  assert.equal(JSON.parse(readFileSync(join(own, 'drift.json'), 'utf8')).counts.acknowledged, failures.length);
  assert.deepEqual(snapshot(reportsDir, 'judge'), before);

  const into = await command('judge', [har, '--out', reportsDir], env);
  assert.equal(into.code, 2, "a run's reports folder is no judge's");
});
