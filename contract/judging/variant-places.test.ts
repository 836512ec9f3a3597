import { test } from 'node:test';
import assert from 'node:assert/strict';
import { responseWins, whichWins } from './variant-places.ts';

test('which of two disagreeing places wins is said as seen', () => {
  assert.equal(whichWins(false, true), "the JSON body's");
  assert.equal(whichWins(true, false), "the query's");
  assert.equal(whichWins(true, true), 'both');
  assert.equal(whichWins(false, false), 'neither');
  assert.equal(responseWins(false, true), "the JSON body's");
  assert.equal(responseWins(true, false), "the query's");
  assert.equal(responseWins(true, true), 'true, in either place');
  assert.equal(responseWins(false, false), 'false, in either place');
});
