import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envelopeProblems, type EnvelopeShape } from './list-envelope.ts';

const shape: EnvelopeShape = {
  pagination: { total: 'integer', count: 'integer', per_page: 'integer', current_page: 'integer', total_pages: 'integer', links: 'object' },
  itemFields: ['id', 'name', 'status'],
};
const meta = (count: number) => ({ pagination: { total: 50, count, per_page: 40, current_page: 1, total_pages: 2, links: {} } });
const item = { id: 1, name: '1 Moscow', status: 'completed' };

test('accepts keys "0".."count-1" plus meta', () => {
  assert.deepEqual(envelopeProblems({ 0: item, 1: item, meta: meta(2) }, shape), []);
  assert.deepEqual(envelopeProblems({ meta: meta(0) }, shape), []);
});

test('names what is wrong', () => {
  assert.deepEqual(envelopeProblems([], shape), ['the body is not a JSON object']);
  assert.deepEqual(envelopeProblems({ 0: item }, shape), ['meta.pagination is missing']);
  assert.deepEqual(envelopeProblems({ 0: item, 2: item, meta: meta(2) }, shape), ['item keys are 0,2, expected "0".."1" (count 2)']);
  assert.deepEqual(envelopeProblems({ 0: { id: 1 }, meta: { pagination: { ...meta(1).pagination, links: [] } } }, shape), [
    'meta.pagination.links is not an object',
    'item "0" lacks name, status',
  ]);
});
