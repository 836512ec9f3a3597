import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderBody } from './body-template.ts';
import { learnedCommandCandidates, learnedSendCandidates, type Refusal } from './learned-shapes.ts';

const refused = (template: string, body: string): Refusal => ({ template, status: 400, body });
const templates = (candidates: Array<{ template: string }>) => candidates.map((c) => c.template);

test('send: the text at each field the refusals name, nested as named; a field said to want a number last', () => {
  const learned = learnedSendCandidates([
    refused('{"text":"{{text}}"}', "missing required field 'payload.messageText'"),
    refused('{"message":"{{text}}"}', '{"errors":[{"field":"channel","message":"must be an integer"},{"field":"payload.messageText"}]}'),
  ]);
  assert.deepEqual(templates(learned), ['{"payload":{"messageText":"{{text}}"}}', '{"channel":"{{text}}"}']);
  assert.deepEqual(renderBody(learned[0]!.template, { text: 'hi' }), { payload: { messageText: 'hi' } });
  assert.deepEqual(
    learned[0]!.taughtBy.map((r) => r.template),
    ['{"text":"{{text}}"}'],
    'the refusal that named it first',
  );
});

test('command: "goto" where a refusal asks for it, the bot id where another names the bot, as the type said', () => {
  const learned = learnedCommandCandidates([
    refused('{"command":"goto","bot_id":{{botId}}}', '{"errors":[{"field":"action","message":"must be \\"goto\\""}]}'),
    refused('{"action":"goto","bot_id":{{botId}}}', '{"errors":[{"field":"target.botId","message":"is required: a bot id written as a decimal string"}]}'),
  ]);
  // The type read first; the other after, as a reading may be wrong.
  assert.deepEqual(templates(learned), ['{"action":"goto","target":{"botId":"{{botId}}"}}', '{"action":"goto","target":{"botId":{{botId}}}}']);
  assert.deepEqual(
    learned[0]!.taughtBy.map((r) => r.template),
    ['{"action":"goto","bot_id":{{botId}}}', '{"command":"goto","bot_id":{{botId}}}'],
    'both refusals taught it',
  );
});

test('command: a type not said is tried as a number first, as a string after every number', () => {
  const learned = learnedCommandCandidates([refused('{"command":"goto","bot_id":{{botId}}}', "missing 'target.bot' and 'target.id'")]);
  assert.deepEqual(templates(learned), [
    '{"command":"goto","target":{"bot":{{botId}}}}',
    '{"command":"goto","target":{"id":{{botId}}}}',
    '{"command":"goto","target":{"bot":"{{botId}}"}}',
    '{"command":"goto","target":{"id":"{{botId}}"}}',
  ]);
});

test('command: the bot under a goto object needs no command field; a command field alone gets a guess for the bot', () => {
  assert.deepEqual(templates(learnedCommandCandidates([refused('{"goto":{{botId}}}', "missing required field 'goto.bot_id': an integer")])), [
    '{"goto":{"bot_id":{{botId}}}}',
    '{"goto":{"bot_id":"{{botId}}"}}',
  ]);
  // The guess is only there to be refused: its refusal names the vendor's bot field.
  assert.deepEqual(templates(learnedCommandCandidates([refused('{"command":"goto","bot_id":{{botId}}}', '\'request.command\' must be "goto"')])), [
    '{"request":{"command":"goto","bot_id":{{botId}}}}',
  ]);
});

test('no body from paths that collide, nor from refusals that name nothing', () => {
  // "goto" asked for at `target` and the bot at `target.id`: one holds the other.
  assert.deepEqual(templates(learnedCommandCandidates([refused('{}', "'target' must be \"goto\"; missing 'target.id' (integer)")])), []);
  assert.deepEqual(learnedCommandCandidates([refused('{}', 'Bad Request'), refused('{}', '')]), []);
  assert.deepEqual(learnedSendCandidates([refused('{}', '{"type":"about:blank","status":400}')]), []);
});

test('each learned body says what was read to build it, and from which words', () => {
  const [learned] = learnedCommandCandidates([
    refused('{"dc_no_such_field":"goto"}', 'Bad Request: field "command" must be "goto"'),
    refused('{"command":"goto","bot_id":{{botId}}}', 'Bad Request: field "params" must be {"botId": <integer>}'),
  ]);
  assert.equal(learned!.template, '{"command":"goto","params":{"botId":{{botId}}}}');
  assert.deepEqual(learned!.readings, [
    { field: 'params.botId', wants: 'a number', words: 'Bad Request: field "params" must be {"botId": <integer>}' },
    { field: 'command', wants: '"goto"', words: 'Bad Request: field "command" must be "goto"' },
  ]);
});
