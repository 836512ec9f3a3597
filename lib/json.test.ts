import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonOrUndefined } from './json.ts';

test('a text that is JSON gives its value; one that is none gives undefined, never an error', () => {
  assert.deepEqual(jsonOrUndefined('{"a":[1,null]}'), { a: [1, null] });
  assert.equal(jsonOrUndefined('null'), null);
  for (const broken of ['', '{"a":', '<html>', '{"text":"é']) assert.equal(jsonOrUndefined(broken), undefined, broken);
});
