// What a helper meets is a failure at its operation, never a crash of the suite: a list read answered 400 (here a
// vendor whose PageCount maximum is below what the walk asks, refused) fails at GET /v2/conversations with the status
// check and the query sent, where it was "test_passes: … cannot read a list page".
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RecordedFailure } from '../lib/failure.ts';
import { runAgainstSimulator } from './suite-run.ts';

test('a list page answered 400 fails at the list operation with status_code_conformance and the query sent', async () => {
  const reportsDir = join(mkdtempSync(join(tmpdir(), 'structured-')), 'reports');
  const config = { lists: { defaultPageCount: 2 }, limits: { maxPageCount: { value: 2, status: 400, clamp: false } } };
  const run = await runAgainstSimulator(
    { config },
    { reportsDir, workers: 1, extraArgs: ['--project', 'api', '-g', 'GET /v2/conversations honours PageNumber'] },
  );
  assert.equal(run.exitCode, 1, run.error ?? run.output.slice(-1000));
  const failures = (JSON.parse(readFileSync(join(reportsDir, 'failures.json'), 'utf8')) as { failures: RecordedFailure[] }).failures;
  assert.deepEqual(
    failures.map((f) => [f.id, f.expected, f.observed]),
    [['contract.status_code_conformance getV2Conversations 400 status', '200', '400']],
  );
  assert.match(failures[0]!.context.because ?? '', /^for a list page of BotID=\d+&.*PageCount=\d+&PageNumber=1$/);
  assert.ok(!failures.some((f) => f.check === 'test_passes'));
});
