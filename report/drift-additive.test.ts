import { test } from 'node:test';
import assert from 'node:assert/strict';
import { undeclaredFields } from './drift-additive.ts';
import { loadDocument } from '../openapi/document.ts';

const doc = loadDocument();
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const v2Item = {
  id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  name: '#1 Berlin',
  status: 'in-process',
  ip: '10.0.0.1',
  location: 'Berlin',
  updated: '',
  duration: 5,
  source: 'web',
};
const pagination = { total: 1, count: 1, per_page: 40, current_page: 1, total_pages: 1, links: {} };

test('a conforming list has no undeclared fields', () => {
  assert.deepEqual(undeclaredFields(schema('V2ConversationList'), { '0': v2Item, meta: { pagination } }, doc), []);
});

test('an extra field on list items is reported once, under [*], with its section and shape', () => {
  const body = { '0': { ...v2Item, bot_id: 101 }, '1': { ...v2Item, bot_id: 202 }, meta: { pagination } };
  assert.deepEqual(undeclaredFields(schema('V2ConversationList'), body, doc), [{ path: '$[*].bot_id', section: '2.1', shapes: ['integer'] }]);
});

test('extra keys deep inside (meta.pagination) and in records are found; undescribed objects (links) are not', () => {
  const list = { meta: { pagination: { ...pagination, has_more: false, links: { next: 'x' } } } };
  assert.deepEqual(undeclaredFields(schema('V2ConversationList'), list, doc), [{ path: '$.meta.pagination.has_more', section: '2.3', shapes: ['boolean'] }]);
  const record = { ...v2Item, data: [{ question: 'q', type: 'Text', answer: 'a', variable: null, extra: 'x' }], tags: [] };
  assert.deepEqual(
    undeclaredFields(schema('V2ConversationRecord'), record, doc).map((f) => [f.path, f.section]),
    [
      ['$.data[*].extra', '2.2'],
      ['$.tags', '2.2'],
    ],
  );
});

test('distinct shapes at one path are all kept, sorted; a forbidden property (V1 source) is left to the validators', () => {
  const body = { '0': { ...v2Item, id: 1, source: 'web', note: null }, '1': { ...v2Item, id: 2, note: 'x' }, meta: { pagination } };
  assert.deepEqual(undeclaredFields(schema('V1ConversationList'), body, doc), [{ path: '$[*].note', section: '2.1', shapes: ['null', 'string'] }]);
});

test('names that are not identifiers are quoted; an open schema reports nothing', () => {
  assert.deepEqual(undeclaredFields(schema('SentBotMessage'), { message_id: 1, created_at: 2, 'dialog-id': 3 }, doc)[0]?.path, '$["dialog-id"]');
  assert.deepEqual(undeclaredFields({}, { anything: 1 }, doc), []);
});

test('what the schemas mean is kept for the document, what a response carries is its own: each is judged as if alone', () => {
  const listed = (extra: Record<string, unknown>) => ({ '0': { ...v2Item, ...extra }, meta: { pagination } });
  // A copy of the document is another document: nothing kept for the first one.
  const once = (body: unknown) => undeclaredFields(schema('V2ConversationList'), body, structuredClone(doc));
  const list = schema('V2ConversationList');
  for (const body of [listed({ bot_id: 1 }), listed({}), listed({ note: 'x', bot_id: 'b' }), listed({ bot_id: 1 })])
    assert.deepEqual(undeclaredFields(list, body, doc), once(body));
});
