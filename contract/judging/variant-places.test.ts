import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgePlaces, responseWins, variablesShown, whichWins } from './variant-places.ts';

test('variables show when every value passed is among the answers of the data', () => {
  const data = [{ answer: 'Ada' }, { answer: 'K-42' }];
  assert.equal(variablesShown(data, { name: 'Ada', contract: 'K-42' }), true);
  assert.equal(variablesShown(data, { name: 'Ada', contract: 'K-43' }), false);
});

test('a place whose variables do not show fails where another place shows them; shown by none, every place holds', () => {
  const [query, body] = judgePlaces({ 'in the query alone': true, 'in the JSON body alone': false });
  assert.equal(query!.holds, true);
  assert.deepEqual([body!.place, body!.observed, body!.holds], ['in the JSON body alone', 'not shown', false]);
  assert.match(body!.expected, /as variables passed in the query alone are/);
  assert.ok(judgePlaces({ a: false, b: false }).every((v) => v.holds));
  assert.ok(judgePlaces({ a: true, b: true }).every((v) => v.holds));
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
