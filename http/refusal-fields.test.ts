import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, refusalFields, type FieldMention } from './refusal-fields.ts';

const read = (body: string) => refusalFields(body, ['goto']);
const paths = (mentions: FieldMention[]) => mentions.map((m) => m.path.join('.'));

test('a field reference in each notation gives one path: dotted, JSON pointer, brackets, JSONPath', () => {
  for (const written of ['target.botId', '/target/botId', '#/target/botId', 'target[botId]', "target['botId']", '$.target.botId'])
    assert.deepEqual(fieldPath(written), ['target', 'botId'], written);
  assert.deepEqual(fieldPath('/a~1b/c~0d'), ['a/b', 'c~d'], 'pointer escapes');
  assert.deepEqual(fieldPath('цель.бот_ид'), ['цель', 'бот_ид'], 'names in another script');
  // An index, a version, an abbreviation, prose: no field of these bodies.
  for (const none of ['items[0].id', 'v2.0', 'e.g', 'two words', '202', '']) assert.equal(fieldPath(none), undefined, none);
});

test('each style a vendor refuses a body in names the field, its nesting and what it wants there', () => {
  const cases: Array<[string, string, Partial<FieldMention>]> = [
    ['JSON errors[].field', '{"errors":[{"field":"target.botId","message":"must be an integer bot id"}]}', { type: 'number', strength: 0 }],
    ['JSON errors[].field as a pointer', '{"errors":[{"field":"/target/botId","message":"is required"}]}', { strength: 0 }],
    ['problem+json detail', '{"type":"about:blank","title":"Bad Request","status":400,"detail":"missing required field \'target.botId\'"}', { strength: 1 }],
    [
      'problem+json invalid-params',
      '{"type":"https://example.net/validation","title":"Invalid","invalid-params":[{"name":"target.botId","reason":"must be a positive integer"}]}',
      { type: 'number', strength: 0 },
    ],
    ['FastAPI loc', '{"detail":[{"loc":["body","target","botId"],"msg":"field required","type":"value_error.missing"}]}', { strength: 0 }],
    [
      'JSON:API source.pointer',
      '{"errors":[{"status":"400","source":{"pointer":"/target/botId"},"detail":"must be a string"}]}',
      { type: 'string', strength: 0 },
    ],
    ['a map of fields', '{"errors":{"target.botId":["can\'t be blank","is not a number"]}}', { type: 'number', strength: 0 }],
    [
      'ajv',
      '[{"instancePath":"/target","keyword":"required","params":{"missingProperty":"botId"},"message":"must have required property \'botId\'"}]',
      { strength: 0 },
    ],
    ['a plain sentence', "missing required field 'target.botId'", { strength: 1 }],
    ['a plain sentence, the path unquoted', 'The body must hold target.botId, an integer.', { type: 'number', strength: 2 }],
    ['a pointer in prose', '/target/botId: expected integer, got string', { type: 'number', strength: 2 }],
    ['typographic quotes', 'Field “target.botId” is required (string)', { type: 'string', strength: 1 }],
    ['an envelope', '{"error":{"code":400,"message":"\'target.botId\' must be an integer"}}', { type: 'number', strength: 1 }],
  ];
  for (const [style, body, said] of cases) {
    const [first] = read(body);
    assert.deepEqual(first?.path, ['target', 'botId'], style);
    for (const [key, value] of Object.entries(said)) assert.equal(first![key as keyof FieldMention], value, `${style}: ${key}`);
  }
});

test('names in any naming style and script, and a field called a field with no other mark', () => {
  assert.deepEqual(paths(read("missing 'bot_id'; 'botId' or \"BotID\" expected")), ['bot_id', 'botId', 'BotID']);
  assert.deepEqual(paths(read('botId is required, also target_bot_id')), ['botId', 'target_bot_id'], 'camel and snake need no quotes');
  assert.deepEqual(read('Поле «цель.бот» обязательно: целое число'), [
    { path: ['цель', 'бот'], strength: 1, type: 'number', words: 'Поле «цель.бот» обязательно: целое число' },
  ]);
  assert.deepEqual(paths(read('missing required field target')), ['target'], 'called a field');
  assert.deepEqual(paths(read('field required')), [], 'a word after "field" that names none');
});

test('the value a field wants, said before or after it, and a value said of no field is a field', () => {
  const said = (body: string) => read(body).map(({ words: _, ...m }) => m);
  assert.deepEqual(said('\'action\' must be "goto"'), [{ path: ['action'], strength: 1, value: 'goto' }]);
  assert.deepEqual(said('expected "goto" in \'op\''), [{ path: ['op'], strength: 1, value: 'goto' }]);
  assert.deepEqual(said('{"errors":[{"field":"request.command","message":"must be goto"}]}'), [{ path: ['request', 'command'], strength: 0, value: 'goto' }]);
  assert.deepEqual(said("missing required field 'goto'"), [{ path: ['goto'], strength: 1 }]);
  assert.deepEqual(paths(read("missing required field 'goto.bot_id'")), ['goto.bot_id'], 'a path through an object called goto is a path');
});

test('the type of each field is read in its own clause', () => {
  const [text, bot] = read("'message.body' must be a string; 'target.botId' must be an integer");
  assert.deepEqual([text?.type, bot?.type], ['string', 'number']);
  assert.equal(read("missing required field 'target.botId'")[0]?.type, undefined, 'no type said');
});

test('what names no field yields nothing: bodies without a name, URLs, media types, request paths, codes, numbers', () => {
  const silent = [
    '',
    'Bad Request',
    '{}',
    '{"type":"about:blank","title":"Bad Request","status":400}',
    '{"type":"https://example.net/probs/bad-body","title":"Bad Request","status":400,"detail":"see https://docs.example.net/api/v2.html","instance":"/api/v2/conversation/abc-def/command"}',
    '{"timestamp":"2026-01-01T00:00:00Z","status":400,"error":"Bad Request","path":"/api/v2/conversation/abc-def/send","code":"INVALID_BODY"}',
    'Expected Content-Type application/json or text/plain, got 400 bytes of version 2.0 e.g. this',
    '<html><body><h1>400 Bad Request</h1><hr><center>nginx</center></body></html>',
    '{"status":400,"source":"web","name":"ValidationError","message":"Bad Request"}',
    'the request is invalid',
  ];
  for (const body of silent) assert.deepEqual(read(body), [], body);
});

test('one field said several ways is one mention, its strongest reading first', () => {
  const mentions = read('{"errors":[{"field":"target.botId","message":"\'target.botId\' is required"}],"detail":"also check action, and target.botId"}');
  assert.deepEqual(paths(mentions), ['target.botId']);
  assert.equal(mentions[0]!.strength, 0);
});

/** Each reading as "path type|=value", in the order read. */
const readings = (body: string) => read(body).map((m) => `${m.path.join('.')}${m.type ? ` ${m.type}` : ''}${m.value ? ` =${m.value}` : ''}`);

test("a template or an example of a field's value names the fields inside it, with their types", () => {
  // Issue 48's vendor, as it answered.
  assert.deepEqual(readings('Bad Request: field "params" must be {"botId": <integer>}'), ['params.botId number']);
  assert.deepEqual(readings('Bad Request: field "command" must be "goto"'), ['command =goto']);
  assert.deepEqual(readings('\'target\' should look like {"bot": 123}'), ['target.bot number']);
  assert.deepEqual(readings('target: expected {bot_ref: "202"}'), ['target.bot_ref string'], 'bare keys; a quoted number is a string');
  assert.deepEqual(readings("the field args wants {'dest': {'bot': <int>}}"), ['args.dest.bot number'], 'single quotes, nested');
  assert.deepEqual(readings('field "payload" must be {"text": <string>, "lang": "en"}'), ['payload.text string', 'payload.lang string']);
  // The words each reading was read from: its clause.
  assert.equal(read('Error. field "params" must be {"botId": <integer>}; check it')[0]!.words, 'field "params" must be {"botId": <integer>}');
});

test('an example of the whole body names each field from the body down, the command among them', () => {
  assert.deepEqual(readings('Malformed command. Example: {"op": "goto", "to": {"bot": 42}}'), ['op =goto', 'to.bot number']);
  assert.deepEqual(readings('{"error":"bad_body","example":{"action":"goto","target":{"bot_id":1}}}'), ['action =goto', 'target.bot_id number']);
});

test('a list of the values a field takes: the known one is what it asks for, the others are no fields', () => {
  assert.deepEqual(readings("'op' is invalid; allowed: 'goto', 'hold', 'close'"), ['op =goto']);
  assert.deepEqual(readings('op_code: expected goto | hold_call | close'), ['op_code =goto']);
  assert.deepEqual(readings('kind must be either "goto" or "transfer_chat"'), ['kind =goto']);
  assert.deepEqual(readings('{"errors":[{"field":"mode","allowed":["goto","park_dialog"]}]}'), ['mode =goto']);
  // A list of fields, no value among them, stays a list of fields.
  assert.deepEqual(readings("missing 'bot_id', 'botId' or \"BotID\""), ['bot_id', 'botId', 'BotID']);
});

test('a type named in words, in the clause of its field', () => {
  assert.deepEqual(readings("'to.bot' must be a number; 'note.body' must be text"), ['to.bot number', 'note.body']);
  assert.deepEqual(readings('dest[bot] should be a whole number'), ['dest.bot number']);
  assert.deepEqual(readings('{"errors":[{"field":"to.bot","expected":"int64"}]}'), ['to.bot number']);
});

test('a plain word that opens a clause asking for something is the field it asks of; a word for the body is not', () => {
  assert.deepEqual(readings('Invalid request: mode must be "goto"'), ['mode =goto']);
  assert.deepEqual(readings('target is required (an integer)'), ['target number']);
  assert.deepEqual(readings('Body must be a JSON object. It must not be empty'), []);
});

test('any JSON error object: a field named under a key of its own, its message about it', () => {
  assert.deepEqual(readings('{"ok":false,"error":{"code":"invalid_argument","argument":"dest","message":"should look like {\\"bot\\": 7}"}}'), [
    'dest.bot number',
  ]);
  assert.deepEqual(readings('{"violations":[{"propertyPath":"dest.bot","title":"This value should be of type int."}]}'), ['dest.bot number']);
  assert.deepEqual(readings('{"success":false,"errors":[{"at":"/args/bot","says":"a number, please"}]}'), ['args.bot number']);
  // Codes and identifiers are no fields: a string without a space is read for a type or a value only.
  assert.deepEqual(readings('{"error":"invalid_request","reason":"VALIDATION_FAILED","kind":"bad_param"}'), []);
  assert.deepEqual(readings('{"key":"BODY_INVALID","message":"see the docs"}'), []);
});

test('a map of fields to their messages, nested as the body is, whole or under a key', () => {
  assert.deepEqual(readings('{"dest":{"bot":["This field is required."]},"op":["\\"x\\" is an invalid choice; use goto"]}'), ['dest.bot', 'op =goto']);
  assert.deepEqual(readings('{"message":"invalid","errors":{"dest":{"bot":["must be an integer"]}}}'), ['dest.bot number']);
  assert.deepEqual(readings('{"non_field_errors":["Invalid data."]}'), []);
});

test("a path under the request's location is read without it first, and as written after", () => {
  assert.deepEqual(readings('{"errors":[{"pointer":"/body/dest/bot","detail":"required"}]}'), ['dest.bot', 'body.dest.bot']);
  assert.deepEqual(readings('{"issues":[{"path":["requestBody","dest","bot"],"message":"Expected number"}]}'), [
    'dest.bot number',
    'requestBody.dest.bot number',
  ]);
  assert.deepEqual(readings('{"errors":{"body":{"dest":{"bot":["required"]}}}}'), ['dest.bot', 'body.dest.bot']);
  // A single field named like a location is that field.
  assert.deepEqual(readings('{"errors":[{"field":"body","message":"must be a string"}]}'), ['body string']);
});
