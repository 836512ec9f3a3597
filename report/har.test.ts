// The run's HAR: a valid HAR 1.2 log (har-schema), every exchange in the order sent with what a HAR viewer shows, the
// credentials named and never valued, and read back as the answers the coverage matrix and the overlay check judge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RecordedExchange } from '../lib/exchange.ts';
import { harAnswers, harOf } from './har.ts';
import { harProblems } from './har-schema.ts';

const exchange = (over: Partial<RecordedExchange>): RecordedExchange => ({
  operationId: 'getV2Conversations',
  request: { method: 'GET', path: '/api/v2/conversations?BotID=101&CreatedFrom=2026-11-01T00%3A00%3A00%2B03%3A00', credentials: 'configured' },
  test: 'lists › filters by bot',
  startedAt: '2026-11-24T10:00:00.100Z',
  ms: 12,
  status: 200,
  statusText: 'OK',
  headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '2' },
  contentType: 'application/json; charset=utf-8',
  contentLength: '2',
  body: '{}',
  ...over,
});

const SEND = exchange({
  operationId: 'postV2ConversationSend',
  request: { method: 'POST', path: '/api/v2/conversation/6f1c/send', credentials: 'wrong password', contentType: 'application/json', body: '{"text":"héllo"}' },
  startedAt: '2026-11-24T10:00:00.050Z',
  status: 401,
  statusText: 'Unauthorized',
  headers: { 'www-authenticate': 'Basic realm="x"', 'set-cookie': '[redacted]' },
  contentType: null,
  contentLength: null,
  body: '',
});
const THROTTLED = exchange({
  status: 429,
  statusText: 'Too Many Requests',
  headers: { 'retry-after': '1' },
  contentType: null,
  contentLength: null,
  body: '',
  throttled: true,
  startedAt: '2026-11-24T10:00:00.000Z',
});
const NONE = exchange({ request: { method: 'GET', path: '/api/v1/conversations', credentials: 'none' }, startedAt: '2026-11-24T10:00:01.000Z' });

const har = harOf([exchange({}), SEND, THROTTLED, NONE], 'https://staging.example.com/gw/', { name: 'dialog-contract', version: '0.1.0' }, 'run r1');

test('a run HAR is a valid HAR 1.2 log, and a broken one is not', () => {
  assert.deepEqual(harProblems(har), []);
  assert.deepEqual(harProblems(JSON.parse(JSON.stringify(har)) as unknown), [], 'as written to and read from the file');
  const broken = JSON.parse(JSON.stringify(har)) as { log: { entries: Array<Record<string, unknown>> } };
  delete broken.log.entries[0]!.timings;
  assert.deepEqual(harProblems(broken), ["/log/entries/0 must have required property 'timings'"]);
});

test('entries come in the order sent, with absolute URLs, the query, the body and the answer as recorded', () => {
  const entries = har.log.entries;
  assert.deepEqual(
    entries.map((e) => e.startedDateTime),
    ['2026-11-24T10:00:00.000Z', '2026-11-24T10:00:00.050Z', '2026-11-24T10:00:00.100Z', '2026-11-24T10:00:01.000Z'],
  );
  const [, send, list] = entries;
  assert.equal(list!.request.url, 'https://staging.example.com/gw/api/v2/conversations?BotID=101&CreatedFrom=2026-11-01T00%3A00%3A00%2B03%3A00');
  assert.deepEqual(list!.request.queryString, [
    { name: 'BotID', value: '101' },
    { name: 'CreatedFrom', value: '2026-11-01T00:00:00+03:00' },
  ]);
  assert.deepEqual(list!.response.content, { size: 2, mimeType: 'application/json; charset=utf-8', text: '{}' });
  assert.deepEqual(send!.request.postData, { mimeType: 'application/json', text: '{"text":"héllo"}' });
  assert.deepEqual(send!.response.content, { size: 0, mimeType: '', text: '' });
  assert.equal(send!._operationId, 'postV2ConversationSend');
  assert.equal(list!._test, 'lists › filters by bot');
  assert.deepEqual(list!.timings, { send: 0, wait: 12, receive: 0 });
});

test('the Authorization the transport added is named by its credentials, never valued; none is left out', () => {
  const authorization = (i: number) => har.log.entries[i]!.request.headers.find((h) => h.name === 'authorization')?.value;
  assert.equal(authorization(2), 'Basic [redacted]');
  assert.equal(authorization(1), 'Basic [redacted] (a wrong password)');
  assert.equal(authorization(3), undefined);
  assert.equal(har.log.entries[3]!._credentials, 'none');
});

test('the answers read back are those recorded, a throttled one marked', () => {
  assert.deepEqual(harAnswers(har), [
    { operationId: 'getV2Conversations', status: 429, contentType: null, contentLength: null, body: '', throttled: true },
    { operationId: 'postV2ConversationSend', status: 401, contentType: null, contentLength: null, body: '', throttled: false },
    { operationId: 'getV2Conversations', status: 200, contentType: 'application/json; charset=utf-8', contentLength: '2', body: '{}', throttled: false },
    { operationId: 'getV2Conversations', status: 200, contentType: 'application/json; charset=utf-8', contentLength: '2', body: '{}', throttled: false },
  ]);
});

test('what the run knew of an exchange lands on that exchange only, though another alike left within the same millisecond', () => {
  const path = '/api/v2/conversation/6f1c/stop';
  const stop = (credentials: 'configured' | 'wrong password', exchangeId: string, status: number) =>
    exchange({ operationId: 'postV2ConversationStop', request: { method: 'POST', path, credentials }, status, body: '', exchangeId });
  const held = harOf(
    [stop('wrong password', '7.1', 401), stop('configured', '7.2', 204)],
    'https://staging.example.com/',
    { name: 'dialog-contract', version: '0.1.0' },
    'run r1',
    {
      expectations: [{ exchangeId: '7.1', heldTo: { status: 401, because: 'for a wrong password', section: '5.2' } }],
    },
  );
  assert.deepEqual(
    held.log.entries.map((e) => [e.response.status, e._expected?.because]),
    [
      [401, 'for a wrong password'],
      [204, undefined],
    ],
  );
});
