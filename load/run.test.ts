import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unknownK6Option } from './run.ts';

const K6 = new Set(['--vus', '-u', '--duration', '-d', '--env', '-e', '--out', '-o']);

test("an option neither the load command nor k6 run has is the caller's mistake, named, with a hint for --split", () => {
  assert.equal(unknownK6Option(['--vus', '2', '-d', '5s', '--env=A=1', '-e', 'B=2'], K6), undefined);
  assert.equal(
    unknownK6Option(['--splt', '2'], K6),
    'unknown option --splt: neither this command nor k6 run has it (--split N goes right after the script name)',
  );
  assert.equal(
    unknownK6Option(['-u', '2', '--split', '2'], K6),
    'unknown option --split: neither this command nor k6 run has it (--split N goes right after the script name)',
  );
  assert.equal(unknownK6Option(['--duratio=5s'], K6), 'unknown option --duratio: neither this command nor k6 run has it');
  assert.equal(unknownK6Option(['-x'], K6), 'unknown option -x: neither this command nor k6 run has it');
});
