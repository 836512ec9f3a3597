import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestShapes, ShapeFinding } from './body-discovery.ts';
import { RequestBodies } from './request-bodies.ts';

const found = (template: string): ShapeFinding => ({ template, verifiedBy: 'configured', how: 'configured (X)', tried: [] });
const shapes = (send: string | null, command: string | null): RequestShapes => ({
  send: send ? found(send) : { template: null, verifiedBy: null, how: 'undetermined: nothing moved; set SEND_BODY', tried: [] },
  command: command ? found(command) : { template: null, verifiedBy: null, how: 'undetermined: x', tried: [] },
});

test("bodies follow the run's shape; a missing shape says why", () => {
  const bodies = new RequestBodies(shapes('{"message":{"text":"{{text}}"}}', '{"action":"GOTO","target":"{{botId}}"}'));
  assert.deepEqual(bodies.send('hi'), { message: { text: 'hi' } });
  assert.deepEqual(bodies.command(202), { action: 'GOTO', target: '202' });
  assert.equal(bodies.missing('send'), undefined);
  const none = new RequestBodies(shapes(null, null));
  assert.equal(none.missing('send'), 'no send body shape: undetermined: nothing moved; set SEND_BODY');
  assert.throws(() => none.send('x'), /no send body shape/);
});

test('variants change the shape at the places the template names', () => {
  const bodies = new RequestBodies(shapes('{"message":{"text":"{{text}}"},"kind":"operator"}', '{"action":"GOTO","target":"{{botId}}"}'));
  assert.deepEqual(
    bodies.sendLenience('hi').map((v) => [v.what, v.body]),
    [
      ['$.message.text removed', { message: {}, kind: 'operator' }],
      ['$.message.text a number', { message: { text: 42 }, kind: 'operator' }],
      ['$.message.text an object', { message: { text: { text: 'hi' } }, kind: 'operator' }],
      ['an empty object', {}],
      ['an array', ['hi']],
      ['a JSON string', 'hi'],
      ['null', null],
    ],
  );
  assert.deepEqual(
    bodies.commandWrongBot().map((v) => v.body),
    [
      { action: 'GOTO', target: 'no-such-bot' },
      { action: 'GOTO', target: '-1' },
    ],
  );
  assert.deepEqual(
    bodies.commandLenience(202).map((v) => v.what),
    ['$.target removed', '$.action another command', 'an empty object'],
  );
  const numeric = new RequestBodies(shapes('{"t":"{{text}}"}', '{"bot":{{botId}}}'));
  assert.deepEqual(numeric.commandWrongBot()[1]!.body, { bot: -1 });
  assert.deepEqual(
    numeric.commandLenience(1).map((v) => v.what),
    ['$.bot removed', 'an empty object'],
    'no goto literal, no other-command variant',
  );
});
