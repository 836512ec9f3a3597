import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandPath, queryString, requestUrl, type OperationInfo } from './request.ts';

const send: OperationInfo = {
  operationId: 'postV2ConversationSend',
  method: 'POST',
  path: '/v2/conversation/{uuid}/send',
  label: 'POST /v2/conversation/{uuid}/send',
  basicAuth: true,
};

test('builds paths and queries without URL classes (k6 has none)', () => {
  assert.equal(expandPath('/v2/conversation/{uuid}/send', { uuid: 'a b' }), '/v2/conversation/a%20b/send');
  assert.throws(() => expandPath('/v2/dialog/{BotID}/create', {}), /BotID/);
  assert.equal(queryString({ PageCount: '10', CreatedFrom: '2024-01-01T00:00:00+03:00' }), '?PageCount=10&CreatedFrom=2024-01-01T00%3A00%3A00%2B03%3A00');
  assert.equal(queryString(undefined), '');
});

test('puts the API under {base_url}/api', () => {
  assert.equal(
    requestUrl('http://127.0.0.1:4010/', send, { operationId: send.operationId, pathParams: { uuid: 'u1' } }),
    'http://127.0.0.1:4010/api/v2/conversation/u1/send',
  );
});
