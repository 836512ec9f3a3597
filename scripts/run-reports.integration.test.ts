// A run's reports as a whole: nothing of an earlier run survives it, the coverage matrix and the HAR of its exchanges
// exist after a failing run (a valid HAR 1.2 that Redocly's drift command reads whole), and baselines/acknowledged.yaml works end to end: an acknowledged drift is green and reported, an expired one fails
// the run with one line naming it, one no longer observed is reported as resolved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runAgainstSimulator } from './suite-run.ts';
import { profileConfig } from '../simulator/profiles.ts';
import { bodyTemplatesOf } from '../simulator/suite-env.ts';
import type { RecordedFailure } from '../lib/failure.ts';
import { harProblems } from '../report/har-schema.ts';
import { readJournal } from '../contract/core/journal.ts';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

// A few V1 tests: enough to fail against the drift below, quick enough to run several times.
const NARROW = ['--project', 'api', '-g', 'GET /v1/conversation/\\{id\\} answers 404'];
const DRIFT = 'unknown-dialog-200';

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;

function run(reportsDir: string, drifts: string[], acknowledged: unknown[] = [], keepReports = false) {
  const file = join(reportsDir, '..', `${reportsDir.split('/').pop()}-acknowledged.yaml`);
  writeFileSync(file, stringify(acknowledged));
  return runAgainstSimulator({ drifts }, { reportsDir, workers: 1, keepReports, env: { ACKNOWLEDGED_FILE: file }, extraArgs: NARROW });
}

test('no report of an earlier run survives a run, and the coverage matrix and the HAR exist after a failing one', async () => {
  const reports = join(mkdtempSync(join(tmpdir(), 'run-reports-')), 'reports');
  mkdirSync(join(reports, 'tickets'), { recursive: true });
  const stale = ['drift.json', 'drift.md', 'drift.html', 'fingerprint.json', 'failures.json', 'summary.md', 'coverage.json', 'exchanges.har', 'tickets/old.md'];
  for (const name of stale) writeFileSync(join(reports, name), 'STALE');
  const result = await run(reports, [DRIFT], [], true);
  assert.notEqual(result.exitCode, 0, 'the drift fails the run');
  assert.ok(result.failed.length > 0);
  assert.ok(!existsSync(join(reports, 'tickets', 'old.md')), 'a stale ticket survived');
  for (const name of stale.filter((n) => !n.startsWith('tickets/'))) {
    const text = readFileSync(join(reports, name), 'utf8');
    assert.notEqual(text, 'STALE', `${name} was left from an earlier run`);
  }
  const runId = json(join(reports, 'drift.json')).run.runId as string;
  for (const name of ['fingerprint.json', 'failures.json', 'coverage.json'])
    assert.equal(json(join(reports, name)).run.runId, runId, `${name} belongs to another run`);
  assert.ok(Array.isArray(json(join(reports, 'coverage.json')).rows), 'coverage.json after a failing run');

  const har = json(join(reports, 'exchanges.har'));
  assert.deepEqual(harProblems(har), []);
  assert.match(har.log.comment, new RegExp(`^run ${runId},`));
  assert.ok(
    har.log.entries.some((e: { response: { status: number } }) => e.response.status === 200),
    'the drifted answers are in it',
  );
  assert.deepEqual(readJournal(reports, 'exchange'), [], "the journal's exchanges are folded into the HAR");
  // A HAR consumer reads it whole: Redocly's drift command finds every exchange an operation of the document.
  const driftJson = join(reports, '..', 'redocly-drift.json');
  const drift = spawnSync(
    process.execPath,
    [
      REDOCLY,
      'drift',
      join(reports, 'exchanges.har'),
      '--api',
      'openapi/dialog-bot.openapi.yaml',
      '--match-mode',
      'basepath',
      '--format',
      'json',
      '-o',
      driftJson,
    ],
    { encoding: 'utf8' },
  );
  assert.ok(existsSync(driftJson), `redocly drift wrote no report: ${drift.stderr.slice(-400)}`);
  const seen = json(driftJson).run as { totalExchanges: number; documentedExchanges: number; skippedExchanges: number };
  assert.deepEqual(seen, { ...seen, totalExchanges: har.log.entries.length, documentedExchanges: har.log.entries.length, skippedExchanges: 0 });
});

test('acknowledged drifts pass the run and are reported; expired ones fail it with one line; gone ones are resolved', async () => {
  const base = mkdtempSync(join(tmpdir(), 'acknowledged-'));
  const failing = await run(join(base, 'failing'), [DRIFT]);
  const ids = [...new Set((json(join(base, 'failing', 'failures.json')).failures as Array<{ id: string }>).map((f) => f.id))];
  assert.ok(ids.length > 0 && failing.exitCode !== 0);
  const entries = (until: string) => ids.map((id) => ({ id, reason: 'known vendor bug', ticket: 'https://tickets.example/VB-7', acknowledgedBy: 'qa', until }));

  const acknowledged = await run(join(base, 'acknowledged'), [DRIFT], entries('2099-12-31'));
  assert.equal(acknowledged.exitCode, 0, `acknowledged failures must not fail the run:\n${acknowledged.output.slice(-800)}`);
  assert.ok(acknowledged.failed.length > 0, 'the tests still fail, visibly');
  const report = json(join(base, 'acknowledged', 'drift.json'));
  assert.equal(report.counts.breaking, 0);
  assert.equal(report.counts.acknowledged, ids.length);
  assert.match(
    readFileSync(join(base, 'acknowledged', 'drift.md'), 'utf8'),
    /- Acknowledged: https:\/\/tickets\.example\/VB-7 until 2099-12-31, by qa: known vendor bug/,
  );
  assert.match(acknowledged.output, /every failure of this run is an acknowledged drift/);

  const expired = await run(join(base, 'expired'), [DRIFT], entries('2020-01-01'));
  assert.notEqual(expired.exitCode, 0);
  const lines = expired.output.split('\n').filter((l) => /acknowledged drift ".*" expired on 2020-01-01 \(ticket https:\/\/tickets\.example\/VB-7\)/.test(l));
  assert.equal(lines.length, ids.length, 'one line per expired entry');
  assert.equal(json(join(base, 'expired', 'drift.json')).counts.breaking, ids.length);

  const resolved = await run(join(base, 'resolved'), [], entries('2099-12-31'));
  assert.equal(resolved.exitCode, 0);
  assert.deepEqual((json(join(base, 'resolved', 'drift.json')).resolved as Array<{ id: string }>).map((e) => e.id).sort(), [...ids].sort());
  assert.match(resolved.output, /was exercised by this run and found holding .*: resolved, remove its entry from baselines\/acknowledged\.yaml/);
});

test('--contract-from holds a run to what the baseline observed: a renamed status fails it as learned, the same vendor passes', async () => {
  const base = mkdtempSync(join(tmpdir(), 'contract-from-'));
  // The first page of the V2 list: its items carry the operator status the baseline saw.
  const learned = (name: string, drifts: string[]) =>
    runAgainstSimulator(
      { drifts },
      {
        reportsDir: join(base, name),
        workers: 1,
        env: { CONTRACT_FROM: 'simulator' },
        extraArgs: ['--project', 'api', '-g', 'GET /v2/conversations without parameters'],
      },
    );
  const same = await learned('same', []);
  assert.equal(same.exitCode, 0, same.output.slice(-800));
  assert.deepEqual(same.failed, []);

  const renamed = await learned('renamed', ['operator-status-renamed']);
  assert.notEqual(renamed.exitCode, 0);
  const failures = json(join(base, 'renamed', 'failures.json')).failures as RecordedFailure[];
  const fromBaseline = (f: RecordedFailure) => f.severity === 'learned' && f.context.details?.baseline === 'simulator';
  assert.ok(failures.length > 0 && failures.every(fromBaseline), JSON.stringify(failures.slice(0, 2)));
  const renamedStatus = (f: RecordedFailure) =>
    f.id === 'learned.response_schema_conformance getV2Conversations 200 /*/status' && f.context.value === 'waiting-operator';
  assert.ok(failures.some(renamedStatus), JSON.stringify(failures.map((f) => f.id)));
  const counts = json(join(base, 'renamed', 'drift.json')).counts as Record<string, number>;
  assert.deepEqual([counts.breaking, counts.learned], [0, 1]);
});

// Issue: a write that stops working is caught. The send and the goto of a healthy run's baseline, accepted and doing
// nothing: learned at the send with --contract-from (where a message shows is not stated), breaking at the goto with
// --baseline (the move is documented, §4.2), even on a vendor that takes any body (acceptance tells nothing there).
test('a write that answers success and does nothing fails at its operation against a healthy baseline, naming the lost effect', async () => {
  const base = mkdtempSync(join(tmpdir(), 'lost-effect-'));
  const lifecycle = ['--project', 'api', '-g', 'walks a dialog through create'];
  const send = await runAgainstSimulator(
    { drifts: ['send-no-effect'] },
    { reportsDir: join(base, 'send'), workers: 1, env: { CONTRACT_FROM: 'simulator' }, extraArgs: lifecycle },
  );
  assert.notEqual(send.exitCode, 0, send.output.slice(-800));
  const sendFailures = json(join(base, 'send', 'failures.json')).failures as RecordedFailure[];
  const lost = sendFailures.find((f) => f.check === 'effect_of_send');
  assert.ok(lost, JSON.stringify(sendFailures.map((f) => f.id)));
  assert.deepEqual([lost.severity, lost.operationId, lost.observed], ['learned', 'postV2ConversationSend', '"no time"']);
  assert.match(lost.expected, /^a later time, as baseline simulator observed/);

  const lenient = { send: { lenient: true }, command: { lenient: true } };
  const healthy = await runAgainstSimulator(
    { config: lenient },
    { reportsDir: join(base, 'healthy'), workers: 1, baseline: 'simulator', extraArgs: lifecycle },
  );
  assert.equal(healthy.exitCode, 0, healthy.output.slice(-800));
  const goto = await runAgainstSimulator(
    { config: lenient, drifts: ['command-ignored'] },
    { reportsDir: join(base, 'goto'), workers: 1, baseline: 'simulator', extraArgs: lifecycle },
  );
  const gotoFailures = json(join(base, 'goto', 'failures.json')).failures as RecordedFailure[];
  assert.ok(
    gotoFailures.some((f) => f.check === 'effect_of_goto' && f.severity === 'breaking' && f.operationId === 'postV2ConversationCommand'),
    `${JSON.stringify(gotoFailures.map((f) => f.id))}\n${goto.output.slice(-800)}`,
  );
});

test("the run's own waits are not the target's slowness: a test paced at a low MAX_RPS is judged past its timeout", async () => {
  // The lifecycle's sends at 0.7/s wait their turns longer than the test's 20 s (no verdict before contract/core/run-waits.ts).
  const reportsDir = join(mkdtempSync(join(tmpdir(), 'slow-pace-')), 'r');
  const run = await runAgainstSimulator(
    {},
    { reportsDir, workers: 2, env: { MAX_RPS: '0.7' }, extraArgs: ['--project', 'api', '-g', 'walks a dialog through create'] },
  );
  assert.equal(run.exitCode, 0, run.output.slice(-800));
  // The test's own time (Playwright's JSON report: suites, specs, tests, results), not the run's.
  const durations = (suite: any): number[] => [
    ...(suite.specs ?? []).flatMap((spec: any) => spec.tests.flatMap((t: any) => t.results.map((r: any) => r.duration as number))),
    ...(suite.suites ?? []).flatMap(durations),
  ];
  const ms = Math.max(...json(join(reportsDir, 'results.json')).suites.flatMap(durations));
  assert.ok(ms > 20_000, `the lifecycle took ${ms} ms: paced at 0.7/s it outlasts its 20 s timeout`);
});

test('tests a missing body shape kept from running are the first and last lines of the job summary', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'not-run-')), 'r');
  // refusal-silent takes a command body no candidate names and its refusals name nothing: without COMMAND_BODY its
  // goto tests cannot run (its SEND_BODY given, so the one missing shape is the command's).
  const { SEND_BODY } = bodyTemplatesOf(profileConfig('refusal-silent'));
  const run = await runAgainstSimulator(
    { profile: 'refusal-silent' },
    { reportsDir: dir, workers: 1, env: { SEND_BODY }, extraArgs: ['--project', 'api', '-g', 'walks a dialog through create'] },
  );
  assert.equal(run.exitCode, 0, run.output.slice(-800));
  const lines = readFileSync(join(dir, 'summary.md'), 'utf8').trimEnd().split('\n');
  assert.match(lines[0]!, /^> 1 test did not run: no command body shape: undetermined: .*set COMMAND_BODY$/);
  assert.equal(lines.at(-1), lines[0]);
});

// Issue 40: a lookup that fails is never a verdict, and a drift that loses the dialog is one. Lists that trail the run
// by a minute (their consistency is not shown, §4.1) show neither where a moved dialog is nor its V1 twin: those parts
// of the goto, and the record against its list item, are not judged, each listed with why, and the run has no verdict.
// A goto that loses the dialog (it no longer reads, and lists that showed it show it nowhere) fails at the goto.
test('a lookup that fails is listed as not judged, never a ticket; a goto that loses the dialog fails at the goto', async () => {
  const base = mkdtempSync(join(tmpdir(), 'not-judged-'));
  const lifecycle = ['--project', 'api', '-g', 'walks a dialog through create'];
  // Shapes as a user configures them: the discovery cannot see a move in a list that trails it by a minute.
  const env = { LIST_SETTLE_S: '1', ...bodyTemplatesOf(profileConfig('default')) };
  const trailing = await runAgainstSimulator(
    { config: { lists: { lagMs: 60_000 } } },
    { reportsDir: join(base, 'trailing'), workers: 1, env, extraArgs: lifecycle },
  );
  assert.notEqual(trailing.exitCode, 0, trailing.output.slice(-800));
  const report = json(join(base, 'trailing', 'drift.json'));
  assert.equal(report.verdict.kind, 'no-verdict', JSON.stringify(report.verdict));
  assert.match(report.verdict.reason, /^3 checks could not judge \(first: /);
  const notJudged = (report.notJudged as string[]).map((line) => line.replace(/^.* › walks a dialog [^:]*: /, ''));
  assert.deepEqual(
    notJudged.map((line) => line.replace(/: .*/, '')),
    [
      'record_matches_list_item at record vs list item (GET /v2/conversation/{uuid}, §2.2)',
      ...Array(2).fill('effect_of_goto at bot of the dialog afterwards (POST /v2/conversation/{uuid}/command, §4.2)'),
    ],
  );
  assert.match(notJudged[1]!, /the V2 list showed the dialog under neither bot, before the move or after it/);
  assert.match(notJudged[2]!, /no V1 id for the dialog, before the move or after it/);
  assert.match(readFileSync(join(base, 'trailing', 'summary.md'), 'utf8'), /Not judged \(3\):/);
  assert.equal(existsSync(join(base, 'trailing', 'tickets')), false, 'no ticket');

  const lost = await runAgainstSimulator({ drifts: ['goto-loses-dialog'] }, { reportsDir: join(base, 'lost'), workers: 1, env, extraArgs: lifecycle });
  assert.notEqual(lost.exitCode, 0);
  const failures = json(join(base, 'lost', 'failures.json')).failures as RecordedFailure[];
  const atGoto = failures.find((f) => f.id === 'contract.effect_of_goto postV2ConversationCommand 204 bot of the dialog afterwards');
  assert.ok(atGoto, JSON.stringify(failures.map((f) => f.id)));
  assert.match(atGoto.observed, /"readable":false/);
  assert.deepEqual(json(join(base, 'lost', 'drift.json')).network.notJudged, []);
});
