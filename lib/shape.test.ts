import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyShape, shapeOf } from './shape.ts';

test('shapes keep keys and kinds, drop values, and sort keys', () => {
  assert.deepEqual(shapeOf({ b: 1, a: '0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41', c: [1, 2, 'x'], d: null, e: '', f: '2024-05-14T09:31:00Z', g: 1.5 }), {
    a: 'string(uuid)',
    b: 'integer',
    c: ['integer', 'string'],
    d: 'null',
    e: 'string(empty)',
    f: 'string(iso-date-time)',
    g: 'number',
  });
  assert.deepEqual(Object.keys(shapeOf({ z: 1, a: 1 }) as object), ['a', 'z']);
});

test('raw bodies: empty, text or JSON shape', () => {
  assert.equal(bodyShape(''), 'empty');
  assert.equal(bodyShape('<html>'), 'text');
  assert.deepEqual(bodyShape('{"dialogId":"x"}'), { dialogId: 'string' });
});
