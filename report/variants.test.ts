import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listOperations, loadDocument } from '../openapi/document.ts';
import { afterId, documentedVariants, isoForm, variantMatrix, type SentRequest } from './variants.ts';

const doc = loadDocument();
const variants = documentedVariants(doc, listOperations(doc));
const ids = new Set([...variants.requests, ...variants.sequences].map((v) => v.id));

test('the forms of an ISO 8601 filter: a date alone, with a time, with a zone as Z or as an offset; anything else is none', () => {
  assert.equal(isoForm('2026-11-24'), 'a date alone');
  assert.equal(isoForm('2026-11-24T10:00:00'), 'a date and a time');
  assert.equal(isoForm('2026-11-24T10:00Z'), 'a date and a time with Z');
  assert.equal(isoForm('2026-11-24T10:00:00.5+05:30'), 'a date and a time with an offset');
  assert.equal(isoForm('2026-11-24 10:00:00-0500'), 'a date and a time with an offset');
  for (const none of ['yesterday', '2026-11-24T10', '2026-11-24T10:00:00 UTC']) assert.equal(isoForm(none), undefined, none);
});

test('a parameter the document places in the query and in the JSON body is a variant in each place alone, in both agreeing and disagreeing', () => {
  for (const id of [
    'postV2DialogCreate response: in the query alone, true',
    'postV2DialogCreate response: in the JSON body alone, false',
    'postV2DialogCreate response: in both, agreeing, true',
    'postV2DialogCreate response: in both, disagreeing',
    'postV2DialogCreate variables: in the query alone',
    'postV2DialogCreate variables: in the JSON body alone',
    'postV2DialogCreate variables: in both, agreeing',
    'postV2DialogCreate variables: in both, disagreeing',
  ])
    assert.ok(ids.has(id), id);
  // One place only: each form there.
  assert.ok(ids.has('getV1DialogCreate variables: in the query'));
  assert.ok(!ids.has('getV1DialogCreate variables: in the query alone'));
});

test('every time filter of both lists has its four ISO 8601 forms; path parameters are no variant', () => {
  for (const op of ['getV1Conversations', 'getV2Conversations'])
    for (const name of ['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo'])
      for (const form of ['a date alone', 'a date and a time', 'a date and a time with Z', 'a date and a time with an offset'])
        assert.ok(ids.has(`${op} ${name}: in the query, ${form}`), `${op} ${name} ${form}`);
  assert.ok(ids.has('getV2Conversations BotID: in the query'));
  assert.ok(![...ids].some((id) => id.includes(' uuid:') || id.includes(' fileId:')));
});

test('every write right after each write a dialog can have had: its three creates and the four triggers', () => {
  assert.equal(variants.sequences.length, 4 * 7);
  assert.ok(ids.has(afterId('postV2ConversationSend', 'postV2ConversationCommand')));
  assert.ok(ids.has(afterId('postV2ConversationStart', 'getV2DialogCreate')));
});

test('a run exercises a variant by the requests and steps it made, first test named; one it did not, with the reason it gave', () => {
  const sent = (query: Record<string, string>, body?: Record<string, unknown>): SentRequest => ({ operationId: 'postV2DialogCreate', query, body, test: 't' });
  const rows = variantMatrix(
    variants,
    [sent({ response: 'true' }), sent({ response: 'true' }, { response: false }), sent({ variables: '{"a":"1"}' }, { variables: '{"a":"1"}' })],
    [{ operationId: 'postV2ConversationStart', prior: 'postV2ConversationCommand', test: 'after a move' }],
    { 'postV2DialogCreate response: in the JSON body alone, false': 'not in this run: why' },
  );
  const row = (id: string) => rows.find((r) => r.id === id)!;
  assert.deepEqual(
    [row('postV2DialogCreate response: in the query alone, true').exercised, row('postV2DialogCreate response: in both, disagreeing').exercised],
    [1, 1],
  );
  assert.equal(row('postV2DialogCreate variables: in both, agreeing').exercised, 1);
  assert.equal(row('postV2DialogCreate variables: in both, disagreeing').exercised, 0);
  assert.equal(row('postV2DialogCreate response: in the JSON body alone, false').reason, 'not in this run: why');
  assert.equal(row(afterId('postV2ConversationStart', 'postV2ConversationCommand')).by, 'after a move');
  assert.equal(row(afterId('postV2ConversationStop', 'postV2ConversationCommand')).exercised, 0);
});
