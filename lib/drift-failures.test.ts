import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureItem, failuresOf, normaliseVolatile, parseFailures } from './drift-failures.ts';

const ESC = String.fromCharCode(27);
const TEST = '[v2] v2/create.spec.ts › creates';

test('reads every finding line of a message, with the evidence printed after them', () => {
  const message = [
    `Error: ${ESC}[31mGET /v2/conversations → 200: $["0"].source: expected required property (spec §2.1), observed missing property${ESC}[39m`,
    'GET /v2/conversations → 200: $["1"].source: expected required property (spec §2.1), observed missing property',
    'request: GET /api/v2/conversations?BotID=101',
    'response: 200 application/json {"0":{}}',
  ].join('\n');
  const [first, second] = parseFailures(TEST, [message]);
  assert.deepEqual(first, {
    id: 'contract.GET /v2/conversations → 200 $[*].source',
    operation: 'GET /v2/conversations',
    status: 200,
    location: '$["0"].source',
    expected: 'required property',
    observed: 'missing property',
    section: '2.1',
    evidence: 'request: GET /api/v2/conversations?BotID=101\nresponse: 200 application/json {"0":{}}',
    test: TEST,
  });
  assert.equal(second?.id, first?.id, 'indexes do not make separate ids');
});

test('reads findings without a status, whose expectation mentions the spec itself', () => {
  const [f] = parseFailures(TEST, ['GET /v1/conversation/{id} vs GET /v2/conversation/{uuid}: $.name: expected the same value (a record, spec §2.2) (spec §2.2), observed V1 "a", V2 "b"']);
  assert.equal(f?.status, null);
  assert.equal(f?.expected, 'the same value (a record, spec §2.2)');
  assert.equal(f?.id, 'contract.GET /v1/conversation/{id} vs GET /v2/conversation/{uuid} → - $.name');
});

test('a failure in another form is named by its test', () => {
  const [f] = failuresOf(TEST, [`${ESC}[31mError: Test timeout of 20000ms exceeded.${ESC}[39m\n\nat x`]);
  assert.equal(f?.id, `contract.test ${TEST}`);
  assert.equal(f?.observed, 'Test timeout of 20000ms exceeded.');
});

test('run-dependent values never reach the fingerprint item', () => {
  const [f] = parseFailures(TEST, [
    'POST /v2/conversation/{uuid}/start → 204: status: expected 403 for completed dialog a778429f-8a83-49fb-805a-91e6bc3a82b8 (spec §5.3), observed 204',
  ]);
  assert.deepEqual(failureItem(f!), {
    id: 'contract.POST /v2/conversation/{uuid}/start → 204 status',
    section: '5.3',
    operation: 'POST /v2/conversation/{uuid}/start',
    item: 'status: expected 403 for completed dialog {uuid}',
    observed: '204',
  });
  assert.equal(normaliseVolatile('dialog 1932455048 at 2026-11-22T11:05:00Z, per_page 40, [3]'), 'dialog {n} at {time}, per_page 40, [*]');
});
