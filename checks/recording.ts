// Recorded traffic judged by the checks (`npm run judge -- FILE.har`): a plain HAR 1.2 log from any client (a
// browser's DevTools, a recording proxy, the vendor's reproduction) read as exchanges, and every check that can judge
// from what a recording holds applied to it. One exchange: the response checks, the meanings of a list page and a
// record, no identifiers answered to a create with response false, the time a message was sent, a file's bytes. Stateful, as far as the recording holds it: the reads of one
// dialog over time (its updated never moves back; with its create recorded, its updated and duration within its
// life), a write followed by a read of its dialog (start, stop, a GET create), the pages of one query read with no
// write between them, and series (creates, the messages of one integration token, downloads of one file). A check the
// recording cannot feed is listed as not judged, with why. The recording's credentials never leave it: requests are
// kept without their headers, bodies with secret fields redacted, and every credential and token the log carries is
// returned for the reports to be cleaned of. Pure.
import { redactBody, redactIn } from '../http/redact.ts';
import type { FailureExchange, RecordedFailure } from '../lib/failure.ts';
import { failureId } from '../lib/failure.ts';
import type { ContractValidators } from '../openapi/validators.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { failuresOf, type AnyCheck, type CheckRegistry, type Finding } from './check.ts';
import { jsonOf, operationOf, queryOf, type ExchangeEvidence } from './evidence.ts';
import * as dialogs from './dialogs.ts';
import * as effects from './effects.ts';
import * as meanings from './meanings.ts';
import * as pagination from './pagination.ts';
import * as response from './response.ts';
import * as transport from './transport.ts';
import { BUILT_IN, type CheckName } from './registry.ts';

/** The part of a HAR 1.2 log the judge reads: nothing a recorder of ours would add. */
export interface HarLog {
  log: { entries: HarEntry[] };
}

interface HarEntry {
  startedDateTime: string;
  time?: number;
  request: {
    method: string;
    url: string;
    headers?: Array<{ name: string; value: string }>;
    postData?: { mimeType?: string; text?: string; encoding?: string };
  };
  response: { status: number; headers?: Array<{ name: string; value: string }>; content?: { mimeType?: string; text?: string; encoding?: string } };
}

/** The checks of a trigger on a moved dialog need its twin: the same trigger on a dialog in the same state not moved. */
const AFTER_MOVE_WHY = 'the same trigger on a dialog in the same state that was not moved is sent beside it by the suite on purpose';

/** Why a recording cannot feed a check of the project: what the suite knows when it sends and a recording does not. */
export const NOT_FROM_RECORDINGS: Partial<Record<CheckName, string>> = {
  negative_data_rejection: 'a recording does not say which request was wrong on purpose',
  'effect_of_send.text_as_sent': 'whether a plain text the run sent shows in the data is the run’s own control',
  'effect_of_create.variables_as_passed': 'whether a plain variable the run passed shows in the data is the run’s own control',
  'pagination_conformance.last_page': 'the page total_pages names and the one after it are read only by a walk the suite makes',
  'filter_conformance.bot_totals': 'the totals of two bots against the unfiltered total are asked for by the suite on purpose',
  'filter_conformance.bot_id': 'which bot a dialog was created on, and the vendor clock the windows are sent in, are the run’s',
  'filter_conformance.created_window': 'the window sent around a dialog’s creation in the vendor’s clock is the run’s',
  'filter_conformance.updated_outside': 'which windows hold nothing is known only of the windows the suite sends',
  'filter_conformance.updated_monotone': 'the suite moves one UpdatedFrom later on purpose',
  'filter_conformance.updated_after_last_message': 'the suite sends UpdatedFrom after a dialog’s last message on purpose',
  'meaning_conformance.data': 'the variables each dialog was given at its creation are the run’s',
  record_matches_list_item: 'a record and its list item read apart in time cannot tell a move from a drift (the suite reads both again)',
  versions_agree: 'V1 and V2 read apart in time cannot tell a move from a drift, and which V1 id is which UUID is the run’s',
  'versions_agree.same_dialogs': 'which V1 list answers which V2 list is the run’s',
  'created_dialog_identified.listed': 'whether a list read after a create should show it depends on windows and lags the run knows',
  'created_dialog_identified.one_dialog': 'the two reads of one create’s dialogId and dialogUUID are made by the suite on purpose',
  'name_conformance.own_number': 'which dialogs were created side by side is the run’s',
  'effect_of_create.same_in_both_versions': 'a V1 and a V2 GET create compared are made by the suite side by side',
  'effect_of_create.post_starts': 'the status of a dialog not started is known only from the suite’s own GET create',
  'effect_of_create.not_operator': 'the operator state’s status is known only from the suite’s own stop',
  'effect_of_create.variables':
    'it compares creates through each documented place, each with variables of its own, read again while one shows them and another not yet: the suite makes them side by side',
  effect_of_goto: 'where a moved dialog is listed, by V1 and V2, is read by the suite on purpose',
  'effect_of_start.after_move': AFTER_MOVE_WHY,
  'effect_of_stop.after_move': AFTER_MOVE_WHY,
  'effect_of_send.after_move': AFTER_MOVE_WHY,
  'effect_of_goto.after_move': AFTER_MOVE_WHY,
  effect_of_send: 'held to a baseline (--contract-from), not to the spec',
  complete_body: 'a recording holds the answers that came whole',
  custom_block_call: "the custom block's call to its URL is not in a recording of the API",
  test_passes: 'a check of the suite’s own tests',
  unknowns_observed: 'a check of the suite’s whole run',
  pairs_exercised: 'a check of the suite’s whole run',
  transitions_walked: 'a check of the suite’s whole run',
  variants_exercised: 'a check of the suite’s whole run',
  body_shape_established: 'a check of the suite’s whole run',
};

/** The evidence kinds a team's checks are handed from a recording: each exchange, and the whole recording. */
const TEAM_KINDS_JUDGED = new Set(['exchange', 'run']);

/** The Basic credentials ("Basic …", and the password inside) and the integration tokens a recording carries. */
export function recordedSecrets(har: HarLog): string[] {
  const out = new Set<string>();
  for (const e of har.log.entries) {
    for (const h of e.request.headers ?? []) {
      const m = /^(basic|bearer)\s+(\S+)/i.exec(h.value);
      if (!/^(authorization|proxy-authorization)$/i.test(h.name) || !m) continue;
      out.add(m[2]!);
      const decoded = m[1]!.toLowerCase() === 'basic' ? decodeBase64Text(m[2]!) : undefined;
      if (decoded?.includes(':')) out.add(decoded.slice(decoded.indexOf(':') + 1));
    }
    const body = e.request.postData?.text;
    if (body) for (const token of tokensIn(safeJson(body))) out.add(token);
  }
  return [...out].filter((s) => s.length >= 4);
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Every value of a field named like a secret in a JSON value. */
function tokensIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(tokensIn);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (/token|password|secret/i.test(k) && typeof v === 'string' ? [v] : tokensIn(v)));
}

/** Base64 to bytes, forgiving as a recorder's text may be: what is no base64 is left out, a dangling sixth is dropped. */
function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  return Uint8Array.from(atob(clean.slice(0, clean.length - (clean.length % 4 === 1 ? 1 : 0))), (c) => c.charCodeAt(0));
}

const decodeBase64Text = (text: string) => new TextDecoder().decode(decodeBase64(text));
const encodeText = (text: string) => new TextEncoder().encode(text);

const header = (headers: HarEntry['response']['headers'], name: string) => headers?.find((h) => h.name.toLowerCase() === name)?.value ?? null;

/** A recording's entries as exchanges of the document's operations (an entry of another address is left out). */
export function recordedExchanges(har: HarLog, validators: ContractValidators): ExchangeEvidence[] {
  const operations = [...validators.operations.values()];
  return har.log.entries.flatMap((e): ExchangeEvidence[] => {
    const url = /^[a-z]+:\/\/[^/]+(\/.*)?$/i.exec(e.request.url)?.[1] ?? e.request.url;
    const path = url.slice(Math.max(0, url.indexOf('/api/')));
    const found = operationOf(operations, e.request.method, path);
    if (!found) return [];
    const op = validators.operation(found.operationId);
    const content = e.response.content ?? {};
    const bytes = content.encoding === 'base64' ? decodeBase64(content.text ?? '') : encodeText(content.text ?? '');
    const startedMs = Date.parse(e.startedDateTime);
    const authorization = header(e.request.headers, 'authorization');
    const body = e.request.postData?.text;
    return [
      {
        operationId: found.operationId,
        method: e.request.method.toUpperCase(),
        path,
        query: queryOf(path),
        pathParams: found.pathParams,
        request: {
          credentials: !op.needsBasicAuth ? 'a token' : authorization === null ? 'none' : 'configured',
          contentType: e.request.postData?.mimeType || header(e.request.headers, 'content-type'),
          body: body === undefined ? undefined : redactBody(body),
        },
        response: {
          status: e.response.status,
          headers: Object.fromEntries(
            (e.response.headers ?? []).filter((h) => !/^(set-cookie|authorization)$/i.test(h.name)).map((h) => [h.name.toLowerCase(), h.value]),
          ),
          contentType: header(e.response.headers, 'content-type') ?? (content.mimeType || null),
          body: content.encoding === 'base64' ? new TextDecoder().decode(bytes) : (content.text ?? ''),
          bytes,
        },
        startedMs,
        endedMs: startedMs + Math.max(0, e.time ?? 0),
      },
    ];
  });
}

/** An exchange as a failure quotes it: the request without its headers, the answer clipped. */
export function failureExchange(e: ExchangeEvidence, maxBody = 600): FailureExchange {
  const credentials = e.request.credentials === 'a token' ? 'none' : e.request.credentials;
  return {
    request: {
      method: e.method,
      path: e.path,
      credentials,
      ...(e.request.contentType ? { contentType: e.request.contentType } : {}),
      ...(e.request.body ? { body: e.request.body } : {}),
    },
    response: { status: e.response.status, contentType: e.response.contentType, body: e.response.body.slice(0, maxBody), bodyLength: e.response.body.length },
  };
}

/** A check judged on a recording: its findings at the exchange they are about, and the others that show them. */
export interface Judged {
  check: AnyCheck;
  findings: Finding[];
  at: ExchangeEvidence;
  shownBy?: readonly ExchangeEvidence[];
}

const LISTS: readonly OperationId[] = ['getV1Conversations', 'getV2Conversations'];
const RECORDS: readonly OperationId[] = ['getV1Conversation', 'getV2Conversation'];
const WRITES: readonly OperationId[] = [
  'getV1DialogCreate',
  'getV2DialogCreate',
  'postV2DialogCreate',
  'postV2ConversationStart',
  'postV2ConversationStop',
  'postV2ConversationSend',
  'postV2ConversationCommand',
];
const items = (e: ExchangeEvidence) =>
  Object.entries((jsonOf(e) ?? {}) as Record<string, unknown>)
    .filter(([key]) => key !== 'meta')
    .map(([, item]) => item as Record<string, unknown>);
const num = (value: string | undefined) => (value !== undefined && /^-?\d+$/.test(value) ? Number(value) : undefined);
/** A dialog a read names: its path parameter, as a record's id names it. */
const dialogOf = (e: ExchangeEvidence) => (e.pathParams.uuid ?? e.pathParams.id ?? '').toLowerCase();

/** Every answer against the document (any status it lists: what the request meant is not recorded) and ignored credentials. */
function oneExchange(exchanges: readonly ExchangeEvidence[], validators: ContractValidators): Judged[] {
  const out: Judged[] = [];
  for (const e of exchanges) {
    const answer = {
      status: e.response.status,
      contentType: e.response.contentType,
      contentLength: e.response.headers['content-length'] ?? null,
      body: e.response.body,
    };
    const input = { validators, operationId: e.operationId!, answer, expectation: {} };
    for (const check of [response.notAServerError, response.statusCodeConformance, response.contentTypeConformance, response.responseSchemaConformance]) {
      out.push({ check, findings: check.judge(input), at: e });
    }
    if (e.request.credentials === 'none') {
      const findings = response.ignoredAuth.judge({ ...input, expectation: { status: 401, because: 'for a request without Authorization', section: '5.2' } });
      out.push({ check: response.ignoredAuth, findings, at: e });
    }
    // A POST create asked for no identifiers, whatever it answered (§4.2 response false).
    if (e.operationId === 'postV2DialogCreate') {
      const sent = { query: e.query.response, body: (safeJson(e.request.body ?? '') as { response?: unknown } | null | undefined)?.response };
      if (dialogs.responseFalse(sent))
        out.push({ check: dialogs.noIdsWithResponseFalse, findings: dialogs.noIdsWithResponseFalse.judge({ sent, answer: e.response.body }), at: e });
    }
    if (e.response.status !== 200) continue;
    const body = jsonOf(e);
    if (LISTS.includes(e.operationId!) && body && typeof body === 'object' && !Array.isArray(body)) {
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
      for (const item of items(e)) {
        for (const check of [meanings.ipMeaning, meanings.locationMeaning, meanings.durationMeaning])
          out.push({ check, findings: check.judge({ dialog: item, in: 'list item' }), at: e });
        if (typeof item.updated === 'string')
          out.push({ check: meanings.listedUpdated, findings: meanings.listedUpdated.judge({ id: item.id, updated: item.updated, readMs: e.endedMs }), at: e });
      }
    }
    if (RECORDS.includes(e.operationId!) && body && typeof body === 'object') {
      const record = body as Record<string, unknown>;
      for (const check of [meanings.ipMeaning, meanings.locationMeaning]) out.push({ check, findings: check.judge({ dialog: record, in: 'record' }), at: e });
      if (typeof record.name === 'string' && typeof record.location === 'string' && record.location !== '')
        out.push({ check: dialogs.nameNumberAndCity, findings: dialogs.nameNumberAndCity.judge({ name: record.name, location: record.location }), at: e });
    }
    if (e.operationId === 'postVertexSendMessage') {
      // The vendor's clock: its Date header, else the recorder's (a second of its rounding either way).
      const date = Date.parse(e.response.headers.date ?? '');
      const sent = Number.isNaN(date) ? { fromMs: e.startedMs, toMs: e.endedMs } : { fromMs: date - 1000, toMs: date + 1000 };
      out.push({
        check: meanings.sentAt,
        findings: meanings.sentAt.judge({ createdAt: (body as { created_at?: unknown } | undefined)?.created_at, sent }),
        at: e,
      });
    }
    if (e.operationId === 'getV1File') out.push({ check: transport.fileBytes, findings: transport.fileBytes.judge({ bytes: e.response.bytes.length }), at: e });
  }
  return out;
}

/** The dialog each create's answer names: dialogUUID of POST, the UUID of a V1 create's dialogId. */
const createdDialog = (e: ExchangeEvidence): string | undefined => {
  const body = jsonOf(e) as { dialogUUID?: unknown; dialogId?: unknown } | undefined;
  const id = e.operationId === 'postV2DialogCreate' ? body?.dialogUUID : e.operationId === 'getV1DialogCreate' ? body?.dialogId : undefined;
  return typeof id === 'string' ? id.toLowerCase() : undefined;
};

/** The reads of one dialog over time, its create when recorded, and the writes and reads after each other. */
function stateful(exchanges: readonly ExchangeEvidence[]): Judged[] {
  const out: Judged[] = [];
  const created = new Map<string, ExchangeEvidence>();
  // Creates: each names a new dialog.
  for (const e of exchanges.filter((x) => (x.operationId === 'postV2DialogCreate' || x.operationId === 'getV1DialogCreate') && x.response.status === 200)) {
    const dialog = createdDialog(e);
    const field = e.operationId === 'getV1DialogCreate' ? 'dialogId' : 'dialogUUID';
    out.push({
      check: dialogs.createdNewId,
      findings: dialogs.createdNewId.judge({ field, dialog, answeredBefore: dialog !== undefined && created.has(dialog) }),
      at: e,
      ...(dialog && created.has(dialog) ? { shownBy: [created.get(dialog)!] } : {}),
    });
    if (dialog && !created.has(dialog)) created.set(dialog, e);
  }
  // The reads of each dialog by its UUID, in order; the write before a read, when one was made on it.
  const seen = new Map<string, string>();
  const statusBefore = new Map<string, string>();
  const lastWrite = new Map<string, ExchangeEvidence>();
  for (const e of exchanges) {
    const dialog = dialogOf(e);
    if (e.operationId && WRITES.includes(e.operationId) && dialog) lastWrite.set(dialog, e);
    const createdAs = createdDialog(e);
    if (createdAs && e.operationId === 'getV1DialogCreate') lastWrite.set(createdAs, e);
    if (e.operationId !== 'getV2Conversation' || e.response.status !== 200) continue;
    const record = jsonOf(e) as Record<string, unknown> | undefined;
    if (!record || typeof record.updated !== 'string') continue;
    const was = statusBefore.get(dialog);
    if (typeof record.status === 'string') statusBefore.set(dialog, record.status);
    const create = created.get(dialog);
    // In the vendor's clock a quarter of an hour either way (as an unverified clock is read), or, without the
    // create, any time up to a day after the read: what holds still is that updated never moves back.
    const window = create
      ? { createdMs: create.startedMs - 15 * 60_000, readMs: e.endedMs + 15 * 60_000 }
      : { createdMs: Date.UTC(2000, 0, 1), readMs: e.endedMs + 86_400_000 };
    const before = seen.get(dialog);
    out.push({
      check: meanings.updatedInLife,
      findings: meanings.updatedInLife.judge({ updated: record.updated, window, ...(before ? { before } : {}) }),
      at: e,
    });
    if (create)
      out.push({
        check: meanings.durationMeaning,
        findings: meanings.durationMeaning.judge({ dialog: record, in: 'record', ageMs: e.endedMs - create.startedMs }),
        at: e,
        shownBy: [create],
      });
    if (meanings.updatedKind(record.updated, window, before) === 'between the creation and the read') seen.set(dialog, record.updated);
    // The first read after a write on the dialog shows its effect.
    const write = lastWrite.get(dialog);
    if (!write) continue;
    lastWrite.delete(dialog);
    const after = typeof record.status === 'string' ? record.status : undefined;
    if (write.operationId === 'postV2ConversationStart' && write.response.status === 204)
      out.push({ check: effects.startResumes, findings: effects.startResumes.judge({ answered: 204, after }), at: write, shownBy: [e] });
    if (write.operationId === 'getV1DialogCreate')
      out.push({ check: effects.createNotStarted, findings: effects.createNotStarted.judge({ after }), at: write, shownBy: [e] });
    // From in process a stop must change the status; from a state the recording cannot name, it is not judged.
    if (write.operationId === 'postV2ConversationStop' && write.response.status === 204 && was === 'in-process')
      out.push({
        check: effects.stopConnectsOperator,
        findings: effects.stopConnectsOperator.judge({ from: 'in process', before: was, after }),
        at: write,
        shownBy: [e],
      });
  }
  return out;
}

/** The pages of one query read with no write between them, and the series of one kind. */
function walksAndSeries(exchanges: readonly ExchangeEvidence[]): Judged[] {
  const out: Judged[] = [];
  const walks = new Map<string, ExchangeEvidence[]>();
  let writes = 0;
  for (const e of exchanges) {
    if (e.operationId && WRITES.includes(e.operationId)) writes++;
    if (!LISTS.includes(e.operationId!) || e.response.status !== 200 || num(e.query.PageNumber) === undefined) continue;
    const { PageNumber: _, ...rest } = e.query;
    // A write between two pages may move the list: the pages after it are another walk.
    const key = `${e.operationId} ${writes} ${JSON.stringify(Object.entries(rest).sort())}`;
    walks.set(key, [...(walks.get(key) ?? []), e]);
  }
  for (const reads of walks.values()) {
    const byNumber = new Map<number, ExchangeEvidence>();
    for (const e of reads) if (!byNumber.has(num(e.query.PageNumber)!)) byNumber.set(num(e.query.PageNumber)!, e);
    const ids = (e: ExchangeEvidence) => items(e).map((item) => String(item.id));
    // Which number the first page has is not shown (§4.1): PageNumber 0 is the first page only when it serves other
    // dialogs than 1 (pagination.firstPageNumber); served as page 1, it is no page of the walk.
    const [zero, one] = [byNumber.get(0), byNumber.get(1)];
    const base = zero && one ? pagination.firstPageNumber({ status: 200, ids: ids(zero) }, ids(one)) : zero ? 0 : one ? 1 : undefined;
    if (base === 1) byNumber.delete(0);
    if (byNumber.size < 2) continue;
    const numbers = [...byNumber.keys()].sort((a, b) => a - b);
    const pages = numbers.map((n) => ({ number: n, e: byNumber.get(n)! }));
    const last = pages[pages.length - 1]!.e;
    const PageCount = num(last.query.PageCount) ?? 0;
    out.push({
      check: pagination.pagesDisjoint,
      findings: pagination.pagesDisjoint.judge({ pages: pages.map((p) => ({ number: p.number, ids: ids(p.e) })), PageCount }),
      at: last,
      shownBy: pages.slice(0, -1).map((p) => p.e),
    });
    // Totals over the pages from the first on, with none missing between; a walk whose first page is not known
    // (no page 0 read beside page 1) holds only their constancy.
    const walked = pages.filter((p, i) => p.number === pages[0]!.number + i);
    const walk = {
      pages: walked.flatMap((p) => {
        const read = pagination.readEnvelope(jsonOf(p.e) as Record<string, unknown>);
        return read.pagination
          ? [{ items: read.items.length, pagination: read.pagination, asked: { PageCount: num(p.e.query.PageCount), PageNumber: p.number }, ids: ids(p.e) }]
          : [];
      }),
    };
    const fromFirst = base !== undefined && walked[0]!.number === base;
    if (walk.pages.length >= 2) out.push({ check: pagination.walkTotals, findings: pagination.walkTotals.judge({ ...walk, fromFirst }), at: walked[0]!.e });
  }
  // The messages of one integration token: each its own message_id.
  const messages = new Map<string, unknown[]>();
  for (const e of exchanges.filter((x) => x.operationId === 'postVertexSendMessage' && x.response.status === 200)) {
    const token = String((safeJson(e.request.body ?? '') as { token?: unknown } | undefined)?.token ?? '');
    const earlier = messages.get(token) ?? [];
    const messageId = (jsonOf(e) as { message_id?: unknown } | undefined)?.message_id;
    out.push({ check: meanings.messageIdNew, findings: meanings.messageIdNew.judge({ messageId, earlier }), at: e });
    messages.set(token, [...earlier, messageId]);
  }
  // Downloads of one fileId: the same bytes each time.
  const files = new Map<string, ExchangeEvidence>();
  for (const e of exchanges.filter((x) => x.operationId === 'getV1File' && x.response.status === 200)) {
    const first = files.get(e.pathParams.fileId ?? '');
    if (first)
      out.push({
        check: transport.sameFile,
        findings: transport.sameFile.judge({ fileId: e.pathParams.fileId, first: first.response.bytes, again: e.response.bytes }),
        at: e,
        shownBy: [first],
      });
    else files.set(e.pathParams.fileId ?? '', e);
  }
  return out;
}

/** A team's checks of `run` evidence, each judging every exchange of a recording (or of a run) at once. */
export function wholeRecording(checks: readonly AnyCheck[], exchanges: readonly ExchangeEvidence[]): Judged[] {
  const last = exchanges[exchanges.length - 1];
  return last ? checks.filter((c) => c.evidence === 'run').map((check) => ({ check, findings: check.judge(exchanges), at: last })) : [];
}

/** The failures of what the checks the registry runs found, each at its exchange, filed under `source`; the counts. */
export function recordedFailures(judgements: readonly Judged[], registry: CheckRegistry, source: string) {
  const judged: Record<string, { judged: number; failed: number }> = {};
  const failures: RecordedFailure[] = [];
  for (const j of judgements) {
    if (!registry.runs(j.check.name)) continue;
    const failing = j.findings.filter((f) => !f.holds);
    const count = (judged[j.check.name] ??= { judged: 0, failed: 0 });
    count.judged++;
    count.failed += failing.length > 0 ? 1 : 0;
    const at = { operationId: j.at.operationId, status: j.at.response.status, exchanges: [j.at, ...(j.shownBy ?? [])].map((e) => failureExchange(e)) };
    for (const f of failuresOf(j.check, failing, at)) failures.push({ ...f, id: failureId(f), test: `${source} ${j.at.method} ${j.at.path}` });
  }
  return { judged, failures };
}

/** What a judge of a recording found: its failures, how often each check judged, and the checks it could not make. */
export interface RecordingVerdict {
  exchanges: number;
  failures: RecordedFailure[];
  judged: Record<string, { judged: number; failed: number }>;
  notJudged: Array<{ check: string; why: string }>;
}

/** Every check the registry runs that a recording can feed, applied to it; secrets of the recording removed. */
export function judgeRecording(har: HarLog, validators: ContractValidators, registry: CheckRegistry, source: string): RecordingVerdict {
  const exchanges = recordedExchanges(har, validators).sort((a, b) => a.startedMs - b.startedMs);
  const project = [...oneExchange(exchanges, validators), ...stateful(exchanges), ...walksAndSeries(exchanges)];
  const teams = registry.all().filter((c) => !isProject(c));
  const team: Judged[] = teams.flatMap((check) => (check.evidence === 'exchange' ? exchanges.map((e) => ({ check, findings: check.judge(e), at: e })) : []));
  const { judged, failures } = recordedFailures([...project, ...team, ...wholeRecording(teams, exchanges)], registry, source);
  const notJudged = registry
    .all()
    .filter((c) => registry.runs(c.name) && !(c.name in judged))
    .map((c) => ({
      check: c.name,
      why:
        NOT_FROM_RECORDINGS[c.name as CheckName] ??
        (isProject(c)
          ? 'the recording holds no exchange it judges'
          : TEAM_KINDS_JUDGED.has(c.evidence)
            ? 'the recording holds no exchange it judges'
            : `a team's check of ${c.evidence} evidence: a recording hands team checks each exchange and the whole recording only`),
    }));
  return { exchanges: exchanges.length, failures: redactIn(failures, recordedSecrets(har)), judged, notJudged };
}

const isProject = (check: AnyCheck) => BUILT_IN.includes(check);
