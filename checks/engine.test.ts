// The one engine on hand-made exchanges: each feeder's evidence that holds and evidence that breaks it, at the place
// the failure names; and what it must not judge (a throttled answer, a probe's status, a field a write may move, a list
// read before it could show a write, two ids a create claims for one dialog but whose reads say otherwise).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contractValidators } from '../openapi/validators.ts';
import { CheckRegistry } from './check.ts';
import { FEEDERS, judgeExchanges, recordedFailures } from './engine.ts';
import { operationOf, queryOf, type ExchangeEvidence } from './evidence.ts';
import { BUILT_IN } from './registry.ts';
import { Timeline } from './timeline.ts';

const validators = contractValidators();
const operations = [...validators.operations.values()];
const T0 = Date.parse('2026-11-25T10:00:00Z');
const U1 = '0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41';
const U2 = '7d4c2a10-3b9e-4f61-8a2d-5e0c9b1f6a73';
const U3 = '9e8d7c6b-5a49-4382-9170-0f1e2d3c4b5a';

type Extra = Partial<Pick<ExchangeEvidence, 'probing' | 'expected' | 'dialog'>> & {
  credentials?: ExchangeEvidence['request']['credentials'];
  body?: unknown;
  at?: number;
  /** How long the answer took, in ms (20 unless said). */
  ms?: number;
};

/** A recording in the making: each exchange a second after the one before, unless `at` says when (seconds from T0). */
function recording() {
  let clock = T0;
  const out: ExchangeEvidence[] = [];
  const add = (method: string, path: string, status: number, answer?: unknown, extra: Extra = {}) => {
    clock = extra.at === undefined ? clock + 1000 : T0 + extra.at * 1000;
    const found = operationOf(operations, method, path)!;
    const text = answer === undefined ? '' : JSON.stringify(answer);
    const headers: Record<string, string> = { date: new Date(clock).toUTCString(), ...(answer === undefined ? {} : { 'content-type': 'application/json' }) };
    out.push({
      operationId: found.operationId,
      method,
      path,
      query: queryOf(path),
      pathParams: found.pathParams,
      request: {
        credentials: extra.credentials ?? (path.includes('/vertex/') ? 'a token' : 'configured'),
        contentType: extra.body === undefined ? null : 'application/json',
        body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
      },
      response: { status, headers, contentType: headers['content-type'] ?? null, body: text, bytes: new TextEncoder().encode(text) },
      startedMs: clock,
      endedMs: clock + (extra.ms ?? 20),
      ...(extra.probing ? { probing: extra.probing } : {}),
      ...(extra.expected ? { expected: extra.expected } : {}),
      ...(extra.dialog ? { dialog: extra.dialog } : {}),
    });
    return out;
  };
  return { add, out };
}

const dialog = (id: string | number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `#${typeof id === 'number' ? id : 7001} Berlin`,
  status: 'in-process',
  ip: '203.0.113.7',
  location: 'Berlin',
  updated: '2026-11-25T10:00:01+00:00',
  duration: 0,
  ...(typeof id === 'string' ? { source: 'web' } : {}),
  ...extra,
});
const record = (id: string | number, extra = {}) => ({ ...dialog(id, extra), data: [] });
const list = (items: object[], total = items.length, perPage = 40, page = 1) => ({
  ...Object.fromEntries(items.map((it, i) => [String(i), it])),
  meta: {
    pagination: { total, count: items.length, per_page: perPage, current_page: page, total_pages: Math.max(1, Math.ceil(total / perPage)), links: {} },
  },
});

const engine = { validators, registry: new CheckRegistry(BUILT_IN), settleMs: 10_000 };
const failures = (exchanges: ExchangeEvidence[]) => recordedFailures(judgeExchanges(exchanges, engine), '[journal]').failures;
const ids = (exchanges: ExchangeEvidence[]) => [...new Set(failures(exchanges).map((f) => f.id))];
const judgedBy = (exchanges: ExchangeEvidence[], check: string) => recordedFailures(judgeExchanges(exchanges, engine), '[journal]').judged[check]?.judged ?? 0;

/** A POST create of U1 (V1 id 7001) on bot 101. */
const created = () => {
  const r = recording();
  r.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7001, dialogUUID: U1 }, { body: { response: true } });
  return r;
};

test('an answer is held to what its request was: bad input to §7, no or wrong credentials to 401, response true to 200 when it succeeds', () => {
  const r = recording();
  r.add('GET', '/api/v2/conversations?BotID=abc', 400, { title: 'Bad Request' });
  r.add('GET', '/api/v2/conversations?CreatedFrom=20241301', 400, undefined);
  assert.deepEqual(ids(r.out), [], 'refused bad input holds; 20241301 is no ISO 8601 calendar date either way');
  r.add('GET', '/api/v2/conversations?CreatedFrom=2024-02-30', 200, list([]));
  r.add('GET', '/api/v1/conversations', 200, list([]), { credentials: 'wrong password' });
  r.add('POST', '/api/v2/dialog/101/create?response=true', 204, undefined);
  // A refusal the document lists is no success: a recording does not say the create was meant to succeed.
  r.add('POST', '/api/v2/dialog/999/create', 404, { title: 'Not Found' }, { body: { response: true } });
  assert.deepEqual(ids(r.out), [
    'contract.negative_data_rejection getV2Conversations 200 status',
    'contract.ignored_auth getV1Conversations 200 status',
    'contract.status_code_conformance postV2DialogCreate 204 status',
  ]);
});

test("what the sender held an answer to (the suite's recorder says) is what it is held to; a probe's status is an observation", () => {
  const r = recording();
  r.add('POST', '/api/vertex/v1/complete', 204, undefined, {
    body: { token: 'x' },
    expected: { status: 403, because: 'for an invalid token', section: '5.4' },
  });
  r.add('POST', `/api/v2/conversation/${U1}/send`, 413, { error: 'too long' }, { body: { text: 'x'.repeat(9) }, probing: 'a probe' });
  assert.deepEqual(ids(r.out), ['contract.status_code_conformance postVertexComplete 204 status']);
  const s = recording();
  s.add('POST', `/api/v2/conversation/${U1}/send`, 413, { error: 'too long' }, { body: { text: 'x'.repeat(9) } });
  assert.deepEqual(ids(s.out), ['contract.status_code_conformance postV2ConversationSend 413 status']);
});

test('a throttled answer is never judged', () => {
  const r = recording();
  r.add('GET', '/api/v2/conversations', 429, { error: 'slow down' });
  assert.deepEqual(ids(r.out), []);
  assert.equal(judgedBy(r.out, 'status_code_conformance'), 0);
});

test('V1 and V2 reads of one dialog: fields no write moves always agree; one a write may move only where V2 held it still', () => {
  const r = created();
  r.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1, { status: 'in-process' }));
  r.add('GET', '/api/v1/conversation/7001', 200, record(7001, { status: 'operator', name: '#7001 Berlin' }));
  assert.deepEqual(ids(r.out), [], 'status: only one V2 read, nothing shows it held still');
  r.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1, { status: 'in-process' }));
  assert.deepEqual(ids(r.out), ['contract.versions_agree getV1Conversation 200 /status']);
  const s = created();
  s.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1));
  s.add('POST', `/api/v2/conversation/${U1}/stop`, 204, undefined);
  s.add('GET', '/api/v1/conversation/7001', 200, record(7001, { location: 'Paris', name: '#7001 Paris' }));
  assert.ok(!ids(s.out).some((id) => id.startsWith('contract.versions_agree')), 'a write stands between them: not compared');
});

test('a record against its list item: name, ip, location and source always; status only where a list showed it held still', () => {
  const r = created();
  r.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]));
  r.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1, { ip: '198.51.100.9' }));
  assert.deepEqual(ids(r.out), ['contract.record_matches_list_item getV2Conversation 200 record vs list item /ip']);
});

test("a create's two ids whose reads are two dialogs fail at /dialogId only: V1 and V2 are not compared as one", () => {
  const r = created();
  r.add('GET', '/api/v1/conversation/7001', 200, record(7001, { name: '#7001 Oslo', location: 'Oslo', ip: '192.0.2.1' }));
  r.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1));
  // The lists tie 7001 to another UUID: that dialog's name, ip and location are 7001's.
  const oslo = { name: '#7001 Oslo', location: 'Oslo', ip: '192.0.2.1' };
  r.add('GET', '/api/v1/conversations', 200, list([dialog(7001, oslo)]));
  r.add('GET', '/api/v2/conversations', 200, list([dialog(U2, oslo)]));
  assert.deepEqual(ids(r.out), ['contract.created_dialog_identified postV2DialogCreate 200 /dialogId']);
});

test('a goto: the moved dialog reads by its UUID and lists under the target, not the source, once the lists caught up', () => {
  const goto = (r: ReturnType<typeof recording>) =>
    r.add('POST', `/api/v2/conversation/${U1}/command`, 204, undefined, { body: { command: 'goto', params: { botId: 202 } } });
  const lost = created();
  goto(lost);
  lost.add('GET', `/api/v2/conversation/${U1}`, 404, undefined);
  assert.deepEqual(ids(lost.out), ['contract.effect_of_goto postV2ConversationCommand 204 bot of the dialog afterwards']);
  const ignored = created();
  ignored.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]));
  goto(ignored);
  ignored.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1));
  ignored.add('GET', '/api/v2/conversations?BotID=202', 200, list([]), { at: 60 });
  ignored.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]), { at: 61 });
  assert.deepEqual(ids(ignored.out), ['contract.effect_of_goto postV2ConversationCommand 204 bot of the dialog afterwards']);
  const early = created();
  goto(early);
  early.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1));
  early.add('GET', '/api/v2/conversations?BotID=202', 200, list([]));
  assert.deepEqual(ids(early.out), [], 'a list read a second after, with no lag of the recording known, says nothing');
});

test('a list read while the lists trail a goto, or while it runs, says nothing of where the dialog went', () => {
  // Another worker's list of the source bot (its window holds U1 too) 150 ms after the goto, the lists not caught up.
  const window = 'BotID=101&CreatedFrom=2026-11-25T09:45:00Z';
  const trailing = created();
  trailing.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7002, dialogUUID: U2 }, { body: { response: true }, at: 2 });
  trailing.add('GET', `/api/v2/conversations?${window}`, 200, list([dialog(U1), dialog(U2, { name: '#7002 Berlin' })]), { at: 3 });
  trailing.add('POST', `/api/v2/conversation/${U1}/command`, 204, undefined, { body: { command: 'goto', bot: 202 }, at: 10 });
  trailing.add('GET', `/api/v2/conversations?${window}`, 200, list([dialog(U1), dialog(U2, { name: '#7002 Berlin' })]), { at: 10.15 });
  trailing.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1), { at: 10.2 });
  trailing.add('GET', '/api/v2/conversations?BotID=202&CreatedFrom=2026-11-25T09:45:00Z', 200, list([dialog(U1)]), { at: 11 });
  trailing.add('GET', `/api/v2/conversations?${window}`, 200, list([dialog(U2, { name: '#7002 Berlin' })]), { at: 12 });
  assert.deepEqual(ids(trailing.out), []);
  // A list of the source asked 5 ms into a goto of 40 ms; one of the target asked 5 ms before a goto and answered after.
  const during = created();
  during.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]), { at: 3 });
  during.add('POST', `/api/v2/conversation/${U1}/command`, 204, undefined, { body: { command: 'goto', bot: 202 }, at: 10, ms: 40 });
  during.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]), { at: 10.005 });
  during.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1), { at: 10.2 });
  during.add('GET', '/api/v2/conversations?BotID=202', 200, list([dialog(U1)]), { at: 11 });
  assert.deepEqual(ids(during.out), []);
  const before = created();
  before.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]), { at: 3 });
  before.add('GET', '/api/v2/conversations?BotID=202', 200, list([dialog(U1)]), { at: 9.995, ms: 60 });
  before.add('POST', `/api/v2/conversation/${U1}/command`, 204, undefined, { body: { command: 'goto', bot: 202 }, at: 10, ms: 30 });
  assert.deepEqual(ids(before.out), []);
  // Still under the source once a list of the target showed it moved: the lists had caught up, and the goto moved nothing there.
  trailing.add('GET', `/api/v2/conversations?${window}`, 200, list([dialog(U1), dialog(U2, { name: '#7002 Berlin' })]), { at: 13 });
  assert.deepEqual(ids(trailing.out), ['contract.effect_of_goto postV2ConversationCommand 204 bot of the dialog afterwards']);
});

/** U1 and U2 created on bot 101, U1 moved to bot 202 by a goto whose body names it as `bot`, both read after. */
const movedBeside = (bot: number | string) => {
  const r = created();
  r.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7002, dialogUUID: U2 }, { body: { response: true } });
  r.add('POST', `/api/v2/conversation/${U1}/command`, 204, undefined, { body: { command: 'goto', bot } });
  for (const uuid of [U1, U2]) r.add('GET', `/api/v2/conversation/${uuid}`, 200, record(uuid, { name: uuid === U1 ? '#7001 Berlin' : '#7002 Berlin' }));
  return r;
};
const afterMove = (exchanges: ExchangeEvidence[]) => ids(exchanges).filter((id) => id.includes('after a move'));

test('a trigger on a moved dialog is taken where the same trigger is taken on a dialog in the same state never moved', () => {
  const r = movedBeside(202);
  r.add('POST', `/api/v2/conversation/${U2}/stop`, 204, undefined);
  r.add('POST', `/api/v2/conversation/${U1}/stop`, 404, undefined);
  assert.ok(ids(r.out).includes('contract.effect_of_stop postV2ConversationStop 404 answer after a move to another bot'));
  // The same goto refused on the moved dialog, its bot id given as a text.
  const s = movedBeside('202');
  s.add('POST', `/api/v2/conversation/${U2}/command`, 204, undefined, { body: { command: 'goto', bot: '202' } });
  s.add('POST', `/api/v2/conversation/${U1}/command`, 403, undefined, { body: { command: 'goto', bot: '202' } });
  assert.deepEqual(afterMove(s.out), ['contract.effect_of_goto postV2ConversationCommand 403 answer after a move to another bot']);
});

test('a write the suite sent to be refused, or with other values, is not the same trigger as one taken on a dialog never moved', () => {
  const r = movedBeside(202);
  // Taken on a dialog never moved; on the moved one, a bot id that is no bot, sent to be refused, one of the wrong
  // kind, another command (the suite's lenience: not sent to be refused, its answer the vendor's choice), and a body
  // that is no JSON.
  r.add('POST', `/api/v2/conversation/${U2}/command`, 204, undefined, { body: { command: 'goto', bot: 202 } });
  r.add('POST', `/api/v2/conversation/${U1}/command`, 404, undefined, { body: { command: 'goto', bot: -1 }, expected: { status: [400, 404] } });
  r.add('POST', `/api/v2/conversation/${U1}/command`, 400, undefined, { body: { command: 'goto', bot: 'no-such-bot' } });
  r.add('POST', `/api/v2/conversation/${U1}/command`, 400, undefined, { body: { command: 'no-such-command', bot: 202 } });
  r.add('POST', `/api/v2/conversation/${U1}/command`, 400, undefined, { body: '{"command":"goto",' });
  assert.deepEqual(afterMove(r.out), []);
  // A vendor whose bot ids are texts: a word in its place is another goto than one to a bot.
  const s = movedBeside('202');
  s.add('POST', `/api/v2/conversation/${U2}/command`, 204, undefined, { body: { command: 'goto', bot: '202' } });
  s.add('POST', `/api/v2/conversation/${U1}/command`, 400, undefined, { body: { command: 'goto', bot: 'no-such-bot' } });
  assert.deepEqual(afterMove(s.out), []);
});

test('filters against the lists read after a create: BotID, the Created window, UpdatedFrom against the items, a window after tomorrow', () => {
  const r = created();
  r.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]));
  r.add('GET', '/api/v2/conversations?BotID=202', 200, list([dialog(U1)]));
  r.add('GET', '/api/v2/conversations?CreatedFrom=2026-11-20T00:00:00Z&CreatedTo=2026-11-21T00:00:00Z', 200, list([dialog(U1)]));
  r.add('GET', '/api/v2/conversations?UpdatedFrom=2026-11-25T12:00:00Z', 200, list([dialog(U1)]));
  r.add('GET', '/api/v2/conversations?UpdatedFrom=2026-12-30T00:00:00Z', 200, list([dialog(U1)]));
  assert.deepEqual(ids(r.out), [
    'contract.filter_conformance getV2Conversations 200 filter UpdatedFrom',
    'contract.filter_conformance getV2Conversations 200 filter UpdatedFrom/UpdatedTo (outside)',
    'contract.filter_conformance getV2Conversations 200 filter BotID',
    'contract.filter_conformance getV2Conversations 200 filter CreatedFrom/CreatedTo',
  ]);
});

test('a dialog a create made is listed once the lists caught up: one list holding every match, read long after, without it fails', () => {
  const r = created();
  r.add('GET', '/api/v2/conversations?BotID=101', 200, list([]));
  assert.deepEqual(ids(r.out), [], 'read a second after: the list may trail the write');
  r.add('GET', '/api/v2/conversations?BotID=101', 200, list([]), { at: 30 });
  assert.deepEqual(ids(r.out), ['contract.created_dialog_identified getV2Conversations 200 /*/id (new dialog listed)']);
});

test('variables passed in one place show where those of another show, once its dialog was read as long after its create', () => {
  const r = recording();
  r.add(
    'POST',
    `/api/v2/dialog/101/create?variables=${encodeURIComponent('{"name":"Ada-Q"}')}`,
    200,
    { dialogId: 7001, dialogUUID: U1 },
    { body: { response: true } },
  );
  r.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7002, dialogUUID: U2 }, { body: { response: true, variables: '{"name":"Ada-B"}' } });
  r.add('GET', `/api/v2/conversation/${U1}`, 200, { ...record(U1), data: [{ question: 'name', type: 'Text', answer: 'Ada-Q', variable: 'name' }] });
  r.add('GET', `/api/v2/conversation/${U2}`, 200, { ...record(U2, { name: '#7002 Berlin' }), data: [] });
  assert.deepEqual(ids(r.out), ['contract.effect_of_create postV2DialogCreate 200 variables in the JSON body alone']);
});

test("a GET create's variables are held to the other GET create's, never to POST's: its dialog is not started", () => {
  const query = (name: string) => `variables=${encodeURIComponent(JSON.stringify({ client_name: name }))}`;
  const shown = (uuid: string, name: string, status = 'in-process') => ({
    ...record(uuid, { name: '#7002 Berlin', status }),
    data: [{ question: 'client_name', type: 'Text', answer: name, variable: 'client_name' }],
  });
  // A vendor that shows variables once a dialog starts: a V1 GET create's dialog shows none, a POST create's do.
  const r = recording();
  r.add('GET', `/api/v1/dialog/101/create?${query('Ada Lovelace')}`, 200, { dialogId: U1 });
  r.add('GET', `/api/v2/conversation/${U1}`, 200, { ...record(U1, { status: 'new' }), data: [] });
  r.add(
    'POST',
    '/api/v2/dialog/101/create',
    200,
    { dialogId: 7002, dialogUUID: U2 },
    { body: { response: true, variables: JSON.stringify({ client_name: 'Grace Hopper' }) } },
  );
  r.add('GET', `/api/v2/conversation/${U2}`, 200, shown(U2, 'Grace Hopper'));
  assert.deepEqual(ids(r.out), []);
  // The V2 GET create's dialog, not started either, shows them: the V1 one's are held to it.
  r.add('GET', `/api/v2/dialog/101/create?${query('Alan Turing')}`, 200, { dialogUUID: U3 }, { dialog: U3 });
  r.add('GET', `/api/v2/conversation/${U3}`, 200, shown(U3, 'Alan Turing', 'new'));
  r.add('GET', `/api/v2/conversation/${U1}`, 200, { ...record(U1, { status: 'new' }), data: [] });
  assert.deepEqual(ids(r.out), ['contract.effect_of_create getV1DialogCreate 200 variables in the query']);
});

test('a walk of pages a start, a stop or a message stood between is no walk: the order of a list is not stated', () => {
  // A vendor that lists by updated, newest first: a stop between two pages moves U3 up and U2 onto page 2.
  const query = '/api/v2/conversations?BotID=101&CreatedFrom=2026-11-25T09:45:00Z&PageCount=2';
  const [a, b] = [dialog(U1), dialog(U2, { name: '#7002 Berlin' })];
  const page = (items: object[], n: number) => list(items, 3, 2, n);
  const walk = (between: boolean) => {
    const r = recording();
    r.add('GET', `${query}&PageNumber=1`, 200, page([a, b], 1), { at: 100 });
    if (between) r.add('POST', `/api/v2/conversation/${U3}/stop`, 204, undefined, { at: 100.1 });
    r.add('GET', `${query}&PageNumber=2`, 200, page([b], 2), { at: 100.2 });
    return ids(r.out).filter((id) => id.startsWith('contract.pagination_conformance'));
  };
  assert.deepEqual(walk(true), []);
  // With nothing between them, the same pages overlap: the walk is judged, and fails.
  assert.ok(walk(false).length > 0, 'pages that repeat a dialog with no write between them fail');
});

test('every feeder judges only the checks it declares, each a check of the registry', () => {
  const names = new Set(BUILT_IN.map((c) => c.name));
  const r = created();
  r.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1));
  r.add('GET', '/api/v1/conversation/7001', 200, record(7001));
  r.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]));
  const timeline = new Timeline(r.out);
  for (const feeder of FEEDERS) {
    for (const check of feeder.checks) assert.ok(names.has(check), `${feeder.evidence}: ${check} is no check of the registry`);
    for (const j of feeder.feed(timeline, { validators, settleMs: 10_000 }))
      assert.ok((feeder.checks as readonly string[]).includes(j.check.name), `${feeder.evidence} judged ${j.check.name}, which it does not declare`);
  }
});

test("a dialog's data holds no value only another was given, unless it was sent that text itself", () => {
  const r = recording();
  const long = 'x'.repeat(64);
  r.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7001, dialogUUID: U1 }, { body: { response: true, variables: JSON.stringify({ size: long }) } });
  r.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7002, dialogUUID: U2 }, { body: { response: true } });
  r.add('POST', `/api/v2/conversation/${U2}/send`, 204, undefined, { body: { message: long } });
  r.add('GET', `/api/v2/conversation/${U2}`, 200, { ...record(U2, { name: '#7002 Berlin' }), data: [{ question: '', type: 'Text', answer: long }] });
  assert.ok(!ids(r.out).includes('contract.meaning_conformance getV2Conversation 200 /data'), 'two probes sent texts alike: its own, whatever its field');
  const s = recording();
  s.add(
    'POST',
    '/api/v2/dialog/101/create',
    200,
    { dialogId: 7001, dialogUUID: U1 },
    { body: { response: true, variables: JSON.stringify({ name: 'Ada-Q-77' }) } },
  );
  s.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7002, dialogUUID: U2 }, { body: { response: true } });
  s.add('GET', `/api/v2/conversation/${U2}`, 200, { ...record(U2, { name: '#7002 Berlin' }), data: [{ question: 'name', type: 'Text', answer: ' Ada-Q-77' }] });
  assert.ok(ids(s.out).includes('contract.meaning_conformance getV2Conversation 200 /data'), "another dialog's value, stored trimmed");
});

test('a list item read soon after a write to its dialog may show the state before it: its moving fields are not held against the record', () => {
  const walk = (afterStop: number) => {
    const r = recording();
    r.add('POST', '/api/v2/dialog/101/create', 200, { dialogId: 7001, dialogUUID: U1 }, { body: { response: true }, at: 1 });
    // The recording's lists show a create half a second after it: how long they may trail a write.
    r.add('GET', '/api/v2/conversations?BotID=101', 200, list([dialog(U1)]), { at: 1.5 });
    r.add('POST', `/api/v2/conversation/${U1}/stop`, 204, undefined, { at: 2 });
    const stale = () => list([dialog(U1, { status: 'in-process' })]);
    r.add('GET', '/api/v2/conversations?BotID=101', 200, stale(), { at: 2 + afterStop });
    r.add('GET', `/api/v2/conversation/${U1}`, 200, record(U1, { status: 'operator' }), { at: 2.1 + afterStop });
    r.add('GET', '/api/v2/conversations?BotID=101', 200, stale(), { at: 2.2 + afterStop });
    return ids(r.out);
  };
  assert.ok(!walk(0.05).includes('contract.record_matches_list_item getV2Conversation 200 record vs list item /status'), 'lists trail the stop');
  assert.ok(walk(30).includes('contract.record_matches_list_item getV2Conversation 200 record vs list item /status'), 'long after it: held to the record');
});
