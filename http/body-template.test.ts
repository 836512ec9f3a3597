import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalTemplate, checkTemplate, pathText, placeholderPaths, renderBody, TemplateError, withValueAt } from './body-template.ts';

test('a placeholder inside a JSON string is the value as text, a bare one the value as JSON', () => {
  assert.deepEqual(renderBody('{"message":"{{text}}"}', { text: 'say "hi"\n' }), { message: 'say "hi"\n' });
  assert.deepEqual(renderBody('{"command":"goto","bot":{{botId}}}', { botId: 202 }), { command: 'goto', bot: 202 });
  assert.deepEqual(renderBody('{"command":"goto","bot":"{{botId}}"}', { botId: 202 }), { command: 'goto', bot: '202' });
  assert.deepEqual(renderBody('{"m":{"t":"pre {{ text }} post"}}', { text: 'x' }), { m: { t: 'pre x post' } });
  assert.deepEqual(renderBody('{"m":{{text}}}', { text: 'a"b' }), { m: 'a"b' });
  // An escaped quote does not end the string it is in.
  assert.deepEqual(renderBody('{"a\\"{{text}}":1}', { text: 'k' }), { 'a"k': 1 });
});

test('templates that cannot serve are refused with one line', () => {
  const refused = (template: string, required: 'text' | 'botId', why: RegExp) =>
    assert.throws(
      () => checkTemplate(template, [required]),
      (err: Error) => err instanceof TemplateError && why.test(err.message) && !err.message.includes('\n'),
    );
  refused('{"message":"{{txt}}"}', 'text', /unknown placeholder \{\{txt\}\}/);
  refused('{"message":"x"}', 'text', /must hold \{\{text\}\}/);
  refused('{"message":"hello {{text}}"}', 'text', /must hold \{\{text\}\} as a whole value/);
  refused('["{{text}}"]', 'text', /must be a JSON object/);
  refused('{"message":{{text}}', 'text', /is not JSON/);
  checkTemplate('{"m":"x \\"q\\" \\u00e9 {{text}}","n":[1,-2.5e3,true,false,null],"o":{}}', []);
});

test("a malformed template's error points into the text the user wrote, not the one with placeholders filled in", () => {
  const error = (template: string) => {
    try {
      checkTemplate(template, []);
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };
  // 27 characters; a filled-in placeholder is longer than the user's {{text}}, and JSON.parse counted in that text.
  assert.equal(
    error('{"message": "{{text}}", }  '),
    `is not JSON: expected a property name in double quotes at character 25 of 27, after '…ssage": "{{text}}", '`,
  );
  assert.equal(error('{"command":"goto","bot":{{botId}} "x":1}'), `is not JSON: expected ',' or '}' at character 35 of 40, after '…to","bot":{{botId}} '`);
  assert.equal(error('{"message":{{text}}'), `is not JSON: expected ',' or '}' at the end, after '{"message":{{text}}'`);
  assert.equal(error('{"a": x}'), `is not JSON: expected a value at character 7 of 8, after '{"a": '`);
  checkTemplate('{"command":"goto","params":{"bot_id":{{botId}}}}', ['botId']);
});

test('placeholder paths say where each value lands and as what', () => {
  assert.deepEqual(placeholderPaths('{"message":{"text":"{{text}}"}}'), [{ name: 'text', path: ['message', 'text'], kind: 'string' }]);
  assert.deepEqual(placeholderPaths('{"command":"goto","bot":"{{botId}}"}'), [{ name: 'botId', path: ['bot'], kind: 'string' }]);
  assert.deepEqual(placeholderPaths('{"c":"goto","a":[{{botId}}]}'), [{ name: 'botId', path: ['a', 0], kind: 'number' }]);
  assert.equal(pathText(['message', 'text']), '$.message.text');
  assert.equal(pathText(['a-b', 0]), '$["a-b"][0]');
});

test('a value is replaced or removed in a copy', () => {
  const body = { message: { text: 'x' }, other: 1 };
  assert.deepEqual(withValueAt(body, ['message', 'text'], 42), { message: { text: 42 }, other: 1 });
  assert.deepEqual(withValueAt(body, ['message', 'text'], undefined), { message: {}, other: 1 });
  assert.deepEqual(body, { message: { text: 'x' }, other: 1 });
});

test('the canonical form drops whitespace outside strings only', () => {
  assert.equal(canonicalTemplate('{ "message" : "a b {{text}}" ,\n "x": {{ botId }} }'), '{"message":"a b {{text}}","x":{{botId}}}');
});
