// The judge of a recording on hand-made HAR logs: what a conforming vendor's traffic holds passes (page 0 served as the
// first page is no repeat), each stateful kind fails where it is broken, what a recording cannot feed is listed with
// why, and no credential or token of the log is in what it returns. The engine's feeders one by one: engine.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contractValidators } from '../openapi/validators.ts';
import { CheckRegistry } from './check.ts';
import { operationOf, queryOf } from './evidence.ts';
import { judgeRecording, recordedSecrets, type HarLog } from './recording.ts';
import { BUILT_IN } from './registry.ts';

const validators = contractValidators();
const BASIC = `Basic ${Buffer.from('qa:s3cret-pass').toString('base64')}`;
const TOKEN = 'tok-7f3a9c1e';
const UUID = '0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41';
/** A dialog of another create than UUID's. */
const OTHER_UUID = '7d4c2a10-3b9e-4f61-8a2d-5e0c9b1f6a73';
const [A, B, C] = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000`) as [string, string, string];
const T0 = Date.parse('2026-11-25T10:00:00Z');
const item = (id: string | number, extra = {}) => ({
  id,
  name: `${id} Berlin`,
  status: 'completed',
  ip: '203.0.113.7',
  location: 'Berlin',
  updated: '2026-11-20T09:31:00Z',
  duration: 95,
  source: 'web',
  ...extra,
});
const page = (ids: Array<string | number>, number: number, total: number) => ({
  ...Object.fromEntries(ids.map((id, i) => [String(i), item(id)])),
  meta: { pagination: { total, count: ids.length, per_page: 2, current_page: number, total_pages: Math.ceil(total / 2), links: {} } },
});

let clock = T0;
/** One entry of a log, a second after the one before. */
function entry(method: string, path: string, status: number, body: unknown, request?: unknown, binary = false) {
  clock += 1000;
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const content = binary
    ? { size: text.length, mimeType: 'application/pdf', text: Buffer.from(text).toString('base64'), encoding: 'base64' }
    : { size: text.length, mimeType: 'application/json', text };
  return {
    startedDateTime: new Date(clock).toISOString(),
    time: 20,
    request: {
      method,
      url: `https://staging.example${path}`,
      headers: path.includes('/vertex/') ? [] : [{ name: 'Authorization', value: BASIC }],
      ...(request === undefined ? {} : { postData: { mimeType: 'application/json', text: JSON.stringify(request) } }),
    },
    response: {
      status,
      headers: [
        { name: 'Content-Type', value: binary ? 'application/pdf' : 'application/json' },
        { name: 'Date', value: new Date(clock).toUTCString() },
      ],
      content: status === 204 ? { size: 0, mimeType: '' } : content,
    },
  };
}

/** A conforming vendor's traffic, and one bent where `bend` says. */
function recording(
  bend: { repeatOnPage2?: boolean; movedBeforePage2?: boolean; startLeaves?: string; sameMessageId?: boolean; idsWithResponseFalse?: boolean } = {},
): HarLog {
  clock = T0;
  const list = '/api/v2/conversations?BotID=101&PageCount=2';
  return {
    log: {
      entries: [
        entry('POST', '/api/v2/dialog/101/create', 200, { dialogId: 5001, dialogUUID: UUID }, { response: true }),
        entry('GET', `/api/v2/conversation/${UUID}`, 200, { ...item(UUID, { status: 'new', updated: '', duration: 0 }), data: [] }),
        // Asked for no identifiers (§4.2 response false): any success, without them.
        bend.idsWithResponseFalse
          ? entry('POST', '/api/v2/dialog/101/create?response=false', 200, { dialogId: 5002, dialogUUID: OTHER_UUID })
          : entry('POST', '/api/v2/dialog/101/create?response=false', 204, undefined),
        entry('POST', `/api/v2/conversation/${UUID}/start`, 204, undefined),
        entry('GET', `/api/v2/conversation/${UUID}`, 200, {
          ...item(UUID, { status: bend.startLeaves ?? 'in-process', updated: new Date(clock).toISOString(), duration: 2 }),
          data: [],
        }),
        // A vendor whose first page is 1 serves PageNumber 0 as page 1: no page of the walk.
        entry('GET', `${list}&PageNumber=0`, 200, page([A, B], 1, 3)),
        entry('GET', `${list}&PageNumber=1`, 200, page([A, B], 1, 3)),
        entry('GET', `${list}&PageNumber=2`, 200, page([bend.repeatOnPage2 ? B : C], 2, bend.movedBeforePage2 ? 4 : 3)),
        entry(
          'POST',
          '/api/vertex/v1/dialog/send_message',
          200,
          { message_id: 77, created_at: Math.floor(clock / 1000) },
          { token: TOKEN, text: 'hi', typing: false },
        ),
        entry(
          'POST',
          '/api/vertex/v1/dialog/send_message',
          200,
          { message_id: bend.sameMessageId ? 77 : 78, created_at: Math.floor(clock / 1000) },
          { token: TOKEN, text: 'hi', typing: true },
        ),
        entry('GET', '/api/v1/file/7', 200, '%PDF-1.4 x', undefined, true),
        entry('GET', '/api/v1/file/7', 200, '%PDF-1.4 x', undefined, true),
        // Not an operation of the document: left out.
        entry('GET', '/favicon.ico', 404, ''),
      ],
    },
  };
}

const judge = (har: HarLog) => judgeRecording(har, validators, new CheckRegistry(BUILT_IN), 'staging.har', 10_000);
const ids = (har: HarLog) => judge(har).failures.map((f) => f.id);

test("a conforming vendor's recording holds: every exchange of the API judged, the rest left out", () => {
  const verdict = judge(recording());
  assert.deepEqual(
    verdict.failures.map((f) => f.id),
    [],
  );
  assert.equal(verdict.exchanges, 12);
  for (const name of [
    'pagination_conformance.pages_disjoint',
    'pagination_conformance.walk_totals',
    'effect_of_start',
    'meaning_conformance.message_id',
    'file_content.same_file',
    'created_dialog_identified',
    'created_dialog_identified.not_with_response_false',
    'meaning_conformance.updated',
  ])
    assert.ok(verdict.judged[name]?.judged, `${name} judged`);
  const why = (check: string) => verdict.notJudged.find((n) => n.check === check)?.why ?? '';
  // What no recording of any client holds says so; what this one happens not to hold names the evidence it lacks.
  assert.match(why('custom_block_call'), /no client's recording of the API holds it/);
  assert.match(why('filter_conformance.bot_totals'), /^the recording holds none of its evidence: a walk of lists of one query told apart by BotID/);
});

test('each stateful kind fails at its place: the pages of one query, a write and its read, a series', () => {
  assert.ok(ids(recording({ repeatOnPage2: true })).includes('contract.pagination_conformance getV2Conversations 200 /*/id (pages disjoint)'));
  // A total that moved between the pages: a write the recording does not hold (another client's) moved the list.
  assert.ok(!ids(recording({ repeatOnPage2: true, movedBeforePage2: true })).some((id) => id.startsWith('contract.pagination_conformance')));
  assert.ok(ids(recording({ startLeaves: 'operator' })).includes('contract.effect_of_start postV2ConversationStart 204 status of the dialog afterwards'));
  assert.ok(ids(recording({ sameMessageId: true })).includes('contract.meaning_conformance postVertexSendMessage 200 /message_id'));
});

test('a create asked for no identifiers that answers them fails at each, whatever its status', () => {
  const failing = ids(recording({ idsWithResponseFalse: true }));
  assert.ok(failing.includes('contract.created_dialog_identified postV2DialogCreate 200 /dialogId (response false)'));
  assert.ok(failing.includes('contract.created_dialog_identified postV2DialogCreate 200 /dialogUUID (response false)'));
});

test("a recording's credentials and tokens are found, and none is in what the judge returns", () => {
  const har = recording({ sameMessageId: true });
  const secrets = recordedSecrets(har);
  assert.ok(secrets.includes('s3cret-pass') && secrets.includes(TOKEN) && secrets.includes(BASIC.slice('Basic '.length)));
  const text = JSON.stringify(judge(har));
  for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in the verdict`);
});

test('a request names its operation and parameters below /api, whatever the host; the query decoded', () => {
  const ops = [...validators.operations.values()];
  assert.deepEqual(operationOf(ops, 'get', `/api/v2/conversation/${UUID}`), { operationId: 'getV2Conversation', pathParams: { uuid: UUID } });
  assert.equal(operationOf(ops, 'POST', '/api/v2/conversation/x/unknown'), undefined);
  assert.deepEqual(queryOf('/api/v2/conversations?CreatedFrom=2026-11-25T10%3A00%3A00%2B05%3A00&BotID=1'), {
    CreatedFrom: '2026-11-25T10:00:00+05:00',
    BotID: '1',
  });
});
