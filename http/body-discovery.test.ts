import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drive } from '../discovery/drive.ts';
import {
  COMMAND_CANDIDATES,
  discoverRequestShapes,
  MAX_LEARNED,
  SEND_CANDIDATES,
  type DiscoveryAnswer,
  type DiscoveryResult,
  type DiscoveryStep,
} from './body-discovery.ts';

const UUID = '5f0c2d2e-1b7a-4c1e-9a57-0d3b1c2e4f60';

interface Vendor {
  /** The text a send body carries for this vendor, or undefined when it does not take the body. */
  text(body: Record<string, unknown>): string | undefined;
  /** Accepts bodies it cannot read (a vendor that ignores unknown fields). */
  lenient?: boolean;
  /** Records operator messages as data items (the text shows in the record). */
  textInRecord?: boolean;
  /** Moves `updated` for any accepted send, even one it could not read. */
  anySendMoves?: boolean;
  /** Its messages leave no trace a read shows (`updated` stays). */
  traceless?: boolean;
  /** The target bot a command body names for this vendor. */
  target(body: Record<string, unknown>): unknown;
  /** Its goto answers success and moves nothing (a broken vendor). */
  commandInert?: boolean;
  createStatus?: number;
  /** How long its lists trail a write (a search index behind its store); Infinity: they never show the dialog. */
  listLagMs?: number;
  /** How long they trail a move, when not as long as any other write. */
  moveLagMs?: number;
  /** What its refusals of a send or command body say (default `{}`). */
  says?: (body: Record<string, unknown>, operation: 'send' | 'command') => string;
}

/** Runs the discovery against a fake vendor on a fake clock; returns the result and the requests sent. */
function discover(
  vendor: Vendor,
  preset: {
    sendBody?: string;
    commandBody?: string;
    verifyConfigured?: boolean;
    known?: { from: string; send?: string; command?: string };
    settleSeconds?: number;
  } = {},
): { result: DiscoveryResult; sent: string[]; waits: number; listReads: number[] } {
  let clock = 1_000_000;
  let updated = '';
  let bot = 101;
  // When the dialog's last write (its create, then its move) shows in the lists.
  let listedFrom = clock + (vendor.listLagMs ?? 0);
  const listReads: number[] = [];
  const data: string[] = [];
  const sent: string[] = [];
  let waits = 0;
  const answer = (step: DiscoveryStep): DiscoveryAnswer | undefined => {
    if (step.kind === 'wait') {
      waits++;
      clock += step.seconds * 1000;
      return undefined;
    }
    const { operationId, json, query } = step.request;
    sent.push(operationId);
    clock += 10;
    const body = (json ?? {}) as Record<string, unknown>;
    switch (operationId) {
      case 'getV1DialogCreate':
        return vendor.createStatus ? { status: vendor.createStatus, body: '{}' } : { status: 200, body: JSON.stringify({ dialogId: UUID }) };
      case 'postV2ConversationStop':
        return { status: 204, body: '' };
      case 'getV2Conversation':
        return { status: 200, body: JSON.stringify({ id: UUID, updated, data: data.map((answer) => ({ answer })) }) };
      case 'postV2ConversationSend': {
        const text = vendor.text(body);
        if (text === undefined && !vendor.lenient) return { status: 400, body: vendor.says?.(body, 'send') ?? '{}' };
        if ((text !== undefined || vendor.anySendMoves) && !vendor.traceless) updated = new Date(Math.floor(clock / 1000) * 1000).toISOString();
        if (text !== undefined && vendor.textInRecord) data.push(text);
        return { status: 204, body: '' };
      }
      case 'postV2ConversationCommand': {
        const target = vendor.target(body);
        if (target === undefined && !vendor.lenient) return { status: 400, body: vendor.says?.(body, 'command') ?? '{}' };
        if (target !== undefined && !vendor.commandInert) {
          bot = Number(target);
          listedFrom = clock + (vendor.moveLagMs ?? vendor.listLagMs ?? 0);
        }
        return { status: 204, body: '' };
      }
      case 'getV2Conversations': {
        listReads.push(clock);
        const shown = bot === Number(query?.BotID) && clock >= listedFrom;
        return { status: 200, body: JSON.stringify(shown ? { 0: { id: UUID }, meta: {} } : { meta: {} }) };
      }
      default:
        throw new Error(`unexpected ${operationId}`);
    }
  };
  const result = drive(discoverRequestShapes({ botId: 101, gotoBotId: 202, now: () => clock, ...preset }), answer);
  return { result, sent, waits, listReads };
}

const field = (name: string) => (body: Record<string, unknown>) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
const nested = (outer: string, inner: string) => (body: Record<string, unknown>) =>
  (body[outer] as Record<string, unknown> | undefined)?.[inner] as string | undefined;

test('a vendor that checks its fields: the first shape it takes, its message seen in the record', () => {
  const { result } = discover({ text: field('message'), textInRecord: true, target: nested('params', 'bot_id') });
  assert.equal(result.send.template, '{"message":"{{text}}"}');
  assert.equal(result.send.verifiedBy, 'text in the record');
  assert.equal(result.command.template, '{"command":"goto","params":{"bot_id":{{botId}}}}');
  assert.equal(result.command.verifiedBy, 'dialog moved to the target bot');
  assert.match(result.command.how, /^discovered: \{"command":"goto","params":\{"bot_id":\{\{botId\}\}\}\}, verified by the dialog moving to bot 202/);
  assert.deepEqual(result.dialogs, [UUID]);
});

test('a vendor that ignores unknown fields: acceptance is not enough, `updated` moving is', () => {
  const { result } = discover({ text: nested('message', 'text'), lenient: true, target: (b) => (b.cmd === 'goto' ? b.bot : undefined) });
  assert.equal(result.send.template, '{"message":{"text":"{{text}}"}}');
  assert.equal(result.send.verifiedBy, 'updated moved');
  assert.ok(
    result.send.tried.filter((t) => t.status === 204 && t.effect === 'none').length >= SEND_CANDIDATES.length - 2,
    'the lenient vendor accepted bodies without effect',
  );
  assert.equal(result.command.template, '{"cmd":"goto","bot":{{botId}}}');
});

test('a dialog without a message yet is sent to at once; once `updated` holds a time, each send waits out its second', () => {
  const first = discover({ text: field('text'), target: field('bot_id') });
  assert.equal(first.result.send.template, '{"text":"{{text}}"}');
  assert.equal(first.waits, 0, 'the first send that moves updated needs no wait');
  const later = discover({ text: field('content'), lenient: true, anySendMoves: true, textInRecord: true, target: field('bot_id') });
  assert.equal(later.result.send.template, '{"content":"{{text}}"}');
  assert.ok(later.waits >= 1, 'after the control moved updated, the next send waits');
});

test('when every accepted body moves `updated`, only the text itself decides', () => {
  const hidden = discover({ text: field('content'), lenient: true, anySendMoves: true, target: field('bot_id') });
  assert.equal(hidden.result.send.template, null);
  assert.match(hidden.result.send.how, /^undetermined: no candidate body showed its message in the dialog .*; set SEND_BODY$/);
  const visible = discover({ text: field('content'), lenient: true, anySendMoves: true, textInRecord: true, target: field('bot_id') });
  assert.equal(visible.result.send.template, '{"content":"{{text}}"}');
});

test('a strict vendor whose messages leave no trace: the only accepted shape', () => {
  const { result } = discover({ text: field('msg'), traceless: true, target: field('bot_id') });
  assert.equal(result.send.template, '{"msg":"{{text}}"}');
  assert.equal(result.send.verifiedBy, 'the only shape accepted');
});

test('a bot id sent as a string is a candidate too; no candidate moving the dialog is said plainly', () => {
  const asString = discover({ text: field('text'), target: (b) => (typeof b.bot === 'string' ? b.bot : undefined) });
  assert.equal(asString.result.command.template, '{"command":"goto","bot":"{{botId}}"}');
  const never = discover({ text: field('text'), target: () => undefined, lenient: true });
  assert.equal(never.result.command.template, null);
  assert.match(
    never.result.command.how,
    new RegExp(
      `^undetermined: no candidate body moved the dialog to bot 202 \\(${COMMAND_CANDIDATES.length} of ${COMMAND_CANDIDATES.length} accepted\\); set COMMAND_BODY$`,
    ),
  );
});

test('verified like a discovered one, a configured shape is said refused, accepted with no effect, or seen working', () => {
  const vendor = { text: field('text'), target: (b: Record<string, unknown>) => b.bot_id, textInRecord: true };
  const wrong = discover(vendor, { sendBody: '{"msg":"{{text}}"}', commandBody: '{"command":"goto","bot":{{botId}}}', verifyConfigured: true });
  assert.equal(wrong.result.send.template, null, 'a refused body is no shape: its tests are skipped with the reason, not failed');
  assert.match(
    wrong.result.send.how,
    /^undetermined: SEND_BODY \{"msg":"\{\{text\}\}"\} was refused \(400\): the vendor does not take that body; check SEND_BODY$/,
  );
  assert.match(wrong.result.command.how, /^undetermined: COMMAND_BODY .* was refused \(400\)/);
  const right = discover(vendor, { sendBody: '{"text":"{{text}}"}', commandBody: '{"command":"goto","bot_id":{{botId}}}', verifyConfigured: true });
  assert.deepEqual(
    [right.result.send.how, right.result.command.how],
    ['configured (SEND_BODY), its effect seen: its text in the record', 'configured (COMMAND_BODY), the dialog moved to bot 202'],
  );
  // A vendor that accepts anything and does nothing with it: the shape stays, and the goto test judges the move (§4.2).
  const inert = discover(
    { ...vendor, lenient: true, commandInert: true, traceless: true, textInRecord: false },
    { sendBody: '{"msg":"{{text}}"}', commandBody: '{"c":{{botId}}}', verifyConfigured: true },
  );
  assert.equal(inert.result.command.template, '{"c":{{botId}}}');
  assert.match(inert.result.command.how, /accepted \(204\) but the dialog did not move to bot 202$/);
  assert.match(inert.result.send.how, /accepted \(204\) with no effect seen/);
});

test("a baseline's shapes are tried first: seen working, refused for another, taken without effect for another, or taken and doing nothing", () => {
  const known = { from: 'staging', send: '{"text":"{{text}}"}', command: '{"command":"goto","bot_id":{{botId}}}' };
  const botId = (b: Record<string, unknown>) => b.bot_id;
  const same = discover({ text: field('text'), target: botId, textInRecord: true }, { known });
  assert.deepEqual(
    [same.result.send.how, same.result.command.how],
    [
      'baseline staging\'s shape {"text":"{{text}}"}, its effect seen again',
      'baseline staging\'s shape {"command":"goto","bot_id":{{botId}}}, the dialog moved to bot 202 again',
    ],
  );
  // A strict vendor that renamed the field: refused, then found (a changed shape, not a broken send).
  const renamed = discover({ text: field('message'), target: botId, textInRecord: true }, { known });
  assert.match(renamed.result.send.how, /^the vendor refused baseline staging's shape .* \(400\) and took another: discovered: \{"message":"\{\{text\}\}"\}/);
  // A vendor that takes anything and renamed the field: taken without effect, then another shows it.
  const lenient = discover({ text: field('message'), target: botId, textInRecord: true, lenient: true }, { known });
  assert.match(lenient.result.send.how, /^the vendor took baseline staging's shape .* without its effect and showed it with another: discovered: \{"message"/);
  // A vendor that takes anything and whose goto does nothing: the baseline's shape is kept, its effect gone.
  const inert = discover({ text: field('text'), target: botId, textInRecord: true, lenient: true, commandInert: true }, { known });
  assert.equal(inert.result.command.template, known.command);
  assert.equal(inert.result.command.verifiedBy, 'the baseline, its effect gone');
  assert.match(inert.result.command.how, /no shape moves the dialog to bot 202 as it did at the baseline$/);
});

test('configured shapes are taken as they are, without a request', () => {
  const { result, sent } = discover({ text: field('x'), target: field('y') }, { sendBody: '{"x":"{{text}}"}', commandBody: '{"y":{{botId}}}' });
  assert.deepEqual(sent, []);
  assert.deepEqual([result.send.how, result.command.how], ['configured (SEND_BODY)', 'configured (COMMAND_BODY)']);
});

test('a dialog that cannot be created leaves both shapes undetermined, with the reason', () => {
  const { result } = discover({ text: field('text'), target: field('bot_id'), createStatus: 404 }, { commandBody: '{"y":{{botId}}}' });
  assert.match(result.send.how, /^undetermined: GET \/v1\/dialog\/\{BotID\}\/create on bot 101 answered 404/);
  assert.equal(result.command.how, 'configured (COMMAND_BODY)');
});

test('a caller that only sends does not search the command shape', () => {
  const { result, sent } = discover({ text: field('text'), target: field('bot_id') }, {});
  assert.ok(sent.includes('postV2ConversationCommand'));
  const only = drive(discoverRequestShapes({ botId: 101, gotoBotId: 202, needs: ['send'], sendBody: '{"text":"{{text}}"}', now: () => 0 }), () => undefined);
  assert.deepEqual([only.send.how, only.command.how, only.dialogs], ['configured (SEND_BODY)', 'not needed by this caller', []]);
  assert.equal(result.send.template, '{"text":"{{text}}"}');
});

test('a vendor that refuses what it cannot read and takes one shape has that shape, even when its goto moves nothing', () => {
  const integerBot = (b: Record<string, unknown>) => (b.command === 'goto' && typeof b.bot_id === 'number' ? b.bot_id : undefined);
  const inert = discover({ text: field('text'), target: integerBot, commandInert: true });
  assert.equal(inert.result.command.template, '{"command":"goto","bot_id":{{botId}}}');
  assert.equal(inert.result.command.verifiedBy, 'the only shape accepted');
  // The same inert goto from a vendor that accepts anything tells nothing.
  const lenient = discover({ text: field('text'), target: integerBot, commandInert: true, lenient: true });
  assert.equal(lenient.result.command.template, null);
});

test('lists that trail writes: the goto is judged after the lag the create showed, and a half more', () => {
  const vendor = { text: field('text'), target: (b: Record<string, unknown>) => (typeof b.bot_id === 'number' ? b.bot_id : undefined), listLagMs: 1200 };
  const { result, listReads } = discover(vendor, { settleSeconds: 10 });
  assert.equal(result.command.template, '{"command":"goto","bot_id":{{botId}}}');
  assert.equal(result.command.verifiedBy, 'dialog moved to the target bot');
  // Read after 0, 0.25, 0.75 and 1.75 s: shown at the fourth.
  assert.equal(listReads.length, 5, 'four reads for the create, one for the move');
  assert.ok(listReads[3]! - listReads[0]! >= 1200);
});

test('a list that never shows the dialog is read for LIST_SETTLE_S at most, not past it', () => {
  for (const settleSeconds of [1, 10]) {
    const { listReads } = discover({ text: field('text'), target: field('bot_id'), listLagMs: Infinity }, { settleSeconds });
    const createReads = listReads.slice(0, -1);
    const span = createReads.at(-1)! - createReads[0]!;
    assert.ok(span <= settleSeconds * 1000, `read for ${span} ms with LIST_SETTLE_S=${settleSeconds}`);
    assert.ok(span >= settleSeconds * 1000 - 2100, `gave up after ${span} ms, before the last pause that fits`);
  }
});

test("the stamps the discovery read on its way: its dialog's create, the bot whose list showed it last, the send that moved updated", () => {
  const { result } = discover({ text: field('text'), target: field('bot_id') }, { settleSeconds: 10 });
  const stamps = result.stamps!;
  assert.equal(stamps.dialog.uuid, UUID);
  assert.equal(stamps.dialog.answeredAt - stamps.dialog.sentAt, 10, 'the create took one request');
  assert.equal(stamps.dialog.listedUnder, 202, 'listed under the goto target after the move');
  const message = stamps.message!;
  assert.ok(message.sentAt < message.answeredAt);
  // The fake vendor stamps updated with the second it handles the send in.
  assert.ok(Date.parse(message.updated) <= message.answeredAt && message.answeredAt - Date.parse(message.updated) < 1000, message.updated);
  const traceless = discover({ text: field('text'), traceless: true, target: field('bot_id') }, { settleSeconds: 10 });
  assert.equal(traceless.result.stamps?.message, undefined, 'no message stamp where updated never moves');
  assert.equal(traceless.result.stamps?.dialog.uuid, UUID);
});

test('a goto taken but not seen moved leaves the bot of the dialog unknown: the clock searches for it under no bot', () => {
  // Lists show the create at once and the move a minute late: the move happened, the list read after it says nothing.
  const { result } = discover({ text: field('text'), target: field('bot_id'), moveLagMs: 60_000 }, { settleSeconds: 10 });
  assert.equal(result.stamps?.dialog.listedUnder, undefined, 'neither the bot it was created on nor the target');
});

/** A value at a dotted path of a body. */
const at = (body: Record<string, unknown>, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), body);

/**
 * A vendor whose send and command bodies nest their fields, and whose refusals name the first field wrong, one at a
 * time, in `style`: how most validating handlers answer.
 */
function nestedVendor(
  style: (field: string, wants: string) => string,
  fields = { text: 'payload.messageText', command: 'request.command', bot: 'request.botId' },
): Vendor {
  return {
    text: (b) => (typeof at(b, fields.text) === 'string' ? (at(b, fields.text) as string) : undefined),
    target: (b) => (at(b, fields.command) === 'goto' && typeof at(b, fields.bot) === 'number' ? at(b, fields.bot) : undefined),
    textInRecord: true,
    says: (b, operation) => {
      if (operation === 'send') return style(fields.text, 'a string');
      return at(b, fields.command) === 'goto' ? style(fields.bot, 'an integer') : style(fields.command, '"goto"');
    },
  };
}

const STYLES: Array<[string, (field: string, wants: string) => string]> = [
  ['JSON errors[].field', (field, wants) => JSON.stringify({ errors: [{ field, message: `must be ${wants}` }] })],
  ['a plain-text sentence', (field, wants) => `400 Bad Request: missing required field '${field}' (${wants})`],
  ['problem+json detail', (field, wants) => JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: `${field} must be ${wants}` })],
  // Issue 48's vendor: text/plain naming the outermost field, and a template of its whole value.
  [
    'a template of the outermost field',
    (field, wants) => {
      const [outer, ...inner] = field.split('.');
      const leaf = ({ 'a string': '<string>', 'an integer': '<integer>' } as Record<string, string>)[wants] ?? wants;
      return `Bad Request: field "${outer}" must be ${inner.reduceRight((value, key) => `{"${key}": ${value}}`, leaf)}`;
    },
  ],
];

for (const [style, says] of STYLES) {
  test(`refusals that name the nested fields as ${style}: both shapes learned, verified by their effect, the refusal quoted`, () => {
    const { result, sent } = discover(nestedVendor(says));
    assert.equal(result.send.template, '{"payload":{"messageText":"{{text}}"}}');
    assert.equal(result.send.verifiedBy, 'text in the record');
    assert.match(
      result.send.how,
      /^learned from its refusals: \{"payload":\{"messageText":"\{\{text\}\}"\}\}, verified by text in the record, after 11 tries; read payload\.messageText as a string from «[^»]*payload[^»]*messageText[^»]*»; taught by its 400 to \{"dc_no_such_field":"\{\{text\}\}"\}: .*payload.*messageText/,
    );
    assert.equal(result.command.template, '{"request":{"command":"goto","botId":{{botId}}}}');
    assert.equal(result.command.verifiedBy, 'dialog moved to the target bot');
    // The fixed list, a guess for the bot beside the command its refusals asked for, then the field the guess's refusal named.
    assert.match(
      result.command.how,
      /^learned from its refusals: .*, verified by the dialog moving to bot 202, after 28 tries; read request\.botId as a number from «[^»]*request[^»]*botId[^»]*», request\.command as "goto" from «[^»]*»; taught by its 400 to \{"request":\{"command":"goto","bot_id":\{\{botId\}\}\}\}: .*request.*botId/,
    );
    assert.equal(sent.filter((op) => op === 'postV2ConversationCommand').length, COMMAND_CANDIDATES.length + 3);
  });
}

test('refusals that name no field: no shape, and the reason says so and what to set', () => {
  const { result } = discover(nestedVendor(() => 'Bad Request'));
  assert.equal(result.send.template, null);
  assert.match(result.send.how, /\(0 of 9 accepted; its 10 refusals named no field to build one from\); set SEND_BODY$/);
  assert.match(
    result.command.how,
    /^undetermined: no candidate body moved the dialog to bot 202 \(0 of 25 accepted; its 26 refusals named no field to build one from\); set COMMAND_BODY$/,
  ); // A baseline's shape refused too: said first, and no other taken.
  const known = { from: 'staging', command: '{"command":"goto","bot_id":{{botId}}}' };
  assert.match(
    discover(
      nestedVendor(() => 'Bad Request'),
      { known },
    ).result.command.how,
    /^undetermined: the vendor refused baseline staging's shape \{"command":"goto","bot_id":\{\{botId\}\}\} \(400\); no candidate body moved the dialog/,
  );
});

test('refusals that mislead: at most MAX_LEARNED bodies learned, then no shape, with how many were tried', () => {
  let n = 0;
  const { result, sent } = discover({ text: () => undefined, target: () => undefined, says: () => `missing required field 'field${n++}.name'` });
  assert.equal(result.command.template, null);
  assert.match(
    result.command.how,
    new RegExp(
      `\\(0 of ${COMMAND_CANDIDATES.length + MAX_LEARNED} accepted; ${MAX_LEARNED} of them built from the fields its refusals named\\); set COMMAND_BODY$`,
    ),
  );
  assert.equal(sent.filter((op) => op === 'postV2ConversationSend').length, 1 + SEND_CANDIDATES.length + MAX_LEARNED);
});

test('a learned body accepted with no effect is a reading nothing confirmed: no shape, and the reason says so', () => {
  // The same vendor that refuses every other body: acceptance alone confirms no reading of its refusals (issue 48).
  const vendor = nestedVendor(STYLES[0]![1]);
  const { result } = discover({ ...vendor, traceless: true, textInRecord: false });
  assert.equal(result.send.template, null);
  assert.match(
    result.send.how,
    /^undetermined: no candidate body showed its message in the dialog \(1 of 10 accepted; 1 of them built from the fields its refusals named, 1 of those accepted without the effect that would confirm it\); set SEND_BODY$/,
  );
});

test('a refusal is quoted on one line, bounded, its secret-looking fields and credentials redacted', () => {
  const { result } = discover(
    nestedVendor((field) =>
      JSON.stringify({ detail: `missing required field '${field}'`, token: 'tok-93d1', echo: 'Authorization: Basic cWE6c2VjcmV0', pad: 'x'.repeat(400) }),
    ),
  );
  const quote = /taught by its 400 to \{"dc_no_such_field":"\{\{text\}\}"\}: (.*)$/.exec(result.send.how)?.[1] ?? '';
  assert.ok(!quote.includes('tok-93d1') && !quote.includes('cWE6c2VjcmV0'), quote);
  assert.ok(quote.length <= 241 && quote.endsWith('…'), quote);
});
