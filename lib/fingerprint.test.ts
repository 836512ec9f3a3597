import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintJson, mergeFingerprints, readFingerprintFile, type FingerprintItem } from './fingerprint.ts';
import { stableStringify } from './json.ts';

const item = (id: string, observed: unknown): FingerprintItem => ({ id, section: '8.3', operation: 'GET /v2/conversations', item: 'x', observed });

test('sorts keys at every depth and drops undefined, keeping array order', () => {
  assert.equal(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } }, 0), '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
});

test('merges by id, the later list winning, sorted by id', () => {
  const merged = mergeFingerprints([item('limit.b', 1), item('limit.a', 1)], [item('limit.b', 2)]);
  assert.deepEqual(
    merged.map((i) => [i.id, i.observed]),
    [
      ['limit.a', 1],
      ['limit.b', 2],
    ],
  );
});

test('two runs with the same observations give the same items; the run block comes last', () => {
  const run = (runId: string) => ({ runId, startedAt: '2026-11-23T00:00:00.000Z', target: '127.0.0.1:4010', suiteVersion: '0.1.0', vendorVersion: null });
  const one = fingerprintJson([item('rate.limit.x', { b: 1, a: 2 }), item('limit.a', null)], run('a'));
  const two = fingerprintJson([item('limit.a', null), item('rate.limit.x', { a: 2, b: 1 })], run('b'));
  const itemsOf = (text: string) => text.slice(0, text.indexOf('"run"'));
  assert.equal(itemsOf(one), itemsOf(two));
  assert.notEqual(one, two);
  assert.deepEqual(Object.keys(JSON.parse(one)), ['items', 'run']);
  assert.deepEqual(Object.keys(JSON.parse(one).items[0]), ['id', 'item', 'observed', 'operation', 'section']);
});

test('reads the file with its run block, and a baseline saved as a bare array', () => {
  const items = [item('limit.a', 1)];
  assert.deepEqual(readFingerprintFile(JSON.parse(fingerprintJson(items, null))), { run: null, items });
  assert.deepEqual(readFingerprintFile(items), { run: null, items });
  assert.equal(readFingerprintFile({ items: [{ nope: 1 }] }), undefined);
  assert.equal(readFingerprintFile('x'), undefined);
});
