import { test } from 'node:test';
import assert from 'node:assert/strict';
import { responseWins, variablesShown, whichWins } from './variant-places.ts';

test('variables show when every value passed is among the answers of the data', () => {
  const data = [{ answer: 'Ada' }, { answer: 'K-42' }];
  assert.equal(variablesShown(data, { name: 'Ada', contract: 'K-42' }), true);
  assert.equal(variablesShown(data, { name: 'Ada', contract: 'K-43' }), false);
});

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
