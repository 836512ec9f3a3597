import { responseFailures, type ResponseToCheck, type StatusExpectation } from '../checks/response.ts';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import assert from 'node:assert/strict';
import { DocumentError, listUnknowns, loadDocument, parseOpenApi } from './document.ts';
import { contractValidators } from './validators.ts';
import type { OperationId } from './operations.generated.ts';
import { failureId, renderHeadline } from '../lib/failure.ts';
import { samples, type SampleOperation } from '../fixtures/spec-samples.ts';

// Written from spec sections 4 and 7, not read back from the document: the document must match it.
const SPEC_OPERATIONS: Record<OperationId, { label: string; statuses: string[] }> = {
  getV1Conversations: { label: 'GET /v1/conversations', statuses: ['200', '400', '401', '403'] },
  getV1Conversation: { label: 'GET /v1/conversation/{id}', statuses: ['200', '401', '403', '404'] },
  getV1DialogCreate: { label: 'GET /v1/dialog/{BotID}/create', statuses: ['200', '401', '403', '404'] },
  getV1File: { label: 'GET /v1/file/{fileId}', statuses: ['200', '401', '403', '404'] },
  getV2Conversations: { label: 'GET /v2/conversations', statuses: ['200', '400', '401', '403'] },
  getV2Conversation: { label: 'GET /v2/conversation/{uuid}', statuses: ['200', '401', '403', '404'] },
  getV2DialogCreate: { label: 'GET /v2/dialog/{BotID}/create', statuses: ['200', '401', '403', '404'] },
  postV2DialogCreate: { label: 'POST /v2/dialog/{BotID}/create', statuses: ['200', '401', '403', '404'] },
  postV2ConversationStart: { label: 'POST /v2/conversation/{uuid}/start', statuses: ['204', '401', '403', '404'] },
  postV2ConversationStop: { label: 'POST /v2/conversation/{uuid}/stop', statuses: ['204', '401', '403', '404'] },
  postV2ConversationSend: { label: 'POST /v2/conversation/{uuid}/send', statuses: ['204', '400', '401', '403', '404'] },
  // Success of command is not shown (§4.2): any 2XX.
  postV2ConversationCommand: { label: 'POST /v2/conversation/{uuid}/command', statuses: ['2XX', '400', '401', '403', '404'] },
  getV2File: { label: 'GET /v2/file/{fileId}', statuses: ['200', '401', '403', '404'] },
  postVertexComplete: { label: 'POST /vertex/v1/complete', statuses: ['204', '403'] },
  postVertexSendMessage: { label: 'POST /vertex/v1/dialog/send_message', statuses: ['200', '400', '403'] },
};

const v = contractValidators();
const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
const messages = (operationId: OperationId, body: unknown) => responseFailures(v, operationId, json(body)).map(renderHeadline);

test('the document has every operation of the spec with every status code of section 7', () => {
  const ops = v.operations;
  assert.deepEqual([...ops.keys()].sort(), Object.keys(SPEC_OPERATIONS).sort());
  for (const [id, expected] of Object.entries(SPEC_OPERATIONS)) {
    const op = ops.get(id as OperationId)!;
    assert.equal(op.label, expected.label);
    for (const status of expected.statuses) assert.ok(status in op.responses, `${expected.label} lacks ${status}`);
    assert.equal(op.needsBasicAuth, !id.startsWith('postVertex'), `${expected.label}: Basic auth only on V1/V2 (§5)`);
  }
  // The server URL carries the {base_url}/api convention.
  assert.equal(v.doc.servers?.[0]?.url, '{base_url}/api');
});

test('every "not shown" item of the spec is marked x-unknown with its section', () => {
  const unknowns = listUnknowns(loadDocument());
  const items = unknowns.map((u) => `${u.section} ${u.item}`).join('\n');
  for (const needle of [
    'error body shape',
    'content type of the file download',
    'response body of GET /v2/dialog/{BotID}/create',
    'when response is false',
    'success response of command',
    'name and type of the send body field',
    'names and types of the command body fields',
    'default PageNumber',
    'default and maximum PageCount',
    'full set of status values',
    'exact status string of a created, not started dialog',
    'transitions to completed',
    'rate limits',
    'callback',
    'full set of source values',
    'data item type values',
    'parameters and response of GET /v2/file',
    'maximum variables size',
    'token lifetime',
    'webhooks',
    'deprecation',
    'fields of the file record',
  ]) {
    assert.ok(items.includes(needle), `no x-unknown for "${needle}"`);
  }
  for (const u of unknowns) assert.match(u.section, /^\d+(\.\d+)?$/, `bad section on ${u.pointer}`);
});

test('the spec sample payloads validate', () => {
  for (const [operationId, body] of Object.entries(samples)) {
    assert.deepEqual(messages(operationId as SampleOperation, body), [], operationId);
  }
});

test('mutated samples fail with a message naming operation, place, expectation with section, and observation', () => {
  const { source: _dropped, ...noSource } = samples.getV2Conversations['0'] as Record<string, unknown>;
  const cases: Array<[OperationId, unknown, string]> = [
    [
      'getV2Conversations',
      { ...samples.getV2Conversations, 0: noSource },
      'GET /v2/conversations → 200: $["0"].source: expected required property (spec §2.1), observed missing property',
    ],
    [
      'getV2Conversations',
      { ...samples.getV2Conversations, 0: { ...(samples.getV2Conversations['0'] as object), id: 1042 } },
      'GET /v2/conversations → 200: $["0"].id: expected type string (spec §2.1), observed number 1042',
    ],
    [
      'getV2Conversation',
      { ...samples.getV2Conversation, id: 'not-a-uuid' },
      'GET /v2/conversation/{uuid} → 200: $.id: expected format uuid (spec §2.1), observed string "not-a-uuid"',
    ],
    [
      'getV1Conversation',
      { ...samples.getV1Conversation, duration: '95' },
      'GET /v1/conversation/{id} → 200: $.duration: expected type integer (spec §2.1), observed string "95"',
    ],
    [
      'getV1Conversations',
      { ...samples.getV1Conversations, 0: { ...(samples.getV1Conversations['0'] as object), source: 'web' } },
      'GET /v1/conversations → 200: $["0"].source: expected no such property (spec §2.1), observed string "web"',
    ],
    [
      'getV1Conversation',
      { ...samples.getV1Conversation, data: [{ question: 'q', type: 'Text', answer: 'a' }] },
      'GET /v1/conversation/{id} → 200: $.data[0].variable: expected required property (spec §2.2), observed missing property',
    ],
    [
      'getV2Conversations',
      { meta: { pagination: { ...(samples.getV2Conversations.meta as { pagination: object }).pagination, per_page: '40' } } },
      'GET /v2/conversations → 200: $.meta.pagination.per_page: expected type integer (spec §2.3), observed string "40"',
    ],
    [
      'postV2DialogCreate',
      { dialogId: 1043 },
      'POST /v2/dialog/{BotID}/create → 200: $.dialogUUID: expected required property (spec §2.4), observed missing property',
    ],
    [
      'postVertexSendMessage',
      { message_id: 77, created_at: 1715679060.5 },
      'POST /vertex/v1/dialog/send_message → 200: $.created_at: expected type integer (spec §2.5), observed number 1715679060.5',
    ],
  ];
  for (const [operationId, body, expected] of cases)
    assert.ok(messages(operationId, body).includes(expected), `${messages(operationId, body).join('\n')}\n!= ${expected}`);
});

test('the V2 updated field accepts an ISO date-time or "", nothing else', () => {
  const item = samples.getV2Conversation;
  assert.deepEqual(messages('getV2Conversation', { ...item, updated: '' }), []);
  assert.deepEqual(messages('getV2Conversation', { ...item, updated: '2024-05-14T09:31:00Z' }), []);
  const [message] = messages('getV2Conversation', { ...item, updated: '1715679060000' });
  assert.match(message!, /\$\.updated: expected string in format iso-date-time or empty string \(spec §2\.1\), observed string "1715679060000"/);
});

test('each response check is named, and a status, a content type or a body on 204 is a failure of its own', () => {
  const checks = (operationId: OperationId, answer: ResponseToCheck, expectation?: StatusExpectation) =>
    responseFailures(v, operationId, answer, expectation).map((f) => [f.check, renderHeadline(f)]);
  // A server error is one failure, whatever else the test expected: one cause, one id.
  assert.deepEqual(checks('getV1Conversation', { status: 500, contentType: 'text/html', body: '<h1>oops</h1>' }, { status: 200 }), [
    ['not_a_server_error', 'GET /v1/conversation/{id} → 500: status: expected no server error (spec §7), observed 500'],
  ]);
  assert.deepEqual(checks('getV1Conversation', { status: 418, contentType: 'text/html', body: '' }), [
    ['status_code_conformance', 'GET /v1/conversation/{id} → 418: status: expected one of 200, 401, 403, 404 (spec §7), observed undocumented status 418'],
  ]);
  // The test's expectation names its check, and why it applies goes to the context, not into the id.
  const noAuth = { status: 401, because: 'for a request without Authorization', section: '5.2', check: 'ignored_auth' } as const;
  const [auth] = responseFailures(v, 'getV2Conversations', { status: 200, contentType: 'application/json', body: '{}' }, noAuth);
  assert.equal(renderHeadline(auth!), 'GET /v2/conversations → 200: status: expected 401 for a request without Authorization (spec §5.2), observed 200');
  assert.equal(failureId(auth!), 'contract.ignored_auth getV2Conversations 200 status');
  const html = responseFailures(v, 'getV2Conversations', { status: 200, contentType: 'text/html; charset=utf-8', body: '{}' })[0]!;
  assert.match(renderHeadline(html), /content-type: expected content type application\/json .* observed content type text\/html/);
  const body = responseFailures(v, 'postV2ConversationStop', { status: 204, contentType: null, body: '{}' })[0]!;
  assert.match(renderHeadline(body), /→ 204: body: expected an empty body for 204 \(spec §7\), observed a body "\{\}"/);
  assert.equal(responseFailures(v, 'getV2Conversations', { status: 200, contentType: 'application/json', body: '{' })[0]!.expected, 'a JSON body');
  // Undocumented shapes stay open: any body on an error status, any 2XX for command.
  assert.deepEqual(responseFailures(v, 'getV1Conversation', { status: 404, contentType: 'text/plain', body: 'nope' }), []);
  assert.deepEqual(responseFailures(v, 'postV2ConversationCommand', { status: 202, contentType: null, body: '' }), []);
  // POST create with response=false: status only.
  assert.deepEqual(responseFailures(v, 'postV2DialogCreate', { status: 200, contentType: 'application/json', body: '{}' }, { bodyNotShown: true }), []);
});

test('a failure carries no value of the run outside its context: the same drift has the same id and item in every run', () => {
  const item = samples.getV2Conversations['0'] as object;
  const twice = [1042, 977].map((id) => responseFailures(v, 'getV2Conversations', json({ ...samples.getV2Conversations, 3: { ...item, id } }))[0]!);
  assert.deepEqual(twice.map(failureId), Array(2).fill('contract.response_schema_conformance getV2Conversations 200 /*/id'));
  assert.deepEqual(
    twice.map((f) => [f.expected, f.observed]),
    [
      ['type string', 'number'],
      ['type string', 'number'],
    ],
  );
  assert.deepEqual(
    twice.map((f) => f.context),
    [
      { location: '$["3"].id', value: 1042 },
      { location: '$["3"].id', value: 977 },
    ],
  );
});

test('additive fields are not contract failures', () => {
  assert.deepEqual(messages('getV2Conversation', { ...samples.getV2Conversation, channel: 'telegram' }), []);
});

test('a broken document gives one line naming the file and the place', () => {
  assert.throws(
    () => parseOpenApi('openapi: 3.1.0\npaths:\n  - [unclosed\n', 'openapi/broken.yaml'),
    (err: unknown) => {
      assert.ok(err instanceof DocumentError);
      assert.match(err.message, /^openapi\/broken\.yaml:\d+:\d+: /);
      assert.ok(!err.message.includes('\n'));
      return true;
    },
  );
  assert.throws(() => parseOpenApi('openapi: 3.0.0\n', 'x.yaml'), /not an OpenAPI 3\.1 document/);
});

test("the document's schemas are JSON Schema 2020-12: the run's validators compile them without checking them again", () => {
  const ajv = new Ajv2020({ strict: true });
  const doc = loadDocument();
  const schemas: Array<[string, unknown]> = [
    ...Object.entries(doc.components?.schemas ?? {}).map(([name, schema]): [string, unknown] => [`components.schemas.${name}`, schema]),
    ...[...contractValidators().operations.values()].flatMap((op) =>
      Object.entries(op.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {}).map(([type, media]): [string, unknown] => [`${op.operationId} ${status} ${type}`, media.schema ?? {}]),
      ),
    ),
  ];
  for (const [where, schema] of schemas) assert.ok(ajv.validateSchema(schema as object), `${where}: ${ajv.errorsText()}`);
  // What the check would refuse: a keyword's value of the wrong type.
  assert.equal(ajv.validateSchema({ type: 'string', minLength: 'three' }), false);
});
