import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureId, operationLabel, renderFailure, type Failure } from './failure.ts';

const comparison: Failure = {
  check: 'versions_agree',
  severity: 'breaking',
  operationId: 'getV1Conversation',
  comparedWith: 'getV2Conversation',
  status: 200,
  pointer: '/status',
  expected: 'the same value in both versions of one dialog',
  section: '2.2',
  observed: '"different values"',
  context: {
    location: '/status of dialog 1042 / 6f1c2d2e-1b7a-4c1e-9a57-0d3b1c2e4f60',
    details: { v1: 'IN-PROCESS', v2: 'in-process' },
    exchanges: [
      {
        request: { method: 'GET', path: '/api/v1/conversation/1042', credentials: 'configured' },
        response: { status: 200, contentType: 'application/json', body: '{"status":"IN-PROCESS"}', bodyLength: 900 },
      },
    ],
  },
};

test('an id is the check, the operation, the status and the place; its prefix tells a learned failure apart', () => {
  assert.equal(failureId(comparison), 'contract.versions_agree getV1Conversation 200 /status');
  assert.equal(failureId({ ...comparison, severity: 'learned' }), 'learned.versions_agree getV1Conversation 200 /status');
  assert.equal(failureId({ ...comparison, status: null }), 'contract.versions_agree getV1Conversation - /status');
});

test('a failure renders in one place: the headline with the run place, then the check, its values and each exchange', () => {
  assert.equal(operationLabel(comparison), 'GET /v1/conversation/{id} vs GET /v2/conversation/{uuid}');
  assert.equal(
    renderFailure(comparison),
    [
      'GET /v1/conversation/{id} vs GET /v2/conversation/{uuid} → 200: /status of dialog 1042 / 6f1c2d2e-1b7a-4c1e-9a57-0d3b1c2e4f60: ' +
        'expected the same value in both versions of one dialog (spec §2.2), observed "different values"',
      'check: versions_agree (breaking); v1 IN-PROCESS, v2 in-process',
      'request: GET /api/v1/conversation/1042',
      'response: 200 application/json {"status":"IN-PROCESS"}… (900 chars)',
    ].join('\n'),
  );
});

test('a check of a family is filed under the family: its failures keep the ids they had before the checks were split', () => {
  const split: Failure = { ...comparison, check: 'versions_agree.same_dialogs' };
  assert.equal(failureId(split), failureId({ ...comparison, check: 'versions_agree' }));
});

test('a request keeps which credentials went with it, never their values, so a ticket can be sent again as it was', () => {
  const noAuth: Failure = {
    ...comparison,
    check: 'ignored_auth',
    comparedWith: undefined,
    context: { exchanges: [{ request: { method: 'GET', path: '/api/v2/conversations?BotID=101', credentials: 'none' } }] },
  };
  const evidence = ['check: ignored_auth (breaking)', 'request: GET /api/v2/conversations?BotID=101 (credentials: none)', 'response: none whole'];
  assert.equal(renderFailure(noAuth).split('\n').slice(1).join('\n'), evidence.join('\n'));
});
