// npm run acknowledge: an id no report knows is refused with one line, unless it names a contract failure CI may
// have seen first; an id of the last run's drift report is recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFailureId } from '../report/acknowledged.ts';

const SCRIPT = new URL('./acknowledge.ts', import.meta.url).pathname;
const TICKET = ['--ticket', 'https://vendor.example/t/1', '--until', '2099-12-31', '--reason', 'known'];

function acknowledge(id: string, reports: string) {
  const file = join(reports, 'acknowledged.yaml');
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, id, ...TICKET, '--by', 'qa'], {
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
    /^acknowledge: no drift "no\.such\.item": neither the last run's drift report .* nor a saved baseline has it, .*copy the id from the drift report\n$/,
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

test('a contract failure id may be acknowledged ahead of a local run that sees it, with a note', () => {
  const id = 'contract.response_schema_conformance getV2Conversation 200 /source';
  const run = acknowledge(id, mkdtempSync(join(tmpdir(), 'ack-')));
  assert.equal(run.status, 0, run.stderr);
  assert.match(
    run.stderr,
    /^acknowledge: note: no local drift report yet to find "contract\.response_schema_conformance .*" in: acknowledged ahead of a run that sees it\n$/,
  );
  assert.ok(run.written.includes(id));
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
