// Feeders of one exchange: every answer against the document; a request without credentials or with a wrong password
// (the suite's recording names which) against §5.2; a request whose parameter or required body breaks the format the
// document gives it against §7's statuses for bad input; what §2 says of a list page, its items and a record; a POST
// create asked for no identifiers; the time a message was sent; a file's bytes; and the time filters against the
// times a list's own items carry. A request that probes what the spec leaves unsaid (the suite's recording marks it)
// is not held to §7's statuses: what it meant is an observation. Pure.
import type { ContractValidators } from '../openapi/validators.ts';
import { resolvePointer, type SchemaObject } from '../openapi/document.ts';
import { jsonOf, type ExchangeEvidence } from './evidence.ts';
import { defineFeeder, type Judged } from './feeder.ts';
import { LISTS, listItems, RECORDS } from './timeline.ts';
import * as dialogs from './dialogs.ts';
import * as filters from './filters.ts';
import * as meanings from './meanings.ts';
import * as pagination from './pagination.ts';
import * as response from './response.ts';
import * as transport from './transport.ts';

export const num = (value: string | undefined) => (value !== undefined && /^-?\d+$/.test(value) ? Number(value) : undefined);
export const safeJson = (text: string | undefined): unknown => {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A zone-less time names a wall-clock time somewhere within ±14 h of UTC (§4.1: "time and time zone may be added"). */
const ZONES = 14 * HOUR;

const ranges = new Map<string, { earliest: number; latest: number } | undefined>();

/** The instants an ISO 8601 filter bound may name: one when it names its zone; a zone-less or date-only one a span. */
export function instantRange(iso: string): { earliest: number; latest: number } | undefined {
  if (!ranges.has(iso)) ranges.set(iso, readRange(iso));
  return ranges.get(iso);
}

function readRange(iso: string): { earliest: number; latest: number } | undefined {
  const ms = meanings.wallClockMs(iso);
  if (Number.isNaN(ms)) return undefined;
  if (meanings.hasZone(iso)) return { earliest: ms, latest: ms };
  // A date alone may mean its day's start or its end: which, is the vendor's reading.
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(iso.trim());
  return { earliest: ms - ZONES, latest: ms + ZONES + (dateOnly ? DAY : 0) };
}

/** The vendor's clock when the answer came: its Date header, else the recorder's, a second of rounding either way. */
export const answeredAt = (e: ExchangeEvidence) => {
  const date = Date.parse(e.response.headers.date ?? '');
  return Number.isNaN(date) ? { fromMs: e.startedMs, toMs: e.endedMs } : { fromMs: date - 1000, toMs: date + 1000 };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An ISO 8601 date or time in any form the standard allows (calendar, week, ordinal; basic or extended; reduced). */
const ISO_8601 = /^(\d{4}(-?\d{2}(-?\d{2})?|-?W\d{2}(-?\d)?|-?\d{3})([T ]\d{2}(:?\d{2}(:?\d{2}([.,]\d+)?)?)?([.,]\d+)?(Z|[+-]\d{2}(:?\d{2})?)?)?)$/i;

/** Whether an extended calendar date names a day that is none (month 13, 30 February, hour 25). */
function impossibleDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((p) => (p === undefined ? undefined : Number(p))) as number[];
  const days = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return month! < 1 || month! > 12 || day! < 1 || day! > days || hour > 24 || minute > 59 || second > 60;
}

/**
 * Whether a parameter's value breaks the format the document gives it, certainly: not an integer where it says
 * integer, not a UUID where it says uuid, no ISO 8601 date where it says a date or time (the classes the suite's own
 * bad input is made of, contract/shared/negative-tests.ts). An empty value, or a schema whose wrong form is not
 * certain, breaks nothing.
 */
export function breaksFormat(schema: SchemaObject, value: string): boolean {
  if (value === '') return false;
  // Every form the schema allows (its anyOf's, else its own) is a date or a time: a value that is none breaks it.
  const formats = ((schema.anyOf as SchemaObject[] | undefined) ?? [schema]).map((s) => s.format);
  if (schema.type === 'integer') return !/^[+-]?\d+$/.test(value);
  if (schema.format === 'uuid') return !UUID.test(value);
  if (formats.every((f) => f === 'date' || f === 'date-time' || f === 'iso-date-time')) return !ISO_8601.test(value.trim()) || impossibleDate(value.trim());
  return false;
}

/** What of a request breaks the document's formats: its parameters, a required JSON body missing or not JSON. */
export function badInput(validators: ContractValidators, e: ExchangeEvidence): string[] {
  const op = validators.operation(e.operationId!);
  const out: string[] = [];
  for (const parameter of op.parameters) {
    const raw = parameter.in === 'path' ? e.pathParams[parameter.name] : parameter.in === 'query' ? e.query[parameter.name] : undefined;
    if (raw === undefined) continue;
    const given = (parameter.schema ?? {}) as SchemaObject;
    const schema = typeof given.$ref === 'string' ? (resolvePointer(validators.doc, given.$ref) as SchemaObject) : given;
    if (breaksFormat(schema, raw)) out.push(`${parameter.name}=${raw}`);
  }
  const body = op.requestBody;
  if (body?.required && Object.keys(body.content ?? {}).some((type) => type.includes('json'))) {
    if (!e.request.body) out.push('no body');
    else if (safeJson(e.request.body) === undefined && !e.request.body.includes('[REDACTED]')) out.push('a body that is no JSON');
  }
  return out;
}

/**
 * What an answer's status is held to: what its sender expected where the recorder knew it (the suite's test); else §5.2
 * for a request sent without credentials or with a wrong one, §7 for bad input, §4.2 for a POST create asked for its
 * identifiers; else any status the document lists. A probe's status is none of these: an observation.
 */
function statusOf(validators: ContractValidators, e: ExchangeEvidence): response.StatusExpectation | undefined {
  if (e.expected) return e.expected;
  if (e.probing) return undefined;
  const bad = badInput(validators, e);
  const credentials = e.request.credentials;
  const badStatuses = validators.statusesFor(e.operationId!, 'bad-input');
  if (credentials === 'none' || credentials === 'wrong password') {
    // Which is checked first, the credentials or the input, is not shown: with both wrong either refusal holds.
    const status = bad.length ? [401, ...badStatuses, 403] : 401;
    return {
      status,
      because: `for a request ${credentials === 'none' ? 'without Authorization' : 'with a wrong password'}`,
      section: '5.2',
      check: 'ignored_auth',
    };
  }
  // A 403 may come first where the instance or dialog has a problem (§5.3): validation order is not shown.
  if (bad.length && badStatuses.length)
    return { status: [...badStatuses, 403], because: `for bad input ${bad.join(', ')}`, section: '7', check: 'negative_data_rejection' };
  // "Response 200 when response is true" (§4.2), asked in every place that gives it: a success is that 200, never
  // another 2xx. A refusal the document lists still may come (an unknown bot, a value the recorder's client got wrong
  // on purpose): a recording does not say which create was meant to succeed.
  if (e.operationId === 'postV2DialogCreate' && responseTrue(e)) {
    const refusals = validators
      .documentedStatuses(e.operationId)
      .filter((s) => /^\d+$/.test(s) && !s.startsWith('2'))
      .map(Number);
    return { status: [200, ...refusals], because: 'for a POST create with response true', section: '4.2' };
  }
  return {};
}

/** Whether a POST create gave `response` true in every place it gave it (the query, the JSON body), and in one at least. */
export function responseTrue(e: ExchangeEvidence): boolean {
  const given = [e.query.response, (safeJson(e.request.body) as { response?: unknown } | null | undefined)?.response].filter((v) => v !== undefined);
  return given.length > 0 && given.every((v) => v === true || v === 'true');
}

const RESPONSE_CHECKS = [response.notAServerError, response.statusCodeConformance, response.contentTypeConformance, response.responseSchemaConformance];
const STATUS_CHECK = { ignored_auth: response.ignoredAuth, negative_data_rejection: response.negativeDataRejection } as const;

export const oneAnswer = defineFeeder({
  evidence: 'one exchange: its answer against the document, with what its request was (credentials, bad input, a probe)',
  checks: [
    'not_a_server_error',
    'status_code_conformance',
    'content_type_conformance',
    'response_schema_conformance',
    'ignored_auth',
    'negative_data_rejection',
  ],
  feed: (timeline, { validators }) =>
    timeline.exchanges.flatMap((e): Judged[] => {
      const answer = {
        status: e.response.status,
        contentType: e.response.contentType,
        contentLength: e.response.headers['content-length'] ?? null,
        body: e.response.body,
      };
      const expectation = statusOf(validators, e);
      const input = { validators, operationId: e.operationId!, answer, expectation: expectation ?? {} };
      // A probe's status is an observation: its body is judged only where the document describes its status. A request
      // wrong on purpose names its own status check.
      const named = expectation?.check === 'ignored_auth' || expectation?.check === 'negative_data_rejection' ? STATUS_CHECK[expectation.check] : undefined;
      const checks = RESPONSE_CHECKS.filter((c) => c !== response.statusCodeConformance || (expectation !== undefined && !named));
      const status = named;
      return [...checks, ...(status ? [status] : [])].map((check) => ({ check, findings: check.judge(input), at: e }));
    }),
});

/** A POST create asked for no identifiers, whatever it answered (§4.2 response false). */
export const createWithoutIds = defineFeeder({
  evidence: 'one exchange: a POST create and what it was asked to answer',
  checks: ['created_dialog_identified.not_with_response_false'],
  feed: (timeline) =>
    timeline.exchanges.flatMap((e): Judged[] => {
      if (e.operationId !== 'postV2DialogCreate') return [];
      const sent = { query: e.query.response, body: (safeJson(e.request.body) as { response?: unknown } | null | undefined)?.response };
      return dialogs.responseFalse(sent)
        ? [{ check: dialogs.noIdsWithResponseFalse, findings: dialogs.noIdsWithResponseFalse.judge({ sent, answer: e.response.body }), at: e }]
        : [];
    }),
});

/** A list page: its keys, its size and numbers against what was asked, and what §2.1 says of each item. */
export const listPage = defineFeeder({
  evidence: 'one exchange: a list page, its envelope and its items',
  checks: [
    'pagination_conformance.item_keys',
    'pagination_conformance.page_size',
    'pagination_conformance.page_numbers',
    'meaning_conformance.ip',
    'meaning_conformance.location',
    'meaning_conformance.duration',
    'meaning_conformance.listed_updated',
  ],
  feed: (timeline) =>
    timeline.exchanges.flatMap((e): Judged[] => {
      const body = jsonOf(e);
      if (!LISTS.includes(e.operationId!) || e.response.status !== 200 || !body || typeof body !== 'object' || Array.isArray(body)) return [];
      const out: Judged[] = [];
      const page = pagination.readEnvelope(body as Record<string, unknown>);
      const PageCount = num(e.query.PageCount);
      if (page.pagination) {
        out.push({ check: pagination.itemKeys, findings: pagination.itemKeys.judge({ keys: Object.keys(body) }), at: e });
        out.push({ check: pagination.pageSizeKept, findings: pagination.pageSizeKept.judge({ items: page.items.length, PageCount }), at: e });
        // A PageNumber below 1 is not described (§4.1: which number the first page has is not shown): not held.
        const PageNumber = num(e.query.PageNumber);
        const asked = { PageCount, PageNumber: PageNumber !== undefined && PageNumber >= 1 ? PageNumber : undefined };
        out.push({
          check: pagination.pageNumbers,
          findings: pagination.pageNumbers.judge({ items: page.items.length, pagination: page.pagination, asked }),
          at: e,
        });
      }
      for (const item of listItems(e)) {
        for (const check of [meanings.ipMeaning, meanings.locationMeaning, meanings.durationMeaning])
          out.push({ check, findings: check.judge({ dialog: item, in: 'list item' }), at: e });
        if (typeof item.updated === 'string')
          out.push({ check: meanings.listedUpdated, findings: meanings.listedUpdated.judge({ id: item.id, updated: item.updated, readMs: e.endedMs }), at: e });
      }
      return out;
    }),
});

/** A record: what §2.1 says of its ip, location and name. */
export const recordRead = defineFeeder({
  evidence: 'one exchange: a record',
  checks: ['meaning_conformance.ip', 'meaning_conformance.location', 'name_conformance'],
  feed: (timeline) =>
    timeline.exchanges.flatMap((e): Judged[] => {
      const record = jsonOf(e) as Record<string, unknown> | undefined;
      if (!RECORDS.includes(e.operationId!) || e.response.status !== 200 || !record || typeof record !== 'object') return [];
      const out: Judged[] = [meanings.ipMeaning, meanings.locationMeaning].map((check) => ({
        check,
        findings: check.judge({ dialog: record, in: 'record' }),
        at: e,
      }));
      if (typeof record.name === 'string' && typeof record.location === 'string' && record.location !== '')
        out.push({ check: dialogs.nameNumberAndCity, findings: dialogs.nameNumberAndCity.judge({ name: record.name, location: record.location }), at: e });
      return out;
    }),
});

/** A custom block's message: its created_at against the answer's own time; a file's bytes. */
export const sentAndDownloaded = defineFeeder({
  evidence: 'one exchange: a message a custom block sent, a file downloaded',
  checks: ['sent_at_conformance', 'file_content'],
  feed: (timeline) =>
    timeline.exchanges.flatMap((e): Judged[] => {
      if (e.response.status !== 200) return [];
      if (e.operationId === 'postVertexSendMessage') {
        const createdAt = (jsonOf(e) as { created_at?: unknown } | undefined)?.created_at;
        return [{ check: meanings.sentAt, findings: meanings.sentAt.judge({ createdAt, sent: answeredAt(e) }), at: e }];
      }
      if (e.operationId === 'getV1File')
        return [{ check: transport.fileBytes, findings: transport.fileBytes.judge({ bytes: e.response.bytes.length }), at: e }];
      return [];
    }),
});

/**
 * The time filters of one list against the list's own items. `updated` is the time of a dialog's last message, no
 * earlier than its respondent's last (§2.1, §4.1): an item whose `updated` is before UpdatedFrom, whatever zone either
 * names, had no message of its respondent since, so it is not listed. A window that lies a day or more after the
 * answer, or wholly before 2000, holds no dialog's last message.
 */
export const timeFilters = defineFeeder({
  evidence: 'one exchange: a list filtered by UpdatedFrom/UpdatedTo and the updated its items carry',
  checks: ['filter_conformance.updated_after_last_message', 'filter_conformance.updated_outside'],
  feed: (timeline) =>
    timeline.exchanges.flatMap((e): Judged[] => {
      if (e.probing || !LISTS.includes(e.operationId!) || e.response.status !== 200) return [];
      const { UpdatedFrom: from, UpdatedTo: to } = e.query;
      const items = listItems(e);
      const out: Judged[] = [];
      const fromRange = from === undefined ? undefined : instantRange(from);
      const toRange = to === undefined ? undefined : instantRange(to);
      if (fromRange) {
        for (const item of items) {
          const updated = typeof item.updated === 'string' && item.updated !== '' ? instantRange(item.updated) : undefined;
          if (!updated || updated.latest >= fromRange.earliest) continue;
          out.push({
            check: filters.updatedAfterLast,
            findings: filters.updatedAfterLast.judge({ dialog: (item.id ?? null) as never, lastMessage: String(item.updated), from: from!, listed: true }),
            at: e,
          });
        }
      }
      const window = Object.fromEntries(Object.entries({ UpdatedFrom: from, UpdatedTo: to }).filter(([, v]) => v !== undefined)) as Record<string, string>;
      const after = fromRange && fromRange.earliest > answeredAt(e).toMs + DAY;
      const before = toRange && toRange.latest < Date.UTC(2000, 0, 1);
      if (after || before) {
        const why = after ? 'the window starts a day or more after the answer' : 'the window ends before 2000';
        out.push({ check: filters.updatedOutside, findings: filters.updatedOutside.judge({ window, why, listed: items.length }), at: e });
      }
      return out;
    }),
});
