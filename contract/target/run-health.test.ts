import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNoVerdict, RunHealth, RunStopped, stopRun, transientSummary } from './run-health.ts';

test('the transient summary counts each kind, resent or not, and is absent when nothing was lost', () => {
  assert.equal(transientSummary([]), undefined);
  const line = transientSummary([
    { operationId: 'a', kind: 'bad-gateway', resent: true, atSeconds: 1 },
    { operationId: 'a', kind: 'bad-gateway', resent: true, atSeconds: 2 },
    { operationId: 'b', kind: 'reset', resent: false, atSeconds: 3 },
  ]);
  assert.equal(line, '3 transient failures of the network or a gateway (none is a contract failure): 2 × bad-gateway, resent; 1 × reset, inconclusive');
});

test('the first reason to stop stays; every worker sees it and stops', () => {
  const dir = mkdtempSync(join(tmpdir(), 'health-'));
  stopRun(dir, 'the target went down');
  stopRun(dir, 'a consequence');
  assert.equal(readNoVerdict(dir)?.reason, 'the target went down');
  assert.throws(
    () => new RunHealth(dir, 0).check(),
    (err: Error) => err instanceof RunStopped && err.message === 'not run: the target went down',
  );
});

test('workers share the streak of failures: one restarted after a failed test keeps counting, a good answer anywhere ends it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'health-'));
  const settings = { maxResends: 3, outageSeconds: 0 };
  const down = { kind: 'answer', status: 503 } as const;
  new RunHealth(dir, 0, settings).record('a', down);
  new RunHealth(dir, 0, settings).record('b', down);
  new RunHealth(dir, 0, settings).record('a', { kind: 'answer', status: 200 });
  new RunHealth(dir, 0, settings).record('a', down);
  assert.equal(readNoVerdict(dir), undefined, 'the good answer reset the count');
  new RunHealth(dir, 0, settings).record('a', down);
  assert.throws(() => new RunHealth(dir, 0, settings).record('c', down), RunStopped);
  assert.match(readNoVerdict(dir)!.reason, /^the target went down at .*3 × 503 without Retry-After on 2 operations/);
});
