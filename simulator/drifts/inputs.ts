// Breaking drifts of the input space: a vendor that refuses or crashes on a class of valid input (astral characters,
// non-ASCII names, fractions of a second, 64-bit ids), accepts a class of invalid input (days a month does not have),
// or loses part of a text it keeps (accents stripped, read in the wrong encoding: what no store that keeps a text
// whole does, unlike normalizing or trimming it). No fixed input of the suite reaches them; its generated inputs do
// (contract/probes/generated-inputs.spec.ts), each with the smallest input that fails.
import { editBody, LIST_IDS, RECORD_IDS, rewriteQuery, type Drift } from './types.ts';
import type { Exchange, Reply } from '../exchange.ts';
import { daysInMonth } from '../../lib/calendar.ts';
import { jsonOrUndefined } from '../../lib/json.ts';

const CREATE_IDS = ['getV1DialogCreate', 'getV2DialogCreate', 'postV2DialogCreate'] as const;
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
const NOT_ASCII = /[^\x20-\x7e]/;
const FILTERS = ['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo'];

/** Every object key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

/** Every string of a JSON value, at any depth. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsOf);
}

/** The variables a create passed, parsed: from its JSON body, else its query. */
function variablesOf(ex: Exchange): unknown {
  const body = jsonOrUndefined(ex.body.toString('utf8')) as { variables?: unknown } | undefined;
  const text = typeof body?.variables === 'string' ? body.variables : ex.query.get('variables');
  return text === null ? undefined : jsonOrUndefined(text);
}

/** Replaces a successful answer of the operations by an error, when the request is one the vendor trips on. */
function failOn(operationIds: readonly string[], status: number, detail: string, trips: (ex: Exchange) => boolean) {
  return (ex: Exchange, reply: Reply): Reply =>
    reply.status < 300 && operationIds.includes(ex.operationId ?? '') && trips(ex) ? { status, headers: reply.headers, problem: { detail } } : reply;
}

/** UTF-8 bytes read as Latin-1: what a column of the wrong encoding shows of a text. */
const mojibake = (text: string): string => String.fromCharCode(...Buffer.from(text, 'utf8'));

export const INPUT_DRIFTS: Drift[] = [
  {
    name: 'send-text-astral-refused',
    kind: 'breaking',
    clause: '§4.2 send carries the message text to send: any text, characters outside the Basic Multilingual Plane too',
    description: 'send refuses (400) a text with a character outside the BMP (an emoji, a CJK extension): a utf8mb3 column',
    breaks: [{ operations: ['postV2ConversationSend'], at: ['status'] }],
    transformResponse: failOn(['postV2ConversationSend'], 400, 'Incorrect string value for column text', (ex) =>
      stringsOf(jsonOrUndefined(ex.body.toString('utf8'))).some((s) => ASTRAL.test(s)),
    ),
  },
  {
    name: 'send-text-accents-stripped',
    kind: 'breaking',
    clause: '§4.2 send carries the message text to send; §2.2 data: the text shows with no character lost',
    description: 'operator messages show in the data with their accents and other combining marks stripped (é as e): a search-folding store',
    breaks: [{ operations: ['postV2ConversationSend'], at: ['text of the message afterwards'] }],
    config: { send: { dataItem: { question: '', type: 'Operator' } } },
    change: (ex, _dialog, change) => {
      const item = change.message?.item;
      if (ex.operationId !== 'postV2ConversationSend' || !item) return change;
      const folded = item.answer.normalize('NFD').replace(/\p{M}/gu, '');
      return { ...change, message: { ...change.message!, item: { ...item, answer: folded } } };
    },
  },
  {
    name: 'variables-non-ascii-key-crash',
    kind: 'breaking',
    clause: '§4.1, §4.2 variables: a JSON object serialized as a string, its keys any JSON string',
    description: 'every create answers 500 to variables with a key outside ASCII (a customer name in Cyrillic as a variable name)',
    breaks: [{ operations: CREATE_IDS, at: ['status'] }],
    transformResponse: failOn(CREATE_IDS, 500, 'internal error', (ex) => keysOf(variablesOf(ex)).some((k) => NOT_ASCII.test(k))),
  },
  {
    name: 'variables-mojibake',
    kind: 'breaking',
    clause: '§4.1, §4.2 variables: values passed into the dialog; §2.2 data: they show as they were passed',
    description: "a dialog's data shows the text of its variables read in the wrong encoding: UTF-8 bytes as Latin-1",
    breaks: [{ operations: CREATE_IDS, at: ['variables afterwards'] }],
    transformResponse: editBody(RECORD_IDS, (body) => {
      for (const item of Array.isArray(body.data) ? (body.data as Array<{ answer?: unknown; variable?: unknown }>) : []) {
        if (typeof item.variable === 'string' && typeof item.answer === 'string') item.answer = mojibake(item.answer);
      }
    }),
  },
  {
    name: 'filter-fraction-refused',
    kind: 'breaking',
    clause: '§4.1 CreatedFrom, CreatedTo, UpdatedFrom, UpdatedTo: ISO 8601, a time with a fraction of a second too',
    description: 'a time filter with a fraction of a second (10:00:00.250Z, as other systems write it) is refused (400)',
    breaks: [{ operations: LIST_IDS, at: ['status'] }],
    beforeRequest: rewriteQuery(FILTERS, (v) => (/T\d{2}:\d{2}:\d{2}\.\d/.test(v) ? `${v}T` : v)),
  },
  {
    name: 'filter-impossible-date-rolled',
    kind: 'breaking',
    clause: '§4.1 time filters are ISO 8601 dates; §7 400 "A parameter has the wrong format"',
    description: 'a filter on a day its month does not have (2024-02-30, 2023-04-31) is rolled over to the next month, not refused',
    breaks: [{ operations: LIST_IDS, at: ['status'] }],
    beforeRequest: rewriteQuery(FILTERS, (v) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(v);
      if (!m) return v;
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (month < 1 || month > 12 || day > 31) return v;
      const last = daysInMonth(year, month);
      if (day <= last) return v;
      const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
      return `${next}-${String(day - last).padStart(2, '0')}${m[4]}`;
    }),
  },
  {
    name: 'bot-filter-32-bit-crash',
    kind: 'breaking',
    clause: '§4.1 BotID: an integer (no range is given); §7 lists no 5xx',
    description: 'the lists answer 500 to a BotID filter outside 32 bits (an int column overflows)',
    breaks: [{ operations: LIST_IDS, at: ['status'] }],
    transformResponse: failOn(LIST_IDS, 500, 'integer out of range', (ex) => {
      const bot = Number(ex.query.get('BotID') ?? 0);
      return Number.isInteger(bot) && (bot > 2 ** 31 - 1 || bot < -(2 ** 31));
    }),
  },
  {
    name: 'complete-data-key-crash',
    kind: 'breaking',
    clause: '§4.3 complete: data is any JSON value, its object keys any JSON string',
    description: 'complete answers 500 to data holding an object key outside ASCII, at any depth',
    breaks: [{ operations: ['postVertexComplete'], at: ['status'] }],
    transformResponse: failOn(['postVertexComplete'], 500, 'internal error', (ex) => {
      const body = jsonOrUndefined(ex.body.toString('utf8')) as { data?: unknown } | undefined;
      return keysOf(body?.data).some((k) => NOT_ASCII.test(k));
    }),
  },
];
