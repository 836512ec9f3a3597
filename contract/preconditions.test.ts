import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendJsonl } from './run-records.ts';
import { PRECONDITIONS_DIR, shapeSkips, type PreconditionRow } from './preconditions.ts';

test('the skips for want of a body shape, each reason with its tests; other preconditions are not counted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preconditions-'));
  const row = (test: string, reason: string): PreconditionRow => ({ test, reason, pairs: [], observations: [] });
  appendJsonl(join(dir, PRECONDITIONS_DIR, 'w1.jsonl'), row('a', 'no command body shape: undetermined: none moved the dialog'));
  appendJsonl(join(dir, PRECONDITIONS_DIR, 'w2.jsonl'), row('b', 'no command body shape: undetermined: none moved the dialog'));
  appendJsonl(join(dir, PRECONDITIONS_DIR, 'w2.jsonl'), row('c', 'no completed dialog on bot 101 in the sample window'));
  assert.deepEqual([...shapeSkips(dir)], [['no command body shape: undetermined: none moved the dialog', ['a', 'b']]]);
});
