import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureId, failureItem, normaliseVolatile, renderFailure, unexplainedFailure, type ContractFailure } from './drift-failures.ts';

const TEST = '[v2] v2/create.spec.ts › creates';
const failure: ContractFailure = {
  operationId: 'postV2ConversationStart',
  operation: 'POST /v2/conversation/{uuid}/start',
  status: 204,
  pointer: 'status',
  location: 'status',
  expected: '403 for completed dialog a778429f-8a83-49fb-805a-91e6bc3a82b8',
  section: '5.3',
  observed: '204',
  evidence: 'request: POST /api/v2/conversation/a778429f-8a83-49fb-805a-91e6bc3a82b8/start\nresponse: 204 (no content type) (empty body)',
};

test('a failure is named by its operation, status and stable place; its message is a rendering of it', () => {
  assert.equal(failureId(failure), 'contract.POST /v2/conversation/{uuid}/start → 204 status');
  assert.equal(failureId({ ...failure, status: null, pointer: '/*/source' }), 'contract.POST /v2/conversation/{uuid}/start → - /*/source');
  assert.equal(renderFailure(failure), 'POST /v2/conversation/{uuid}/start → 204: status: expected 403 for completed dialog a778429f-8a83-49fb-805a-91e6bc3a82b8 (spec §5.3), observed 204');
  assert.equal(renderFailure({ ...failure, status: null, location: 'filter BotID' }).startsWith('POST /v2/conversation/{uuid}/start: filter BotID: expected'), true);
});

test('run-dependent values never reach the fingerprint item', () => {
  assert.deepEqual(failureItem({ ...failure, id: failureId(failure), test: TEST }), {
    id: 'contract.POST /v2/conversation/{uuid}/start → 204 status',
    section: '5.3',
    operation: 'POST /v2/conversation/{uuid}/start',
    item: 'status: expected 403 for completed dialog {uuid}',
    observed: '204',
  });
  assert.equal(normaliseVolatile('dialog 1932455048 at 2026-11-22T11:05:00Z, per_page 40, [3]'), 'dialog {n} at {time}, per_page 40, [*]');
});

test('a failed test that recorded no contract failure is named by the test', () => {
  const f = unexplainedFailure(TEST, 'Test timeout of 20000ms exceeded.');
  assert.equal(f.id, `contract.test ${TEST}`);
  assert.equal(f.observed, 'Test timeout of 20000ms exceeded.');
});
