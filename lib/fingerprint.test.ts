import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintJson, mergeFingerprints, stableStringify, type FingerprintItem } from './fingerprint.ts';

const item = (id: string, observed: unknown): FingerprintItem => ({ id, section: '8.3', operation: 'GET /v2/conversations', item: 'x', observed });

test('sorts keys at every depth and drops undefined, keeping array order', () => {
  assert.equal(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } }, 0), '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
});

test('merges by id, the later list winning, sorted by id', () => {
  const merged = mergeFingerprints([item('limit.b', 1), item('limit.a', 1)], [item('limit.b', 2)]);
  assert.deepEqual(merged.map((i) => [i.id, i.observed]), [['limit.a', 1], ['limit.b', 2]]);
});

test('two runs with the same observations give the same bytes', () => {
  const one = fingerprintJson([item('rate.limit.x', { b: 1, a: 2 }), item('limit.a', null)]);
  const two = fingerprintJson([item('limit.a', null), item('rate.limit.x', { a: 2, b: 1 })]);
  assert.equal(one, two);
  assert.ok(one.endsWith(']\n'));
  assert.deepEqual(Object.keys(JSON.parse(one)[0]), ['id', 'item', 'observed', 'operation', 'section']);
});
