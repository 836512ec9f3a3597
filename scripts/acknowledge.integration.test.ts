// npm run acknowledge: an id no report knows is refused with one line, a mistyped contract failure id too, unless
// told it names a failure CI saw first (--unseen); an id of the last run's drift report or of a baseline is recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFailureId } from '../report/acknowledged.ts';

const SCRIPT = new URL('./acknowledge.ts', import.meta.url).pathname;
const TICKET = ['--ticket', 'https://vendor.example/t/1', '--until', '2099-12-31', '--reason', 'known'];

function acknowledge(id: string, reports: string, ...more: string[]) {
  const file = join(reports, 'acknowledged.yaml');
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, id, ...TICKET, '--by', 'qa', ...more], {
    encoding: 'utf8',
    env: { ...process.env, REPORTS_DIR: reports, ACKNOWLEDGED_FILE: file },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, written: existsSync(file) ? readFileSync(file, 'utf8') : '' };
}

test('an id that no report lists and that is no contract failure id is refused with one line, nothing written', () => {
  const reports = mkdtempSync(join(tmpdir(), 'ack-'));
  writeFileSync(join(reports, 'drift.json'), JSON.stringify({ entries: [{ id: 'status.operator' }] }));
  const run = acknowledge('no.such.item', reports);
  assert.equal(run.status, 2);
  assert.match(
    run.stderr,
    /^acknowledge: no drift "no\.such\.item": neither the last run's drift report .* nor a saved baseline has it; copy the id from the drift report, or give --unseen .*\n$/,
  );
  assert.equal(run.written, '');
});

test("an id of the last run's drift report, or of a saved baseline, is recorded", () => {
  const reports = mkdtempSync(join(tmpdir(), 'ack-'));
  writeFileSync(join(reports, 'drift.json'), JSON.stringify({ entries: [{ id: 'status.operator' }] }));
  const fromReport = acknowledge('status.operator', reports);
  assert.equal(fromReport.status, 0, fromReport.stderr);
  assert.match(fromReport.written, /id: status\.operator/);
  // baselines/simulator.json holds every observation of the conforming simulator.
  const fromBaseline = acknowledge('default.v2.PageCount', mkdtempSync(join(tmpdir(), 'ack-')));
  assert.equal(fromBaseline.status, 0, fromBaseline.stderr);
});

test('a contract failure id no report or baseline holds (a typo) is refused; with --unseen it is acknowledged ahead of a run that sees it', () => {
  const id = 'contract.response_schema_conformance getV2Conversation 200 /sourse';
  const reports = mkdtempSync(join(tmpdir(), 'ack-'));
  writeFileSync(join(reports, 'drift.json'), JSON.stringify({ entries: [{ id: 'contract.response_schema_conformance getV2Conversation 200 /source' }] }));
  const typo = acknowledge(id, reports);
  assert.equal(typo.status, 2, 'a mistyped id of the form of a failure is no item of the last run');
  assert.match(typo.stderr, /^acknowledge: no drift "contract\.response_schema_conformance getV2Conversation 200 \/sourse": .*--unseen/);
  assert.equal(typo.written, '');
  const ahead = acknowledge(id, reports, '--unseen');
  assert.equal(ahead.status, 0, ahead.stderr);
  assert.match(ahead.stderr, /^acknowledge: note: .*acknowledged ahead of a run that sees it \(--unseen\)\n$/);
  assert.ok(ahead.written.includes(id));
  assert.equal(acknowledge('no.such.item', reports, '--unseen').status, 2, '--unseen takes only the form of a contract failure');
});

test('a contract failure id names a check, an operation of the document or "-", a status or "-", and a place', () => {
  assert.equal(isFailureId('contract.response_schema_conformance getV2Conversation 200 /source'), true);
  assert.equal(isFailureId('learned.response_schema_conformance getV2Conversations 200 /0/status'), true);
  assert.equal(isFailureId('contract.test_passes - - [api] v2/send.spec.ts › sends'), true);
  for (const id of [
    'no.such.item',
    'contract.response_schema_conformance getV9Nothing 200 /source',
    'contract.Check getV2Conversation 200 /x',
    'contract.x getV2Conversation 200',
    'status.operator',
  ]) {
    assert.equal(isFailureId(id), false, id);
  }
});
