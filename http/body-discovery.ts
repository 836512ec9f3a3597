// Discovering the send and command body shapes (spec §4.2: field names and types not shown) once per run, when
// SEND_BODY / COMMAND_BODY do not give them. Acceptance proves nothing (a vendor that ignores unknown fields accepts
// every candidate), so a shape is taken only once its effect is seen: the message shows up in the dialog (its text
// in the record, or `updated`, the time of the last message, moving, spec §2.1), the goto moves the dialog to the
// target bot. When every candidate is refused, the refusals are read for the fields they name, and bodies built from
// them are tried the same way (http/learned-shapes.ts). Pure: a generator of steps that the Playwright client drives
// with promises and k6 synchronously.
import type { ApiRequest } from './request.ts';
import { canonicalTemplate, renderBody } from './body-template.ts';
import { learnedCommandCandidates, learnedSendCandidates, type LearnedCandidate, type Refusal } from './learned-shapes.ts';
import { redactBody, redactText } from './redact.ts';
import { nextSettlePause } from './settle-backoff.ts';

export interface DiscoveryContext {
  botId: number;
  /** The goto target; needed only when the command shape is searched. */
  gotoBotId?: number;
  /** Configured templates (SEND_BODY, COMMAND_BODY): taken as they are, not discovered. */
  sendBody?: string;
  commandBody?: string;
  /** Which shapes the caller needs (default both): a k6 script that only sends skips the command search. */
  needs?: ReadonlyArray<keyof RequestShapes>;
  /** The client's clock in ms. */
  now: () => number;
  /** CreatedFrom for what was created at or after a client instant, in the vendor's clock (default: a minute early). */
  createdSince?: (clientMs: number) => string;
  /** PageCount of its list reads (default 40, as §8.1 observed; a vendor may serve or take fewer, §8.3). */
  pageSize?: number;
  /** How long the lists may trail a write (LIST_SETTLE_S; default 0: they do not). */
  settleSeconds?: number;
  /**
   * Send a configured shape once and say what it did, as a discovered one is verified (the contract run): refused,
   * its effect seen, or accepted with none. Default false: taken as it is (a k6 script's setup).
   */
  verifyConfigured?: boolean;
  /**
   * The shapes a baseline verified (its body.send.accepted, body.command.accepted), tried first: taken with their
   * effect, kept without it (the effect the baseline saw is gone: the tests say so at the operation), or, refused,
   * followed by the search, which then says the vendor refused the baseline's shape and took another.
   */
  known?: { from: string; send?: string; command?: string };
}

/** Whether a body names a UUID: in any case, as UUIDs compare (RFC 9562). */
const holdsUuid = (body: string, uuid: string) => body.toLowerCase().includes(uuid.toLowerCase());

export type DiscoveryStep = { kind: 'send'; request: ApiRequest } | { kind: 'wait'; seconds: number };

export interface DiscoveryAnswer {
  status: number;
  body: string;
}

export type Verification =
  | 'configured'
  | 'text in the record'
  | 'updated moved'
  | 'dialog moved to the target bot'
  | 'the only shape accepted'
  | 'the baseline, its effect gone';

export interface ShapeFinding {
  /** The template to use, or null when no shape could be established. */
  template: string | null;
  verifiedBy: Verification | null;
  /** One line: how the shape was found, or why it could not be. */
  how: string;
  /** Each candidate sent: its template, the status, and the effect seen. */
  tried: Array<{ template: string; status: number; effect: string }>;
}

export interface RequestShapes {
  send: ShapeFinding;
  command: ShapeFinding;
}

/**
 * When the application stamped the discovery's dialog and its messages, in the client's clock: what the vendor's
 * clock is read from (contract/clock/vendor-clock.ts), at no request of its own.
 */
export interface DiscoveryStamps {
  /** The create: sent and answered (client ms); the bot whose list showed the dialog last, if a list was read. */
  dialog: { uuid: string; sentAt: number; answeredAt: number; listedUnder?: number };
  /** The last send that moved `updated` (the time of the last message, §2.1): sent, answered, the updated it showed. */
  message?: { sentAt: number; answeredAt: number; updated: string };
}

export interface DiscoveryResult extends RequestShapes {
  /** Dialogs the discovery created (for cleanup). */
  dialogs: string[];
  /** Its dialog's stamps, when it made one. */
  stamps?: DiscoveryStamps;
}

/** Bodies a vendor could plausibly take for send, most common first. */
export const SEND_CANDIDATES: readonly string[] = [
  '{"text":"{{text}}"}',
  '{"message":"{{text}}"}',
  '{"msg":"{{text}}"}',
  '{"body":"{{text}}"}',
  '{"content":"{{text}}"}',
  '{"message_text":"{{text}}"}',
  '{"messageText":"{{text}}"}',
  '{"message":{"text":"{{text}}"}}',
  '{"data":{"text":"{{text}}"}}',
];

const BOT_FIELDS = ['bot_id', 'botId', 'BotID', 'bot', 'target', 'target_bot_id', 'targetBotId', 'botID'];

/** Bodies a vendor could plausibly take for command goto: field names, bot id as number or string, nesting. */
export const COMMAND_CANDIDATES: readonly string[] = [
  ...BOT_FIELDS.map((f) => `{"command":"goto","${f}":{{botId}}}`),
  ...['bot_id', 'bot', 'botId'].map((f) => `{"command":"goto","${f}":"{{botId}}"}`),
  ...['cmd', 'action', 'type'].flatMap((c) => ['bot_id', 'bot', 'target_bot_id'].map((f) => `{"${c}":"goto","${f}":{{botId}}}`)),
  ...['params', 'args', 'data', 'payload'].map((p) => `{"command":"goto","${p}":{"bot_id":{{botId}}}}`),
  '{"goto":{{botId}}}',
];

/** Fields no vendor takes: controls that show whether acceptance (and, for send, `updated`) tells anything. */
const CONTROL_SEND = '{"dc_no_such_field":"{{text}}"}';
const CONTROL_COMMAND = '{"dc_no_such_field":"goto","dc_no_such_bot":{{botId}}}';
/** Time for `updated` to be able to show a new second after the last change. */
const RESOLUTION_SECONDS = 1.1;
const CLOCK_SKEW_MS = 60_000;
/** Bodies learned from refusals tried per shape at most: each refusal may teach the next, so a few suffice. */
export const MAX_LEARNED = 8;
/** Refusals of a body (§7: 400 for a parameter of the wrong format; 422 as validating frameworks answer). */
const readsBody = (status: number) => status === 400 || status === 422;
/** A refusal's body as a report quotes it: one line, bounded, secret-looking JSON fields and credentials redacted. */
const quoted = (body: string) => {
  const line = redactText(redactBody(body), []).replace(/\s+/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 240)}…` : line || '(no body)';
};
/**
 * What a learned shape was read from: each field as read and the words that said it, then the refusals that taught it
 * (the bodies they refused and what they said).
 */
const lesson = (learned: LearnedCandidate) => {
  const read = learned.readings.map((r) => `${r.field}${r.wants ? ` as ${r.wants}` : ''} from «${quoted(r.words)}»`);
  const refusals = learned.taughtBy.map((r) => `its ${r.status} to ${canonicalTemplate(r.template)}: ${quoted(r.body)}`);
  return `${read.length > 0 ? `read ${read.join(', ')}; ` : ''}taught by ${refusals.join('; ')}`;
};

const isoUtc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const ok = (status: number) => status >= 200 && status < 300;

function json(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export function undetermined(why: string, tried: ShapeFinding['tried'] = []): ShapeFinding {
  return { template: null, verifiedBy: null, how: `undetermined: ${why}`, tried };
}

/** A shape given by the configuration (SEND_BODY, COMMAND_BODY): taken as it is. */
export function configuredShape(template: string, variable: string): ShapeFinding {
  return { template, verifiedBy: 'configured', how: `configured (${variable})`, tried: [] };
}

const NOT_NEEDED: ShapeFinding = { template: null, verifiedBy: null, how: 'not needed by this caller', tried: [] };

/** An answer to a tried body: its status, the effect seen, and its body (what a refusal says). */
interface Outcome<E extends string> {
  status: number;
  effect: E | 'refused';
  body: string;
}

/** Records a tried body, and its refusal when it is one the vendor may have said why of. */
function heard(refusals: Refusal[], tried: ShapeFinding['tried'], template: string, outcome: Outcome<string>): void {
  tried.push({ template, status: outcome.status, effect: outcome.effect });
  if (outcome.effect === 'refused' && readsBody(outcome.status)) refusals.push({ template, status: outcome.status, body: outcome.body });
}

/** What learning from the refusals gave: the bodies it tried, and a note for a search that found nothing. */
interface Learning {
  learned: LearnedCandidate[];
  note: string;
}
const NOTHING_LEARNED: Learning = { learned: [], note: '' };

/**
 * Bodies built from what the refusals say, tried best first until one `works`, at most MAX_LEARNED: after each
 * refusal, the next is built from all said so far (a vendor that checks one field at a time names the next).
 */
function* learn<E extends string>(
  refusals: Refusal[],
  build: (refusals: readonly Refusal[]) => LearnedCandidate[],
  tried: ShapeFinding['tried'],
  attempt: (template: string) => Generator<DiscoveryStep, Outcome<E>, DiscoveryAnswer | undefined>,
  works: (effect: string) => boolean,
): Generator<DiscoveryStep, Learning, DiscoveryAnswer | undefined> {
  const before = refusals.length;
  const learned: LearnedCandidate[] = [];
  while (learned.length < MAX_LEARNED) {
    const next = build(refusals).find((c) => !tried.some((t) => canonicalTemplate(t.template) === c.template));
    if (!next) break;
    learned.push(next);
    const outcome = yield* attempt(next.template);
    heard(refusals, tried, next.template, outcome);
    if (works(outcome.effect)) break;
  }
  // A reading is a hypothesis its effect confirms: one taken without it confirms nothing, and is said.
  const inert = learned.filter((l) => tried.some((t) => t.template === l.template && t.effect !== 'refused')).length;
  const note =
    before === 0
      ? ''
      : learned.length === 0
        ? `; its ${before} refusals named no field to build one from`
        : `; ${learned.length} of them built from the fields its refusals named${inert > 0 ? `, ${inert} of those accepted without the effect that would confirm it` : ''}`;
  return { learned, note };
}

/**
 * Whether `template` was learned from the refusals: a reading, which only its effect confirms (a body of the fixed list
 * that a vendor refusing the rest took is its shape; a reading taken without its effect is a guess taken).
 */
const learnedHere = (learning: Learning, template: string) => learning.learned.some((l) => l.template === template);

/** How a search found its shape: from its list, or learned from the vendor's refusals and which ones taught it. */
function foundHow(template: string, verified: string, tries: number, learning: Learning): string {
  const taught = learning.learned.find((l) => l.template === template);
  const how = `${canonicalTemplate(template)}, verified by ${verified}, after ${tries} tries`;
  return taught ? `learned from its refusals: ${how}; ${lesson(taught)}` : `discovered: ${how}`;
}

export function* discoverRequestShapes(ctx: DiscoveryContext): Generator<DiscoveryStep, DiscoveryResult, DiscoveryAnswer | undefined> {
  const needs = ctx.needs ?? ['send', 'command'];
  const preset = {
    send: !needs.includes('send') ? NOT_NEEDED : ctx.sendBody === undefined ? undefined : configuredShape(ctx.sendBody, 'SEND_BODY'),
    command: !needs.includes('command') ? NOT_NEEDED : ctx.commandBody === undefined ? undefined : configuredShape(ctx.commandBody, 'COMMAND_BODY'),
  };
  if (preset.send && preset.command && !ctx.verifyConfigured) return { send: preset.send, command: preset.command, dialogs: [] };
  const verify = (finding: ShapeFinding | undefined) => finding?.verifiedBy === 'configured' && ctx.verifyConfigured === true;

  function* ask(request: ApiRequest): Generator<DiscoveryStep, DiscoveryAnswer, DiscoveryAnswer | undefined> {
    const answer = yield { kind: 'send', request };
    if (!answer) throw new Error('the driver must answer a send step with the response');
    return answer;
  }

  // A dialog created without starting it (the bot publishes nothing, §3) and handed to an operator (§4.2 stop):
  // only the suite writes to it, so any change of `updated` is the suite's own message.
  const createdAt = ctx.now();
  const created = yield* ask({ operationId: 'getV1DialogCreate', pathParams: { BotID: ctx.botId } });
  const uuid = ok(created.status) ? UUID.exec(created.body)?.[0] : undefined;
  if (!uuid) {
    const why = `GET /v1/dialog/{BotID}/create on bot ${ctx.botId} answered ${created.status} without a dialogId to discover on`;
    return { send: preset.send ?? undetermined(why), command: preset.command ?? undetermined(why), dialogs: [] };
  }
  const stamps: DiscoveryStamps = { dialog: { uuid, sentAt: createdAt, answeredAt: ctx.now() } };
  const since = (ms: number) => ctx.createdSince?.(ms) ?? isoUtc(ms - CLOCK_SKEW_MS);
  // How far the lists trail a write: the new dialog read for in the list until it shows (only the command search
  // reads a list, so only it needs to know). A goto is then judged only after that long again.
  let lagMs = 0;
  if ((!preset.command || verify(preset.command)) && (ctx.settleSeconds ?? 0) > 0) {
    const answeredAt = ctx.now();
    for (let read = 1; ; read++) {
      const listed = yield* ask({
        operationId: 'getV2Conversations',
        pathParams: {},
        query: { BotID: String(ctx.botId), CreatedFrom: since(createdAt), PageCount: String(ctx.pageSize ?? 40) },
      });
      const waited = ctx.now() - answeredAt;
      // Shown at the first read: no lag, however long that read took (a goto is then read for at once).
      const shown = holdsUuid(listed.body, uuid);
      lagMs = shown && read === 1 ? 0 : waited;
      if (shown) {
        stamps.dialog.listedUnder = ctx.botId;
        break;
      }
      const pause = nextSettlePause(read, waited, ctx.settleSeconds! * 1000);
      if (pause === undefined) break;
      yield { kind: 'wait', seconds: pause / 1000 };
    }
  }
  const stopped = yield* ask({ operationId: 'postV2ConversationStop', pathParams: { uuid } });
  let lastChange = ctx.now();
  if (!ok(stopped.status)) {
    const why = `stop answered ${stopped.status}: no dialog with an operator to send on`;
    return { send: preset.send ?? undetermined(why), command: preset.command ?? undetermined(why), dialogs: [uuid], stamps };
  }

  function* read(): Generator<DiscoveryStep, { updated: unknown; text: string }, DiscoveryAnswer | undefined> {
    const answer = yield* ask({ operationId: 'getV2Conversation', pathParams: { uuid: uuid! } });
    const record = json(answer.body) as { updated?: unknown } | undefined;
    return { updated: record?.updated, text: answer.body };
  }

  // The record as the last read left it: only the suite writes to this dialog, so it holds until the next send.
  let last: { updated: unknown; text: string } | undefined;

  /** Sends one send body and says what it did: the status and the effect in the record. */
  function* trySend(
    template: string,
    n: number,
  ): Generator<DiscoveryStep, { status: number; effect: 'text' | 'updated' | 'none' | 'refused'; body: string }, DiscoveryAnswer | undefined> {
    const before = last ?? (yield* read());
    // `updated` has a resolution of a second: a send in the second of the last change may leave it as it was. A
    // dialog whose updated is still "" has no message yet, so any message shows without waiting.
    const wait = lastChange + RESOLUTION_SECONDS * 1000 - ctx.now();
    if (wait > 0 && before.updated !== '') yield { kind: 'wait', seconds: wait / 1000 };
    const text = `dialog-contract shape check ${n} ${createdAt.toString(36)}`;
    const sentAt = ctx.now();
    const sent = yield* ask({ operationId: 'postV2ConversationSend', pathParams: { uuid: uuid! }, json: renderBody(template, { text }) });
    if (!ok(sent.status)) {
      // A refusal that wrote anyway must not pass for the next candidate's effect: read afresh then.
      last = undefined;
      return { status: sent.status, effect: 'refused', body: sent.body };
    }
    lastChange = ctx.now();
    const after = yield* read();
    last = after;
    const moved = after.updated !== before.updated && after.updated !== '';
    // Only the suite writes to this dialog: a moved `updated` is this send's, stamped between its send and answer.
    if (moved && typeof after.updated === 'string') stamps.message = { sentAt, answeredAt: lastChange, updated: after.updated };
    const effect = after.text.includes(text) ? 'text' : moved ? 'updated' : 'none';
    return { status: sent.status, effect, body: sent.body };
  }

  let send = preset.send;
  if (send && verify(send)) {
    const variable = 'SEND_BODY';
    const outcome = yield* trySend(send.template!, 1);
    const tried = [{ template: send.template!, status: outcome.status, effect: outcome.effect }];
    const shape = canonicalTemplate(send.template!);
    send =
      outcome.effect === 'refused'
        ? undetermined(`${variable} ${shape} was refused (${outcome.status}): the vendor does not take that body; check ${variable}`, tried)
        : outcome.effect === 'none'
          ? {
              ...send,
              tried,
              how: `configured (${variable}), accepted (${outcome.status}) with no effect seen (its text not in the record, updated not moved): check ${variable} if the vendor shows messages there`,
            }
          : { ...send, tried, how: `configured (${variable}), its effect seen: ${outcome.effect === 'text' ? 'its text in the record' : 'updated moved'}` };
  }
  // What the baseline's shape did, said before the search's outcome: one that found a shape, one that found none.
  let sendBefore = '';
  let sendNone = '';
  let sendInert: ShapeFinding | undefined;
  if (!send && ctx.known?.send) {
    const outcome = yield* trySend(ctx.known.send, 1);
    const shape = canonicalTemplate(ctx.known.send);
    const tried = [{ template: ctx.known.send, status: outcome.status, effect: outcome.effect }];
    if (outcome.effect === 'text' || outcome.effect === 'updated')
      send = {
        template: ctx.known.send,
        verifiedBy: outcome.effect === 'text' ? 'text in the record' : 'updated moved',
        how: `baseline ${ctx.known.from}'s shape ${shape}, its effect seen again`,
        tried,
      };
    // Taken without its effect: a renamed field on a vendor that takes anything, or a send that does nothing. The
    // search tells them apart; only when no shape shows an effect is the baseline's kept, its effect gone.
    else if (outcome.effect === 'none') {
      sendBefore = `the vendor took baseline ${ctx.known.from}'s shape ${shape} (${outcome.status}) without its effect and showed it with another: `;
      sendInert = {
        template: ctx.known.send,
        verifiedBy: 'the baseline, its effect gone',
        how: `baseline ${ctx.known.from}'s shape ${shape}: accepted (${outcome.status}), but no shape shows a message where it showed at the baseline`,
        tried,
      };
    } else {
      const refused = `the vendor refused baseline ${ctx.known.from}'s shape ${shape} (${outcome.status})`;
      sendNone = `${refused}; `;
      sendBefore = `${refused} and took another: `;
    }
  }
  if (!send) {
    const tried: ShapeFinding['tried'] = [];
    // The control's refusal counts too: a body without the text is what a vendor names the missing field for.
    const refusals: Refusal[] = [];
    const control = yield* trySend(CONTROL_SEND, 0);
    heard(refusals, tried, CONTROL_SEND, control);
    // If the control moves `updated` too, only the text itself tells the right field.
    const updatedTells = control.effect === 'none' || control.effect === 'refused';
    const works = (effect: string) => effect === 'text' || (effect === 'updated' && updatedTells);
    for (const candidate of SEND_CANDIDATES) {
      const outcome = yield* trySend(candidate, tried.length);
      heard(refusals, tried, candidate, outcome);
      if (works(outcome.effect)) break;
    }
    const learning = works(tried[tried.length - 1]!.effect)
      ? NOTHING_LEARNED
      : yield* learn(refusals, learnedSendCandidates, tried, (t) => trySend(t, tried.length), works);
    const last = tried[tried.length - 1]!;
    const accepted = tried.filter((t) => t.template !== CONTROL_SEND && ok(t.status));
    const listed = accepted.filter((t) => !learnedHere(learning, t.template));
    send = works(last.effect)
      ? { template: last.template, verifiedBy: last.effect === 'text' ? 'text in the record' : 'updated moved', how: '', tried }
      : control.effect === 'refused' && accepted.length === 1 && listed.length === 1
        ? { template: listed[0]!.template, verifiedBy: 'the only shape accepted', how: '', tried }
        : undetermined(
            `${sendNone}no candidate body showed its message in the dialog (${accepted.length} of ${tried.length - 1} accepted${learning.note}); set SEND_BODY`,
            tried,
          );
    if (!send.template && sendInert) send = sendInert;
    else if (send.template) send.how = `${sendBefore}${foundHow(send.template, send.verifiedBy!, tried.length, learning)}`;
  }

  /** Sends one command goto body and says what it did: refused, or whether the dialog moved to the target bot. */
  function* tryCommand(
    template: string,
    gotoBotId: number,
  ): Generator<DiscoveryStep, { status: number; effect: 'moved' | 'none' | 'refused'; body: string }, DiscoveryAnswer | undefined> {
    const answer = yield* ask({ operationId: 'postV2ConversationCommand', pathParams: { uuid: uuid! }, json: renderBody(template, { botId: gotoBotId }) });
    const body = answer.body;
    if (!ok(answer.status)) return { status: answer.status, effect: 'refused', body };
    // A list that trailed the create trails the move as long: wait that, and a half more, before reading it.
    if (lagMs > 0) yield { kind: 'wait', seconds: (lagMs * 1.5 + 250) / 1000 };
    const listed = yield* ask({
      operationId: 'getV2Conversations',
      pathParams: {},
      query: { BotID: String(gotoBotId), CreatedFrom: since(createdAt), PageCount: String(ctx.pageSize ?? 40) },
    });
    // Taken, and not shown moved: on either bot now, for all the run can tell, so a later search names neither.
    if (!holdsUuid(listed.body, uuid!)) {
      delete stamps.dialog.listedUnder;
      return { status: answer.status, effect: 'none', body };
    }
    stamps.dialog.listedUnder = gotoBotId;
    return { status: answer.status, effect: 'moved', body };
  }

  let command = preset.command;
  if (command && verify(command)) {
    const gotoBotId = ctx.gotoBotId;
    if (gotoBotId === undefined) throw new Error('verifying the command body needs gotoBotId');
    const outcome = yield* tryCommand(command.template!, gotoBotId);
    const tried = [{ template: command.template!, status: outcome.status, effect: outcome.effect }];
    const shape = canonicalTemplate(command.template!);
    // Accepted without the move: kept, so the goto test fails at the operation (the move is documented, §4.2).
    command =
      outcome.effect === 'refused'
        ? undetermined(`COMMAND_BODY ${shape} was refused (${outcome.status}): the vendor does not take that body; check COMMAND_BODY`, tried)
        : {
            ...command,
            tried,
            how: `configured (COMMAND_BODY), ${outcome.effect === 'moved' ? `the dialog moved to bot ${gotoBotId}` : `accepted (${outcome.status}) but the dialog did not move to bot ${gotoBotId}`}`,
          };
  }
  let commandBefore = '';
  let commandNone = '';
  let commandInert: ShapeFinding | undefined;
  if (!command && ctx.known?.command && ctx.gotoBotId !== undefined) {
    const outcome = yield* tryCommand(ctx.known.command, ctx.gotoBotId);
    const shape = canonicalTemplate(ctx.known.command);
    const tried = [{ template: ctx.known.command, status: outcome.status, effect: outcome.effect }];
    // Taken without the move: kept, so the goto test fails at the operation, naming the move (§4.2).
    if (outcome.effect === 'moved')
      command = {
        template: ctx.known.command,
        verifiedBy: 'dialog moved to the target bot',
        how: `baseline ${ctx.known.from}'s shape ${shape}, the dialog moved to bot ${ctx.gotoBotId} again`,
        tried,
      };
    else if (outcome.effect === 'none') {
      commandBefore = `the vendor took baseline ${ctx.known.from}'s shape ${shape} (${outcome.status}) without the move and moved the dialog with another: `;
      commandInert = {
        template: ctx.known.command,
        verifiedBy: 'the baseline, its effect gone',
        how: `baseline ${ctx.known.from}'s shape ${shape}: accepted (${outcome.status}), but no shape moves the dialog to bot ${ctx.gotoBotId} as it did at the baseline`,
        tried,
      };
    } else {
      const refused = `the vendor refused baseline ${ctx.known.from}'s shape ${shape} (${outcome.status})`;
      commandNone = `${refused}; `;
      commandBefore = `${refused} and took another: `;
    }
  }
  if (!command) {
    const gotoBotId = ctx.gotoBotId;
    if (gotoBotId === undefined) throw new Error('searching the command body needs gotoBotId');
    const tried: ShapeFinding['tried'] = [];
    const refusals: Refusal[] = [];
    const control = yield* tryCommand(CONTROL_COMMAND, gotoBotId);
    heard(refusals, tried, CONTROL_COMMAND, control);
    const moved = (effect: string) => effect === 'moved';
    for (const candidate of COMMAND_CANDIDATES) {
      const outcome = yield* tryCommand(candidate, gotoBotId);
      heard(refusals, tried, candidate, outcome);
      if (moved(outcome.effect)) break;
    }
    const learning = moved(tried[tried.length - 1]!.effect)
      ? NOTHING_LEARNED
      : yield* learn(refusals, learnedCommandCandidates, tried, (t) => tryCommand(t, gotoBotId), moved);
    const last = tried[tried.length - 1]!;
    // A vendor that refuses what it cannot read and took exactly one shape: that is its shape, moving or not (the
    // tests then say whether the goto works).
    const accepted = tried.filter((t) => t.template !== CONTROL_COMMAND && ok(t.status));
    const listed = accepted.filter((t) => !learnedHere(learning, t.template));
    if (moved(last.effect)) command = { template: last.template, verifiedBy: 'dialog moved to the target bot', how: '', tried };
    else if (commandInert) command = commandInert;
    else if (control.effect === 'refused' && accepted.length === 1 && listed.length === 1)
      command = { template: listed[0]!.template, verifiedBy: 'the only shape accepted', how: '', tried };
    if (command && command !== commandInert) {
      const verified = command.verifiedBy === 'dialog moved to the target bot' ? `the dialog moving to bot ${gotoBotId}` : command.verifiedBy!;
      command.how = `${commandBefore}${foundHow(command.template!, verified, tried.length, learning)}`;
    }
    command ??= undetermined(
      `${commandNone}no candidate body moved the dialog to bot ${gotoBotId} (${accepted.length} of ${tried.length - 1} accepted${learning.note}); set COMMAND_BODY`,
      tried,
    );
  }
  return { send, command, dialogs: [uuid], stamps };
}
