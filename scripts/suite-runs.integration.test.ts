// Several whole-suite runs in Playwright invocations (runSuites, as the mutation run makes them): each run is set up,
// reported and read back apart, as it would be alone, whatever the other runs of the invocation find, even in the
// same worker processes, which run both runs' tests side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuitesAgainstSimulators } from './suite-run.ts';
import { profileConfig } from '../simulator/profiles.ts';

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;

test('two runs in one lane of two workers: each worker runs tests of both, each run against its own target, with its own run, reports and contract failures', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'suite-runs-'));
  const env = { CONTRACT_FAILURES: 'record', LIST_SETTLE_S: '1' };
  const [conforming, drifted] = await runSuitesAgainstSimulators(
    [
      { name: 'conforming', simulator: {}, run: { reportsDir: join(dir, 'conforming'), env } },
      { name: 'drifted', simulator: { drifts: ['unknown-dialog-200'] }, run: { reportsDir: join(dir, 'drifted'), env } },
    ],
    { lanes: 1, workers: 2 },
    join(dir, 'invocation'),
  );
  // Each run's tests, by the worker that ran them (its slot: a worker restarted after a failure keeps it). Under each
  // file, a describe per run (eachRun).
  const workersOf = new Map<string, Set<number>>();
  const walk = (suite: Record<string, any>, run: string | undefined): void => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests) for (const r of t.results) workersOf.set(run!, new Set([...(workersOf.get(run!) ?? []), r.parallelIndex]));
    for (const child of suite.suites ?? []) walk(child, run ?? child.title);
  };
  for (const file of json(join(dir, 'invocation', 'lane-0', 'results.json')).suites) walk(file, undefined);
  assert.deepEqual(
    [...workersOf].map(([run, workers]) => [run, [...workers].sort()]).sort(),
    [
      ['conforming', [0, 1]],
      ['drifted', [0, 1]],
    ],
    'both worker processes ran tests of both runs',
  );
  for (const run of [conforming!, drifted!]) {
    assert.equal(run.error, undefined, run.output.slice(-3000));
    assert.deepEqual(run.failed, [], 'recorded contract failures are expected failures');
    assert.ok(run.passed > 80, `${run.passed} passed`);
  }
  const failures = (name: string) => json(join(dir, name, 'failures.json')).failures as Array<{ operationId: string }>;
  assert.deepEqual(failures('conforming'), [], 'the conforming run records no failure of the drifted one');
  // unknown-dialog-200: a V1 read of an unknown dialog answers 200.
  assert.ok(failures('drifted').length > 0, 'the drifted run records its own');
  assert.ok(
    failures('drifted').some((f) => f.operationId === 'getV1Conversation'),
    'at the drifted operation',
  );
  const runs = ['conforming', 'drifted'].map((name) => json(join(dir, name, 'drift.json')).run as { runId: string; target: string });
  assert.notEqual(runs[0]!.runId, runs[1]!.runId, 'a run id each');
  assert.notEqual(runs[0]!.target, runs[1]!.target, 'each its own target');
  for (const name of ['conforming', 'drifted'])
    assert.ok(json(join(dir, name, 'exchanges.har')).log.entries.length > 400, `${name}: its own exchanges, every test's`);
  // The runs' credentials are handed to Playwright outside the reports: no file the invocation left holds them.
  const password = profileConfig('default').auth.password;
  const holding = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
    .filter((entry) => entry.isFile() && readFileSync(join(entry.parentPath, entry.name), 'utf8').includes(password))
    .map((entry) => join(entry.parentPath, entry.name));
  assert.deepEqual(holding, [], 'no report holds the password');
});
