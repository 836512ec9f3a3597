// Each check of the project proven alone: evidence that holds and evidence that breaks it, made by hand from the
// spec's own words and samples. checks/checks.test.ts judges every example in milliseconds, with no suite run; the
// type below requires examples of every check, and the meaning audit's test (scripts/meaning-audit.test.ts) reads
// which checks have them. The document's validators are handed in (the response checks judge with them).
import type { ContractValidators } from '../openapi/validators.ts';
import type { CheckName, InputOf } from './registry.ts';
import type { ReadPage } from './pagination.ts';

/** Evidence of one check: what holds, and what breaks it. */
export interface Examples<I> {
  holds: readonly I[];
  breaks: readonly I[];
}

export type CheckExamples = { [N in CheckName]: Examples<InputOf<N>> };

const UUID = '0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41';
const item = { id: 1042, name: '1042 Berlin', status: 'completed', ip: '203.0.113.7', location: 'Berlin', updated: '2024-05-14T09:31:00+00:00', duration: 95 };
const v2Item = { ...item, id: UUID, source: 'web' };
const envelope = (items: readonly object[], pagination: Partial<Record<string, unknown>> = {}) =>
  JSON.stringify({
    ...Object.fromEntries(items.map((it, i) => [String(i), it])),
    meta: { pagination: { total: items.length, count: items.length, per_page: 40, current_page: 1, total_pages: 1, links: {}, ...pagination } },
  });
const json = (body: string) => ({ status: 200, contentType: 'application/json', body });
const page = (items: number, pagination: Partial<ReadPage['pagination']>, asked: ReadPage['asked']): ReadPage => ({
  items,
  pagination: { total: items, count: items, per_page: 40, current_page: 1, total_pages: 1, links: {}, ...pagination },
  asked,
});
const T0 = Date.UTC(2026, 10, 25, 10, 0, 0);
/** A goto every list and the read show done. */
const moved = { read: 200, v2: { underTarget: true, underSource: false, listedBefore: true }, v1: { underTarget: true } };
const bytes = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

export function checkExamples(validators: ContractValidators): CheckExamples {
  const answer = (
    operationId: 'getV2Conversations' | 'getV2Conversation' | 'postV2ConversationStop',
    a: { status: number; contentType: string | null; body: string },
    expectation = {},
  ) => ({
    validators,
    operationId,
    answer: a,
    expectation,
  });
  const run = (missing: readonly string[]) => ({ title: '[run end] the run', missing });
  return {
    not_a_server_error: {
      holds: [answer('getV2Conversations', json(envelope([v2Item])))],
      breaks: [answer('getV2Conversations', { status: 502, contentType: 'text/html', body: '' })],
    },
    status_code_conformance: {
      holds: [answer('getV2Conversation', { status: 404, contentType: null, body: '' }, { status: 404 })],
      breaks: [
        answer('getV2Conversation', { status: 200, contentType: 'application/json', body: JSON.stringify({ ...v2Item, data: [] }) }, { status: 404 }),
        answer('getV2Conversations', { status: 418, contentType: null, body: '' }),
      ],
    },
    content_type_conformance: {
      holds: [answer('getV2Conversations', json(envelope([v2Item])))],
      breaks: [answer('getV2Conversations', { status: 200, contentType: 'text/html; charset=utf-8', body: envelope([v2Item]) })],
    },
    response_schema_conformance: {
      holds: [answer('getV2Conversations', json(envelope([v2Item]))), answer('postV2ConversationStop', { status: 204, contentType: null, body: '' })],
      breaks: [
        answer('getV2Conversations', json(envelope([{ ...v2Item, duration: '95' }]))),
        answer('postV2ConversationStop', { status: 204, contentType: null, body: '{}' }),
      ],
    },
    ignored_auth: {
      holds: [answer('getV2Conversations', { status: 401, contentType: null, body: '' }, { status: 401, check: 'ignored_auth' })],
      breaks: [answer('getV2Conversations', json(envelope([v2Item])), { status: 401, check: 'ignored_auth' })],
    },
    negative_data_rejection: {
      holds: [answer('getV2Conversations', { status: 400, contentType: null, body: '' }, { status: [400], check: 'negative_data_rejection' })],
      breaks: [answer('getV2Conversations', json(envelope([v2Item])), { status: [400], check: 'negative_data_rejection' })],
    },
    'pagination_conformance.item_keys': { holds: [{ keys: ['0', '1', 'meta'] }], breaks: [{ keys: ['1', '2', 'meta'] }] },
    'pagination_conformance.page_size': {
      holds: [
        { items: 3, PageCount: 3 },
        { items: 50, PageCount: undefined },
      ],
      breaks: [{ items: 4, PageCount: 3 }],
    },
    'pagination_conformance.page_numbers': {
      holds: [page(3, { per_page: 3, current_page: 2 }, { PageCount: 3, PageNumber: 2 }), page(2, { per_page: 2 }, { PageCount: 5 })],
      breaks: [page(3, { count: 40 }, { PageCount: 3 }), page(3, { per_page: 40, current_page: 1 }, { PageCount: 3, PageNumber: 2 })],
    },
    'pagination_conformance.pages_disjoint': {
      holds: [
        {
          pages: [
            { number: 1, ids: ['a', 'b'] },
            { number: 2, ids: ['c'] },
          ],
          PageCount: 2,
        },
      ],
      breaks: [
        {
          pages: [
            { number: 1, ids: ['a', 'b'] },
            { number: 2, ids: ['b', 'c'] },
          ],
          PageCount: 2,
        },
      ],
    },
    'pagination_conformance.walk_totals': {
      holds: [
        {
          pages: [
            { ...page(2, { total: 3, total_pages: 2, per_page: 2 }, { PageCount: 2, PageNumber: 1 }), ids: ['a', 'b'] },
            { ...page(1, { total: 3, total_pages: 2, per_page: 2, count: 1 }, { PageCount: 2, PageNumber: 2 }), ids: ['c'] },
          ],
        },
      ],
      breaks: [
        {
          pages: [
            { ...page(2, { total: 5, total_pages: 3, per_page: 2 }, { PageCount: 2, PageNumber: 1 }), ids: ['a', 'b'] },
            { ...page(1, { total: 5, total_pages: 3, per_page: 2, count: 1 }, { PageCount: 2, PageNumber: 2 }), ids: ['c'] },
          ],
        },
      ],
    },
    'pagination_conformance.last_page': {
      holds: [
        { claimed: page(40, { total: 170, total_pages: 5 }, {}).pagination, last: page(10, {}, { PageNumber: 5 }), after: page(0, {}, { PageNumber: 6 }) },
      ],
      breaks: [
        { claimed: page(40, { total: 170, total_pages: 4 }, {}).pagination, last: page(40, {}, { PageNumber: 4 }), after: page(10, {}, { PageNumber: 5 }) },
      ],
    },
    'filter_conformance.bot_totals': {
      holds: [{ own: 3, other: 2, unfiltered: 9, bots: [101, 202] }],
      breaks: [{ own: 9, other: 2, unfiltered: 9, bots: [101, 202] }],
    },
    'filter_conformance.bot_id': {
      holds: [{ ownBot: true, otherBot: false }],
      breaks: [
        { ownBot: true, otherBot: true },
        { ownBot: false, otherBot: false },
      ],
    },
    'filter_conformance.created_window': {
      holds: [
        { window: { CreatedFrom: '2026-11-25T09:00:00Z' }, inside: true, listed: true },
        { window: { CreatedTo: '2026-11-25T09:00:00Z' }, inside: false, listed: false },
      ],
      breaks: [{ window: { CreatedFrom: '2026-11-25T14:00:00+05:00' }, inside: true, listed: false }],
    },
    'filter_conformance.updated_outside': {
      holds: [{ window: { UpdatedTo: '2000-01-01' }, why: 'nothing was updated before 2000', listed: 0 }],
      breaks: [{ window: { UpdatedTo: '2000-01-01' }, why: 'nothing was updated before 2000', listed: 3 }],
    },
    'filter_conformance.updated_monotone': { holds: [{ totals: [9, 4, 4] }], breaks: [{ totals: [4, 9, 9] }] },
    'filter_conformance.updated_after_last_message': {
      holds: [{ dialog: 1042, lastMessage: item.updated, from: '2024-05-14T09:32:00+00:00', listed: false }],
      breaks: [{ dialog: 1042, lastMessage: item.updated, from: '2024-05-14T09:32:00+00:00', listed: true }],
    },
    'meaning_conformance.ip': {
      holds: [
        { dialog: item, in: 'list item' },
        { dialog: { ...item, ip: '::1' }, in: 'record' },
        { dialog: { ...item, ip: 'unknown' }, in: 'record' },
      ],
      breaks: [
        { dialog: { ...item, ip: 'Berlin' }, in: 'list item' },
        { dialog: { ...item, ip: '10.0.0.1, 10.0.0.2' }, in: 'record' },
      ],
    },
    'meaning_conformance.location': {
      holds: [
        { dialog: item, in: 'list item' },
        { dialog: { ...item, location: '' }, in: 'record' },
      ],
      breaks: [{ dialog: { ...item, location: '203.0.113.7' }, in: 'record' }],
    },
    'meaning_conformance.duration': {
      holds: [
        { dialog: item, in: 'list item' },
        { dialog: { ...item, duration: 2 }, in: 'record', ageMs: 1500 },
      ],
      breaks: [
        { dialog: { ...item, duration: -1 }, in: 'list item' },
        { dialog: { ...item, duration: 2000 }, in: 'record', ageMs: 1500 },
      ],
    },
    'meaning_conformance.listed_updated': {
      holds: [
        { id: 1, updated: item.updated, readMs: T0 },
        { id: 2, updated: '', readMs: T0 },
        { id: 3, updated: '0001-01-01T00:00:00', readMs: T0 },
      ],
      breaks: [
        { id: 1, updated: '2027-05-14T09:31:00Z', readMs: T0 },
        { id: 1, updated: 'yesterday', readMs: T0 },
      ],
    },
    'meaning_conformance.updated': {
      holds: [
        { updated: '2026-11-25T10:00:05Z', window: { createdMs: T0 - 2000, readMs: T0 + 10_000 } },
        { updated: '', window: { createdMs: T0, readMs: T0 } },
      ],
      breaks: [
        { updated: '2026-11-25T09:00:05Z', window: { createdMs: T0 - 2000, readMs: T0 + 10_000 } },
        { updated: '2026-11-25T10:00:03Z', window: { createdMs: T0 - 2000, readMs: T0 + 10_000 }, before: '2026-11-25T10:00:05Z' },
      ],
    },
    'meaning_conformance.data': {
      holds: [{ dialog: UUID, answers: ['Anna'], othersGiven: ['Boris'] }],
      breaks: [{ dialog: UUID, answers: ['Anna', 'Boris'], othersGiven: ['Boris'] }],
    },
    'meaning_conformance.message_id': { holds: [{ messageId: 78, earlier: [77] }], breaks: [{ messageId: 77, earlier: [77] }] },
    sent_at_conformance: {
      holds: [{ createdAt: T0 / 1000 + 1, sent: { fromMs: T0, toMs: T0 + 200 } }],
      breaks: [
        { createdAt: T0 + 1000, sent: { fromMs: T0, toMs: T0 + 200 } },
        { createdAt: T0 / 1000 + 3600, sent: { fromMs: T0, toMs: T0 + 200 } },
        { createdAt: 'now', sent: { fromMs: T0, toMs: T0 } },
      ],
    },
    record_matches_list_item: {
      holds: [{ fields: ['id', 'updated', 'status'], dialog: 1042, a: item, b: { ...item, updated: '2024-05-14T09:31:00Z' } }],
      breaks: [{ fields: ['id', 'updated', 'status'], dialog: 1042, a: item, b: { ...item, updated: '2024-05-14T08:00:00Z' } }],
    },
    versions_agree: {
      holds: [{ fields: ['status', 'updated'], dialog: `1042 / ${UUID}`, a: item, b: { ...v2Item, updated: '' } }],
      breaks: [{ fields: ['status', 'updated'], dialog: `1042 / ${UUID}`, a: { ...item, status: 'created' }, b: v2Item }],
    },
    'versions_agree.same_dialogs': { holds: [{ pairs: 3, v1Items: 3, v2Items: 3 }], breaks: [{ pairs: 0, v1Items: 3, v2Items: 3 }] },
    created_dialog_identified: {
      holds: [{ field: 'dialogUUID', dialog: UUID, answeredBefore: false }],
      breaks: [
        { field: 'dialogUUID', dialog: UUID, answeredBefore: true },
        { field: 'dialogId', dialog: undefined, answeredBefore: false },
      ],
    },
    'created_dialog_identified.listed': { holds: [{ listed: true }], breaks: [{ listed: false }] },
    'created_dialog_identified.one_dialog': {
      holds: [{ byId: item, byUuid: v2Item }],
      breaks: [
        { byId: item, byUuid: { ...v2Item, name: '977 Paris' } },
        { byId: undefined, byUuid: v2Item },
      ],
    },
    'created_dialog_identified.not_with_response_false': {
      holds: [
        { sent: { query: 'false', body: undefined }, answer: '' },
        { sent: { query: undefined, body: false }, answer: '{}' },
        { sent: { query: false, body: false }, answer: '{"status":"started"}' },
        // Not asked for false in every place it was given (which place wins is not stated), or asked for true: not judged.
        { sent: { query: 'true', body: false }, answer: `{"dialogId":1042,"dialogUUID":"${UUID}"}` },
        { sent: { query: undefined, body: undefined }, answer: `{"dialogId":1042,"dialogUUID":"${UUID}"}` },
      ],
      breaks: [
        { sent: { query: undefined, body: false }, answer: `{"dialogId":1042,"dialogUUID":"${UUID}"}` },
        { sent: { query: 'false', body: undefined }, answer: `{"data":{"dialogUUID":"${UUID}"}}` },
      ],
    },
    name_conformance: {
      holds: [{ name: '1042 Berlin', location: 'Berlin' }],
      breaks: [
        { name: '#1042', location: 'Berlin' },
        { name: 'Berlin', location: 'Berlin' },
      ],
    },
    'name_conformance.own_number': {
      holds: [{ names: ['1042 Berlin', '1043 Berlin', '1044 Paris'] }],
      breaks: [{ names: ['#101 Berlin', '#101 Berlin', '1044 Paris'] }],
    },
    effect_of_create: { holds: [{ after: 'created' }], breaks: [{ after: 'in-process' }, { after: undefined }] },
    'effect_of_create.same_in_both_versions': { holds: [{ v1Create: 'new', v2Create: 'new' }], breaks: [{ v1Create: 'new', v2Create: 'in-process' }] },
    'effect_of_create.post_starts': { holds: [{ notStarted: 'new', started: 'in-process' }], breaks: [{ notStarted: 'new', started: 'new' }] },
    'effect_of_create.not_operator': {
      holds: [{ created: 'new', operator: 'operator', started: false }],
      breaks: [{ created: 'operator', operator: 'operator', started: true }],
    },
    'effect_of_start.after_move': {
      holds: [
        { notMoved: 204, moved: 204 },
        { notMoved: 403, moved: 204 },
        { notMoved: 403, moved: 403 },
      ],
      breaks: [{ notMoved: 204, moved: 404 }],
    },
    'effect_of_create.variables': {
      holds: [
        { place: 'in the JSON body alone', operation: 'postV2DialogCreate', shown: true, shownThrough: ['in the query alone'] },
        // Shown through no place: how a dialog carries variables is not stated.
        { place: 'in the query', operation: 'getV2DialogCreate', shown: false, shownThrough: [] },
      ],
      breaks: [
        { place: 'in the JSON body alone', operation: 'postV2DialogCreate', shown: false, shownThrough: ['in the query alone', 'in both, agreeing'] },
        { place: 'in the query', operation: 'getV2DialogCreate', shown: false, shownThrough: ['through GET /v1/dialog/{BotID}/create'] },
      ],
    },
    effect_of_start: {
      holds: [
        { answered: 204, after: 'in-process' },
        { answered: 403, after: 'completed' },
      ],
      breaks: [
        { answered: 204, after: 'operator' },
        { answered: 403, after: 'in-process' },
      ],
    },
    'effect_of_stop.after_move': { holds: [{ notMoved: 204, moved: 204 }], breaks: [{ notMoved: 204, moved: 403 }] },
    effect_of_stop: {
      holds: [
        { from: 'in process', before: 'in-process', after: 'operator' },
        { from: 'operator', before: 'operator', after: 'operator' },
      ],
      breaks: [
        { from: 'created, not started', before: 'new', after: 'new' },
        { from: 'in process', before: 'in-process', after: 'in-process' },
      ],
    },
    effect_of_goto: {
      holds: [
        moved,
        // What no lookup found is not judged: the read by its UUID still is.
        { read: 200, v2: { underTarget: false, underSource: false, listedBefore: false }, v1: { noTwin: 'no V1 item like it' } },
      ],
      breaks: [
        { ...moved, v1: { underTarget: false } },
        { ...moved, v2: { underTarget: false, underSource: true, listedBefore: true } },
        // Lost by the move: listed before it and nowhere after, or no longer read by its own UUID.
        { ...moved, v2: { underTarget: false, underSource: false, listedBefore: true } },
        { read: 404, v2: { underTarget: false, underSource: false, listedBefore: false }, v1: { noTwin: 'no V1 item like it' } },
      ],
    },
    'effect_of_goto.after_move': {
      holds: [
        { notMoved: 200, moved: 201 },
        { notMoved: 404, moved: 404 },
      ],
      breaks: [{ notMoved: 200, moved: 404 }],
    },
    effect_of_send: {
      holds: [{ at: 'updated of the dialog afterwards', item: 'whether it moves', observed: 'a later time', before: 'a later time', baseline: 'staging' }],
      breaks: [{ at: 'updated of the dialog afterwards', item: 'whether it moves', observed: 'the time before', before: 'a later time', baseline: 'staging' }],
    },
    'effect_of_send.after_move': { holds: [{ notMoved: 204, moved: 204 }], breaks: [{ notMoved: 204, moved: 404 }] },
    'effect_of_send.text_as_sent': {
      holds: [
        { plainShown: true, text: 'שלום e\u0301 🙂', answers: ['plain', 'שלום e\u0301 🙂'] },
        // A store that normalizes to NFC, trims, keeps CRLF as LF and escapes markup loses nothing.
        { plainShown: true, text: ' e\u0301 <b>\r\n🙂 ', answers: ['\u00e9 &lt;b&gt;\n🙂'] },
        // A vendor that shows no plain text either: how it carries messages is not said.
        { plainShown: false, text: 'שלום', answers: [] },
      ],
      breaks: [
        { plainShown: true, text: 'e\u0301 🙂', answers: ['plain', '\u00e9 '] },
        { plainShown: true, text: 'e\u0301 🙂', answers: ['plain', 'e\u0301 ?'] },
      ],
    },
    'effect_of_create.variables_as_passed': {
      holds: [
        { plain: { shown: true, named: true }, variables: { имя: 'Ольга 👩‍💻', n: 3 }, data: [{ answer: 'Ольга 👩‍💻', variable: 'имя' }] },
        { plain: { shown: true, named: true }, variables: { Имя: ' Ольга\r\n' }, data: [{ answer: 'Ольга', variable: 'имя' }] },
        { plain: { shown: false, named: false }, variables: { имя: 'Ольга' }, data: [] },
      ],
      breaks: [
        { plain: { shown: true, named: true }, variables: { имя: 'Ольга' }, data: [{ answer: 'Ð\u009eÐ»Ñ\u008cÐ³Ð°', variable: 'имя' }] },
        { plain: { shown: true, named: true }, variables: { имя: 'Ольга' }, data: [{ answer: 'Ольга', variable: 'Ð¸Ð¼Ñ' }] },
      ],
    },
    file_content: { holds: [{ bytes: 12 }], breaks: [{ bytes: 0 }] },
    'file_content.same_file': {
      holds: [{ fileId: 7, first: bytes('%PDF-1.4 a'), again: bytes('%PDF-1.4 a') }],
      breaks: [{ fileId: 7, first: bytes('%PDF-1.4 a'), again: bytes('%PDF-1.4 a1') }],
    },
    complete_body: { holds: [{ whole: true, reason: '' }], breaks: [{ whole: false, reason: 'socket hang up' }] },
    custom_block_call: {
      holds: [{ called: true, tokenLike: true, bot: 303, waitedSeconds: 10 }],
      breaks: [
        { called: false, bot: 303, waitedSeconds: 10 },
        { called: true, tokenLike: false, bot: 303, waitedSeconds: 10 },
      ],
    },
    // A test that failed without naming a contract failure holds nothing: test_passes is only ever judged on one.
    test_passes: { holds: [], breaks: [{ test: '[api] v2/create.spec.ts › creates', error: 'TypeError: x is undefined' }] },
    unknowns_observed: { holds: [run([])], breaks: [run(['status.operator (spec §3: exact status string of the operator state)'])] },
    pairs_exercised: { holds: [run([])], breaks: [run(['GET /v2/file/{fileId} 200'])] },
    transitions_walked: { holds: [run([])], breaks: [run(['operator × command'])] },
    variants_exercised: { holds: [run([])], breaks: [run(['POST /v2/dialog/{BotID}/create response in the JSON body alone, false'])] },
    body_shape_established: { holds: [run([])], breaks: [run(['no send body shape verified'])] },
  };
}
