import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFailure } from '../lib/failure.ts';
import { findFailure } from './replay.ts';

const failures = [runFailure('test_passes', 'a', 'x', 'y'), runFailure('test_passes', 'b', 'x', 'y'), runFailure('test_passes', 'a', 'x', 'y')];

test('finds a failure by its id, a part only one id has, or its number', () => {
  assert.equal(findFailure(failures, failures[1]!.id), failures[1]);
  assert.equal(findFailure(failures, '- b'), failures[1]);
  assert.equal(findFailure(failures, '2'), failures[1]);
  assert.equal(findFailure(failures, ' - - a'), failures[0], 'one id recorded twice: the first');
});

test('says why in one line when none or several match', () => {
  assert.match(findFailure(failures, 'nothing') as string, /^no failure of the last run has "nothing" in its id/);
  assert.match(findFailure(failures, 'test_passes') as string, /^"test_passes" is in 2 failures' ids/);
  assert.match(findFailure(failures, '9') as string, /^there is no failure 9: the last run recorded 3 \(1 to 3\)$/);
  assert.equal(findFailure([], 'x'), 'the last run recorded no contract failure');
});
