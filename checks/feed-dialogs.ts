// Feeders of one dialog across exchanges, in time order (checks/timeline.ts): its reads over time; a write and the
// read after it (what a create, a start, a stop leave; the status strings §3 does not show are learned from the
// writes the recording holds: the operator state's from a stop out of in process, the not-started one's from a V1 GET
// create); two views of one dialog with no write on it between them (a record against its list item, V1 against V2,
// the two identifiers a POST create answers); the series of creates, of a custom block's messages and of one file's
// downloads; and a move, with the same trigger on a dialog in the same state that was not moved. A field no write
// moves (name, ip, location, source) must agree between two views whenever no write stands between them; one that
// time may move (status, updated, duration, data) only where a view on either side shows it held still. Pure.
import type { ExchangeEvidence } from './evidence.ts';
import { formDecoded, jsonOf } from './evidence.ts';
import { defineFeeder, type Judged } from './feeder.ts';
import { responseTrue, safeJson } from './feed-exchange.ts';
import { CREATES, listItems, Timeline, wholeList, type View } from './timeline.ts';
import { absentAfterMs } from './feed-lists.ts';
import { canonical } from './stored-text.ts';
import { sameValue } from './dialogs.ts';
import * as dialogs from './dialogs.ts';
import * as effects from './effects.ts';
import * as meanings from './meanings.ts';
import * as transport from './transport.ts';

/**
 * A write's body as a trigger: its fields, each its value (a message's text any text: each message says its own);
 * no body; or a body that is no JSON object (its form's fields). A command's words are its values: a goto and another
 * command (the suite's lenience sends one), or a bot id and a word in its place, are not the same trigger.
 */
function triggerShape(operationId: string | null, body: string | undefined): string {
  const json = safeJson(body);
  const texts = operationId === 'postV2ConversationSend';
  if (json && typeof json === 'object' && !Array.isArray(json))
    return JSON.stringify(
      Object.entries(json as Record<string, unknown>)
        .map(([name, value]) => [name, texts && typeof value === 'string' ? 'a text' : JSON.stringify(value)])
        .sort(),
    );
  if (!body) return 'no body';
  return `no JSON object: ${[...new URLSearchParams(body).keys()].sort().join('&')}`;
}

/** Whether the suite sent it to be refused: every status it expected is a 4xx or 5xx. */
function refusalExpected(e: ExchangeEvidence): boolean {
  const status = e.expected?.status;
  return Array.isArray(status) ? status.length > 0 && status.every((s) => s >= 400) : typeof status === 'number' && status >= 400;
}

const ok = (e: ExchangeEvidence) => e.response.status >= 200 && e.response.status < 300;
const statusOf = (v: View | undefined) => (typeof v?.fields.status === 'string' ? v.fields.status : undefined);

/** The first record of a dialog read after a place in time with no write on it between (V2 first, as the suite reads). */
function readAfter(t: Timeline, dialog: string, at: number): View | undefined {
  const next = t.writesOn(dialog).find((w) => w > at) ?? Number.POSITIVE_INFINITY;
  const records = t.viewsOf(dialog).filter((v) => v.kind === 'record' && v.at > at && v.at < next);
  return records.find((v) => v.version === 'v2') ?? records[0];
}

/** The dialog's status just before a place in time: its last view before it, with no write on it between. */
function statusBefore(t: Timeline, dialog: string, at: number): View | undefined {
  const last = t.lastWriteBefore(dialog, at) ?? -1;
  return t
    .viewsOf(dialog)
    .filter((v) => v.at > last && v.at < at && v.version === 'v2')
    .at(-1);
}

/**
 * The fields two views of one dialog are held to each other on: those no write moves, and those time may move that a
 * third view of the first's kind shows held still across the second. None when a write on it stands between them.
 */
function comparable(t: Timeline, dialog: string, first: View, second: View, fields: readonly string[], still: readonly string[]): string[] {
  if (t.writeBetween(dialog, first.at, second.at)) return [];
  const alike = t.viewsOf(dialog).filter((v) => v.version === first.version && v.kind === first.kind);
  const held = (field: string) =>
    alike.some(
      (x) =>
        x.at <= second.at &&
        alike.some((y) => y.at >= second.at && y !== x && sameValue(field, x.fields[field], y.fields[field]) && !t.writeBetween(dialog, x.at, y.at)),
    );
  return fields.filter((f) => still.includes(f) || held(f));
}

/** Fields no write moves (§2.1): a dialog's name (its number and city), ip, location, and the service it began in. */
const STILL = ['id', 'name', 'ip', 'location', 'source'];

/** The reads of one dialog over time: updated never moves back and lies in its life; its duration within its age. */
export const overTime = defineFeeder({
  evidence: 'the exchanges of one dialog over time: its reads, and its create where recorded',
  checks: ['meaning_conformance.updated', 'meaning_conformance.duration'],
  feed: (t) =>
    t.dialogs().flatMap((dialog) => {
      const out: Judged[] = [];
      const created = t.createOf.get(dialog);
      const create = created === undefined ? undefined : t.exchanges[created];
      for (const version of ['v1', 'v2'] as const) {
        let before: string | undefined;
        for (const view of t.viewsOf(dialog).filter((v) => v.kind === 'record' && v.version === version)) {
          const updated = view.fields.updated;
          if (typeof updated !== 'string') continue;
          // In the vendor's clock a quarter of an hour either way (as an unverified clock is read), or, without the
          // create, any time up to a day after the read: what holds still is that updated never moves back.
          const window = create
            ? { createdMs: create.startedMs - 15 * 60_000, readMs: view.e.endedMs + 15 * 60_000 }
            : { createdMs: Date.UTC(2000, 0, 1), readMs: view.e.endedMs + 86_400_000 };
          out.push({ check: meanings.updatedInLife, findings: meanings.updatedInLife.judge({ updated, window, ...(before ? { before } : {}) }), at: view.e });
          if (create)
            out.push({
              check: meanings.durationMeaning,
              findings: meanings.durationMeaning.judge({ dialog: view.fields, in: 'record', ageMs: view.e.endedMs - create.startedMs }),
              at: view.e,
              shownBy: [create],
            });
          if (meanings.updatedKind(updated, window, before) === 'between the creation and the read') before = updated;
        }
      }
      return out;
    }),
});

/** The statuses §3 does not show, as the recording's own writes show them. */
function learnedStatuses(t: Timeline) {
  const notStarted: View[] = [];
  const operator: View[] = [];
  for (const [at, e] of t.exchanges.entries()) {
    const dialog = t.dialogOf(e);
    if (!dialog || !ok(e)) continue;
    if (e.operationId === 'getV1DialogCreate') {
      const read = readAfter(t, dialog, at);
      if (statusOf(read)) notStarted.push(read!);
    }
    if (e.operationId === 'postV2ConversationStop' && statusOf(statusBefore(t, dialog, at)) === 'in-process') {
      const read = readAfter(t, dialog, at);
      if (statusOf(read)) operator.push(read!);
    }
  }
  return { notStarted: notStarted[0], operator: operator[0] };
}

/** A write and the first read of its dialog after it: what §3 says each write leaves. */
export const writeThenRead = defineFeeder({
  evidence: 'a write and the reads after it: a create, a start, a stop and the status its dialog is read with next',
  checks: [
    'effect_of_create',
    'effect_of_create.same_in_both_versions',
    'effect_of_create.post_starts',
    'effect_of_create.not_operator',
    'effect_of_start',
    'effect_of_stop',
  ],
  feed: (t) => {
    const learned = learnedStatuses(t);
    const out: Judged[] = [];
    for (const [at, e] of t.exchanges.entries()) {
      const dialog = t.dialogOf(e);
      if (!dialog || e.probing) continue;
      const read = readAfter(t, dialog, at);
      const after = statusOf(read);
      if (!read || after === undefined) continue;
      const was = statusOf(statusBefore(t, dialog, at));
      const judged = (check: Judged['check'], findings: Judged['findings'], also: View[] = []) =>
        out.push({ check, findings, at: e, shownBy: [read.e, ...also.map((v) => v.e)] });
      if ((e.operationId === 'getV1DialogCreate' || e.operationId === 'getV2DialogCreate') && ok(e))
        judged(effects.createNotStarted, effects.createNotStarted.judge({ after }));
      // §3 gives both GET creates one next state: V2's leaves the status V1's does.
      if (e.operationId === 'getV2DialogCreate' && ok(e) && learned.notStarted)
        out.push({
          check: effects.createsAlike,
          findings: effects.createsAlike.judge({ v1Create: statusOf(learned.notStarted), v2Create: after }),
          at: e,
          comparedWith: learned.notStarted.e,
          shownBy: [read.e],
        });
      if (e.operationId === 'postV2DialogCreate' && ok(e) && learned.notStarted)
        judged(effects.postCreateStarts, effects.postCreateStarts.judge({ notStarted: statusOf(learned.notStarted), started: after }), [learned.notStarted]);
      if (CREATES.includes(e.operationId!) && ok(e) && learned.operator)
        judged(
          effects.createNotOperator,
          effects.createNotOperator.judge({ created: after, operator: statusOf(learned.operator), started: e.operationId === 'postV2DialogCreate' }),
          [learned.operator],
        );
      if (e.operationId === 'postV2ConversationStart' && (e.response.status === 204 || (e.response.status === 403 && was === 'completed')))
        judged(effects.startResumes, effects.startResumes.judge({ answered: e.response.status, after }));
      if (e.operationId === 'postV2ConversationStop' && e.response.status === 204 && was !== undefined) {
        // From a state the recording names: in process, the operator state (learned), or created, not started (learned).
        const from =
          was === 'in-process'
            ? 'in process'
            : was === statusOf(learned.operator)
              ? 'operator'
              : was === statusOf(learned.notStarted)
                ? 'created, not started'
                : undefined;
        if (from) judged(effects.stopConnectsOperator, effects.stopConnectsOperator.judge({ from, before: was, after }));
      }
    }
    return out;
  },
});

/** Two views of one dialog: a record and its list item, V1's record and V2's, the two identifiers of one POST create. */
export const twoViews = defineFeeder({
  evidence: 'a record and its list item; a V1 read and a V2 read of one dialog; the reads of the two identifiers a create answered',
  checks: ['record_matches_list_item', 'versions_agree', 'created_dialog_identified.one_dialog'],
  feed: (t, { settleMs, clock }) => {
    const out: Judged[] = [];
    const absentAfter = absentAfterMs(t, settleMs, clock);
    for (const dialog of t.dialogs()) {
      const views = t.viewsOf(dialog);
      // A list read sooner after a write to the dialog than the recording's lists take to show one may show the state
      // before it (lists trail writes, §8 not shown): its fields a write moves say nothing against a record.
      const trailing = (item: View) => t.writesOn(dialog).some((w) => w < item.at && item.e.startedMs - t.exchanges[w]!.endedMs < absentAfter);
      for (const record of views.filter((v) => v.kind === 'record')) {
        // The nearest list item of the same version: the record is the list item plus data (§2.2).
        const items = views.filter((v) => v.kind === 'list item' && v.version === record.version);
        const item = items.sort((a, b) => Math.abs(a.at - record.at) - Math.abs(b.at - record.at))[0];
        if (item) {
          const declared = ['id', 'name', 'status', 'ip', 'location', 'updated', 'duration', ...(record.version === 'v2' ? ['source'] : [])];
          const still = trailing(item) ? declared.filter((f) => STILL.includes(f)) : declared;
          const fields = comparable(t, dialog, item, record, still, STILL).filter((f) => f !== 'id');
          if (fields.length)
            out.push({
              check: dialogs.recordMatchesListItem,
              findings: dialogs.recordMatchesListItem.judge({ fields, dialog, a: item.fields, b: record.fields }),
              at: record.e,
              shownBy: [item.e],
            });
        }
        if (record.version !== 'v1' || dialog.startsWith('v1:')) continue;
        // V1 against the nearest V2 record of the dialog (§1.6: one dialog, two identifier schemes).
        const v2 = views.filter((v) => v.kind === 'record' && v.version === 'v2').sort((a, b) => Math.abs(a.at - record.at) - Math.abs(b.at - record.at))[0];
        if (!v2) continue;
        const fields = comparable(t, dialog, v2, record, ['name', 'status', 'ip', 'location', 'updated', 'duration', 'data'], STILL);
        if (fields.length)
          out.push({
            check: dialogs.versionsAgree,
            findings: dialogs.versionsAgree.judge({ fields, dialog, a: record.fields, b: v2.fields }),
            at: record.e,
            comparedWith: v2.e,
          });
      }
    }
    // A POST create's dialogId and dialogUUID, each read: one dialog (name, ip and location, which no write moves).
    for (const e of t.exchanges) {
      if (e.operationId !== 'postV2DialogCreate' || e.response.status !== 200) continue;
      const body = jsonOf(e) as { dialogId?: unknown; dialogUUID?: unknown } | undefined;
      if (body?.dialogId === undefined || typeof body.dialogUUID !== 'string') continue;
      const read = (operationId: string, matches: (x: ExchangeEvidence) => boolean) =>
        t.exchanges.find((x) => x.operationId === operationId && x.response.status === 200 && x.startedMs >= e.startedMs && matches(x));
      const byId = read('getV1Conversation', (x) => x.pathParams.id === String(body.dialogId));
      const byUuid = read('getV2Conversation', (x) => x.pathParams.uuid?.toLowerCase() === (body.dialogUUID as string).toLowerCase());
      if (!byId || !byUuid) continue;
      const findings = dialogs.createdOneDialog.judge({ byId: jsonOf(byId) as Record<string, unknown>, byUuid: jsonOf(byUuid) as Record<string, unknown> });
      out.push({ check: dialogs.createdOneDialog, findings, at: e, shownBy: [byId, byUuid] });
    }
    return out;
  },
});

/** The variables a create passed: its query's, its JSON body's (a JSON object serialised as a string, §4.1, §4.2). */
function variablesOf(e: ExchangeEvidence): string[] {
  const parsed = [e.query.variables, (safeJson(e.request.body) as { variables?: unknown } | undefined)?.variables]
    .filter((v): v is string => typeof v === 'string')
    .map((v) => safeJson(v));
  return parsed.flatMap((v) =>
    v && typeof v === 'object' ? Object.values(v as Record<string, unknown>).filter((x) => typeof x === 'string') : [],
  ) as string[];
}

/** Series of one kind: creates (each a dialog of its own, number and data), one custom block's messages, one file's downloads. */
export const series = defineFeeder({
  evidence: 'a series of creates, of the messages of one custom block, of the downloads of one file',
  checks: ['created_dialog_identified', 'name_conformance.own_number', 'meaning_conformance.data', 'meaning_conformance.message_id', 'file_content.same_file'],
  feed: (t) => {
    const out: Judged[] = [];
    const created = new Map<string, ExchangeEvidence>();
    const byBot = new Map<string, string[]>();
    const given = new Map<string, string[]>();
    // A POST create names its dialog only when asked to (§4.2 response true; what it answers otherwise is not shown).
    const named = (x: ExchangeEvidence) => (x.operationId === 'postV2DialogCreate' && responseTrue(x)) || x.operationId === 'getV1DialogCreate';
    for (const e of t.exchanges.filter((x) => named(x) && x.response.status === 200)) {
      const dialog = Timeline.createdUuid(e);
      const field = e.operationId === 'getV1DialogCreate' ? 'dialogId' : 'dialogUUID';
      out.push({
        check: dialogs.createdNewId,
        findings: dialogs.createdNewId.judge({ field, dialog, answeredBefore: dialog !== undefined && created.has(dialog) }),
        at: e,
        ...(dialog && created.has(dialog) ? { shownBy: [created.get(dialog)!] } : {}),
      });
      if (!dialog || created.has(dialog)) continue;
      created.set(dialog, e);
      const bot = Timeline.createdOn(e) ?? '';
      byBot.set(bot, [...(byBot.get(bot) ?? []), dialog]);
      given.set(dialog, variablesOf(e));
    }
    // Dialogs created on one bot: a dialog number each (§2.1), read from the last record of each.
    for (const made of byBot.values()) {
      const last = made.flatMap((d) =>
        t
          .viewsOf(d)
          .filter((v) => v.kind === 'record' && typeof v.fields.name === 'string')
          .slice(-1),
      );
      if (last.length < 2) continue;
      const at = last.sort((a, b) => a.at - b.at).at(-1)!;
      out.push({
        check: dialogs.nameOwnNumber,
        findings: dialogs.nameOwnNumber.judge({ names: last.map((v) => v.fields.name as string) }),
        at: at.e,
        shownBy: last.filter((v) => v !== at).map((v) => v.e),
      });
    }
    // Data collected in a dialog (§2.2) holds no value only another dialog was given, a distinctive one (6 characters
    // on); values alike in any form a store may keep them are one value (a text and the same trimmed).
    const owners = new Map<string, Set<string>>();
    for (const [dialog, values] of given) for (const v of values.map(canonical)) owners.set(v, new Set([...(owners.get(v) ?? []), dialog]));
    // A text sent to the dialog itself is its own, though another was given it too (two probes' lengths alike): any
    // value its sends' bodies hold, whatever the body's encoding and field names (not shown, §4.2).
    const sentTo = new Map<string, string[]>();
    for (const e of t.exchanges.filter((x) => x.operationId === 'postV2ConversationSend')) {
      const dialog = t.dialogOf(e);
      if (dialog && e.request.body) sentTo.set(dialog, [...(sentTo.get(dialog) ?? []), e.request.body, formDecoded(e.request.body)]);
    }
    for (const [dialog] of given) {
      const sent = sentTo.get(dialog) ?? [];
      const othersGiven = [...owners]
        .filter(([v, who]) => v.length >= 6 && !who.has(dialog) && who.size === 1 && !sent.some((body) => body.includes(v)))
        .map(([v]) => v);
      if (!othersGiven.length) continue;
      for (const read of t.viewsOf(dialog).filter((v) => v.kind === 'record' && Array.isArray(v.fields.data))) {
        const answers = (read.fields.data as Array<{ answer?: unknown }>).map((item) => String(item?.answer ?? ''));
        out.push({ check: meanings.ownData, findings: meanings.ownData.judge({ dialog, answers, othersGiven }), at: read.e });
      }
    }
    // The messages of one integration token: each its own message_id.
    const messages = new Map<string, unknown[]>();
    for (const e of t.exchanges.filter((x) => x.operationId === 'postVertexSendMessage' && x.response.status === 200)) {
      const token = String((safeJson(e.request.body) as { token?: unknown } | undefined)?.token ?? '');
      const earlier = messages.get(token) ?? [];
      const messageId = (jsonOf(e) as { message_id?: unknown } | undefined)?.message_id;
      out.push({ check: meanings.messageIdNew, findings: meanings.messageIdNew.judge({ messageId, earlier }), at: e });
      messages.set(token, [...earlier, messageId]);
    }
    // Downloads of one fileId: the same bytes each time.
    const files = new Map<string, ExchangeEvidence>();
    for (const e of t.exchanges.filter((x) => x.operationId === 'getV1File' && x.response.status === 200)) {
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
  },
});

/** Whether a create is V2's POST create, whose variables have places of their own (§4.2). */
const isPost = (e: ExchangeEvidence) => e.operationId === 'postV2DialogCreate';

/** A create's variables and where it passed them (§4.1, §4.2): POST's query alone, its JSON body alone, both agreeing; a GET's query. */
function placedVariables(e: ExchangeEvidence): { place: effects.VariablesPlace; variables: Record<string, unknown> } | undefined {
  const object = (text: unknown) => {
    const v = typeof text === 'string' ? safeJson(text) : undefined;
    return v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length ? (v as Record<string, unknown>) : undefined;
  };
  const [query, body] = [object(e.query.variables), object((safeJson(e.request.body) as { variables?: unknown } | undefined)?.variables)];
  if (!isPost(e)) return query && { place: 'in the query', variables: query };
  if (query && body) return JSON.stringify(query) === JSON.stringify(body) ? { place: 'in both, agreeing', variables: query } : undefined;
  return query ? { place: 'in the query alone', variables: query } : body ? { place: 'in the JSON body alone', variables: body } : undefined;
}

/**
 * Where a create's variables went, as the places it is held against name it: POST's own places, and each GET create
 * by its operation (both pass them in the query).
 */
const placeOf = (m: { e: ExchangeEvidence; place: effects.VariablesPlace }) => (isPost(m.e) ? m.place : `through ${m.e.operationId}`);

/**
 * Variables passed through each documented place against those of another place: shown in the dialog's data where
 * the others' show. One not shown is held to a place that showed only when its own dialog was read at least as long
 * after its create (or LIST_SETTLE_S after it) as that place's showed: data may come later than the create. A GET
 * create is held to the other GET create, POST's places to each other, as the suite's own test holds them: a GET
 * create leaves its dialog not started, and whether its data shows before a start is not stated (§1.4, §3).
 */
export const variablesPlaces = defineFeeder({
  evidence: 'a write and the reads after it: creates with variables in each documented place, and the data their dialogs are read with',
  checks: ['effect_of_create.variables'],
  feed: (t, { settleMs }) => {
    const made = [...t.createOf].flatMap(([dialog, at]) => {
      const e = t.exchanges[at]!;
      const placed = placedVariables(e);
      const reads = t.viewsOf(dialog).filter((v) => v.kind === 'record' && Array.isArray(v.fields.data));
      if (!placed || !reads.length || !ok(e) || e.probing) return [];
      const delay = (v: View) => v.e.startedMs - e.endedMs;
      const shownAt = reads.find((v) => effects.variablesShown(v.fields.data as Array<{ answer?: unknown }>, placed.variables));
      return [{ e, ...placed, reads, shownAfter: shownAt && delay(shownAt), lastAfter: Math.max(...reads.map(delay)), read: shownAt ?? reads.at(-1)! }];
    });
    return made.map((m): Judged => {
      const shownThrough = [
        ...new Set(
          made
            .filter(
              (o) => isPost(o.e) === isPost(m.e) && placeOf(o) !== placeOf(m) && o.shownAfter !== undefined && m.lastAfter >= Math.min(o.shownAfter, settleMs),
            )
            .map(placeOf),
        ),
      ];
      const input = { place: m.place, operation: m.e.operationId as effects.VariablesEvidence['operation'], shown: m.shownAfter !== undefined, shownThrough };
      return { check: effects.variablesPassed, findings: effects.variablesPassed.judge(input), at: m.e, shownBy: [m.read.e] };
    });
  },
});

/** Integers a command's body carries (its field names are not shown, §4.2): where the target bot can be. */
function integersIn(value: unknown): string[] {
  if (typeof value === 'number' && Number.isInteger(value)) return [String(value)];
  if (typeof value === 'string' && /^\d+$/.test(value)) return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(integersIn);
  return [];
}

/** The bot a dialog is on at a place in time: where it was created, moved by each goto after. */
function botAt(t: Timeline, dialog: string, at: number, targetOf: Map<number, string>): string | undefined {
  let bot: string | undefined;
  for (const w of t.writesOn(dialog).filter((x) => x < at)) {
    const e = t.exchanges[w]!;
    if (CREATES.includes(e.operationId!)) bot = Timeline.createdOn(e);
    if (targetOf.has(w)) bot = targetOf.get(w);
  }
  return bot;
}

/** A goto and where its dialog is read after it; a trigger on a moved dialog against the same on one in the same state not moved. */
export const moves = defineFeeder({
  evidence: 'a write and the reads after it: a goto, the dialog read by its UUID and listed by bot; a trigger on a moved dialog beside one not moved',
  checks: ['effect_of_goto', 'effect_of_start.after_move', 'effect_of_stop.after_move', 'effect_of_send.after_move', 'effect_of_goto.after_move'],
  feed: (t, { settleMs, clock }) => {
    const out: Judged[] = [];
    const absentAfter = absentAfterMs(t, settleMs, clock);
    // Each goto that answered success, and its target where the body names one bot that is not the dialog's own.
    const targetOf = new Map<number, string>();
    const gotos = [...t.exchanges.entries()].filter(([, e]) => e.operationId === 'postV2ConversationCommand' && ok(e) && !e.probing);
    for (const [at, e] of gotos) {
      const dialog = t.dialogOf(e)!;
      const source = botAt(t, dialog, at, targetOf);
      const candidates = [...new Set(integersIn(safeJson(e.request.body)))].filter((b) => b !== source);
      if (candidates.length === 1) targetOf.set(at, candidates[0]!);
    }
    for (const [at, e] of gotos) {
      const dialog = t.dialogOf(e)!;
      const read = t.exchanges.find(
        (x, i) => i > at && x.operationId === 'getV2Conversation' && x.pathParams.uuid?.toLowerCase() === dialog && !t.writeBetween(dialog, at, i),
      );
      if (!read) continue;
      const target = targetOf.get(at);
      const source = botAt(t, dialog, at, targetOf);
      const next = t.writesOn(dialog).find((w) => w > at) ?? Number.POSITIVE_INFINITY;
      const v1Id = t.v1Of(dialog);
      // Lists asked once the goto had answered: one sent while it ran may have been served before the move.
      const lists = (operationId: string, bot: string | undefined) =>
        bot === undefined
          ? []
          : t.exchanges.filter(
              (x, i) =>
                i > at &&
                i < next &&
                x.startedMs >= e.endedMs &&
                x.operationId === operationId &&
                x.response.status === 200 &&
                !x.probing &&
                x.query.BotID === bot,
            );
      const shows = (x: ExchangeEvidence, id: string) => listItems(x).some((item) => String(item.id).toLowerCase() === id);
      const caughtUp = (x: ExchangeEvidence) => x.startedMs - e.endedMs >= absentAfter;
      // Where a list says the dialog is: shown by a read the lists had caught up by (`settled`), or absent from one
      // that holds every match, read long enough after the goto for the recording's own lists to have shown it; else
      // unknown.
      const where = (reads: ExchangeEvidence[], id: string, settled: (x: ExchangeEvidence) => boolean = () => true) =>
        reads.some((x) => shows(x, id) && settled(x)) ? true : reads.some((x) => wholeList(x) && caughtUp(x)) ? false : undefined;
      const [ofTarget, ofSource, v1OfTarget] = [lists('getV2Conversations', target), lists('getV2Conversations', source), lists('getV1Conversations', target)];
      const underTarget = where(ofTarget, dialog);
      // Still under the source is the failure, so only a list the move had reached says it: one read long enough after
      // the goto, or after a list under the target showed the dialog there. Lists that trail writes (not shown, §4.1)
      // show a moved dialog where it was for a while, and another test may read the source's list in that while.
      const movedInLists = ofTarget.filter((x) => shows(x, dialog));
      const underSource = where(ofSource, dialog, (x) => caughtUp(x) || movedInLists.some((y) => y.endedMs <= x.startedMs));
      const v1UnderTarget = v1Id === undefined ? undefined : where(v1OfTarget, v1Id);
      // Only what the lists said is handed in: a part they left unknown is not judged (moveParts).
      const v2 =
        underTarget !== undefined && underSource !== undefined
          ? { underTarget, underSource, listedBefore: true }
          : { underTarget: false, underSource: false, listedBefore: false };
      const v1 = v1UnderTarget === undefined ? { noTwin: 'no V1 list read after the goto says where its V1 id is' } : { underTarget: v1UnderTarget };
      const shownBy = [read, ...ofTarget, ...ofSource, ...v1OfTarget];
      out.push({ check: effects.gotoMoves, findings: effects.gotoMoves.judge({ read: read.response.status, v2, v1 }), at: e, shownBy: shownBy.slice(0, 6) });
    }
    // Each trigger on a dialog after its move, against the same trigger on a dialog in the same state never moved.
    const AFTER_MOVE = {
      postV2ConversationStart: effects.startAfterMove,
      postV2ConversationStop: effects.stopAfterMove,
      postV2ConversationSend: effects.sendAfterMove,
      postV2ConversationCommand: effects.gotoAfterMove,
    } as const;
    const movedBy = (dialog: string, at: number) => gotos.some(([g, x]) => g < at && t.dialogOf(x) === dialog);
    // One the suite sent to be refused (a bad body, a bad bot id) is no trigger to hold against one taken.
    const triggers = [...t.exchanges.entries()].filter(([, e]) => e.operationId! in AFTER_MOVE && !e.probing && !refusalExpected(e) && t.dialogOf(e));
    // The same trigger: the same fields, a text for a text and every other value the same (a goto to another bot, a
    // bot id of the wrong kind, a body that is no JSON object are other triggers). Each body read once: every trigger
    // is held against every other.
    const shape = new Map(triggers.map(([, e]) => [e, triggerShape(e.operationId, e.request.body)]));
    for (const [at, e] of triggers) {
      const dialog = t.dialogOf(e)!;
      const state = statusOf(statusBefore(t, dialog, at));
      if (!movedBy(dialog, at) || state === undefined) continue;
      const twin = triggers
        .filter(([, x]) => x.operationId === e.operationId && shape.get(x) === shape.get(e) && t.dialogOf(x) !== dialog)
        .filter(([i, x]) => !movedBy(t.dialogOf(x)!, i) && statusOf(statusBefore(t, t.dialogOf(x)!, i)) === state)
        .sort(([a], [b]) => Math.abs(a - at) - Math.abs(b - at))[0];
      if (!twin) continue;
      const check = AFTER_MOVE[e.operationId as keyof typeof AFTER_MOVE];
      out.push({ check, findings: check.judge({ notMoved: twin[1].response.status, moved: e.response.status }), at: e, shownBy: [twin[1]] });
    }
    return out;
  },
});
