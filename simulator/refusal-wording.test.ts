import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RefusalWording } from './config.ts';
import { fillTemplate, wordRefusal } from './refusal-wording.ts';

const wording = (over: Partial<RefusalWording>): RefusalWording => ({
  field: 'dotted',
  wants: 'words',
  types: { integer: 'an integer', string: 'a string' },
  missing: '{field} is missing: {wants}',
  wrongType: '{field} must be {wants}',
  wrongValue: '{field} must be one of: {values}',
  otherValues: ['wait'],
  ...over,
});
const bot = { kind: 'missing', path: 'params.botId', wants: { type: 'integer' } } as const;
const values = ['goto', 'wait'];

test('the field as a dotted path, a pointer, brackets, or its outermost name with the whole value from there', () => {
  const said = (over: Partial<RefusalWording>) => wordRefusal(wording(over), bot, values, false).sentence;
  assert.equal(said({}), 'params.botId is missing: an integer');
  assert.equal(said({ field: 'pointer' }), '/params/botId is missing: an integer');
  assert.equal(said({ field: 'brackets' }), 'params[botId] is missing: an integer');
  const template = {
    field: 'outermost',
    wants: 'template',
    types: { integer: '<integer>', string: '<string>' },
    missing: 'field "{field}" must be {wants}',
  } as const;
  assert.equal(said(template), 'field "params" must be {"botId": <integer>}');
  assert.equal(said({ ...template, wants: 'example' }), 'field "params" must be {"botId": 123}');
  assert.equal(said({ wants: 'example' }), 'params.botId is missing: 123');
});

test('the value a command field takes, and the values listed beside it', () => {
  const command = { kind: 'wrongValue', path: 'op', wants: { value: 'goto' } } as const;
  assert.equal(wordRefusal(wording({}), command, values, false).sentence, 'op must be one of: goto, wait');
  assert.equal(wordRefusal(wording({ wrongValue: '{field} must be {wants}' }), command, values, false).sentence, 'op must be "goto"');
});

test('a message text is exemplified by a sentence, a string bot id by a number in quotes', () => {
  const example = wording({ field: 'outermost', wants: 'example', missing: '{field}: like {wants}' });
  assert.equal(wordRefusal(example, { kind: 'missing', path: 'note.body', wants: { type: 'string' } }, values, true).sentence, 'note: like {"body": "Hello"}');
  assert.equal(wordRefusal(example, { kind: 'missing', path: 'to.bot', wants: { type: 'string' } }, values, false).sentence, 'to: like {"bot": "123"}');
});

test('a custom body: a text filled in, a JSON value whose strings are, a placeholder alone its JSON value', () => {
  const words = wordRefusal(wording({ field: 'outermost', wants: 'example' }), bot, values, false);
  const text = { status: '400', title: 'Bad Request', detail: words.sentence, ...words.text };
  const json = { status: 400, ...words.json };
  assert.equal(fillTemplate('{title}: {detail} ({unknown})', text, json), 'Bad Request: params is missing: {"botId": 123} ({unknown})');
  assert.deepEqual(fillTemplate({ status: '{status}', at: '{segments}', like: '{example}', one: ['{values}'], say: 'at {field}' }, text, json), {
    status: 400,
    at: ['params', 'botId'],
    like: { botId: 123 },
    one: [['goto', 'wait']],
    say: 'at params',
  });
});

test('under its outermost name, a nested command field is asked for with the value inside', () => {
  const command = { kind: 'wrongValue', path: 'request.command', wants: { value: 'goto' } } as const;
  const outermost = wording({ field: 'outermost', wants: 'template', wrongValue: 'field "{field}" must be {wants}' });
  assert.equal(wordRefusal(outermost, command, values, false).sentence, 'field "request" must be {"command": "goto"}');
});
