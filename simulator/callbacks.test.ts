// The call to a custom block's URL (spec §6.1: request shape not shown) in every shape config.callback allows:
// the method, the encoding of the fields, dotted field names, and the token in a header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DeepPartial, SimulatorConfig } from './config.ts';
import { blockListener, simulator, type Delivery } from './test-support.ts';

interface Shape {
  name: string;
  callback: DeepPartial<SimulatorConfig['callback']>;
  check(delivery: Delivery, created: { dialogId: number; dialogUUID: string }): string;
}

/** Each shape checks the call and returns the token it carried. */
const SHAPES: Shape[] = [
  {
    name: 'JSON POST (the default)',
    callback: {},
    check: (d, c) => {
      assert.deepEqual([d.method, d.contentType], ['POST', 'application/json']);
      assert.deepEqual(JSON.parse(d.raw), { token: d.fields.token, dialog_id: c.dialogId, dialog_uuid: c.dialogUUID, bot_id: 303 });
      return String(d.fields.token);
    },
  },
  {
    name: 'JSON PUT with the token nested three deep',
    callback: { method: 'PUT', fields: { token: 'block.integration.token', dialogId: 'dialog.id', dialogUuid: 'dialog.uuid', botId: 'block.bot_id' } },
    check: (d, c) => {
      assert.deepEqual([d.method, d.contentType], ['PUT', 'application/json']);
      const body = JSON.parse(d.raw);
      assert.deepEqual(body, { block: { integration: { token: body.block.integration.token }, bot_id: 303 }, dialog: { id: c.dialogId, uuid: c.dialogUUID } });
      return body.block.integration.token;
    },
  },
  {
    name: 'form POST with flat dotted names',
    callback: { encoding: 'form', fields: { token: 'integration.token', dialogId: 'conversation_id' } },
    check: (d, c) => {
      assert.equal(d.method, 'POST');
      assert.match(d.contentType ?? '', /^application\/x-www-form-urlencoded/);
      const form = new URLSearchParams(d.raw);
      assert.deepEqual([...form.keys()], ['integration.token', 'conversation_id', 'dialog_uuid', 'bot_id']);
      assert.deepEqual([form.get('conversation_id'), form.get('dialog_uuid'), form.get('bot_id')], [String(c.dialogId), c.dialogUUID, '303']);
      return form.get('integration.token')!;
    },
  },
  {
    name: 'multipart POST with the token in X-Integration-Token',
    callback: { encoding: 'multipart', tokenHeader: 'X-Integration-Token', fields: { dialogUuid: 'dialog.uuid' } },
    check: (d, c) => {
      assert.equal(d.method, 'POST');
      assert.match(d.contentType ?? '', /^multipart\/form-data; boundary=/);
      assert.deepEqual(d.fields, { dialog_id: String(c.dialogId), 'dialog.uuid': c.dialogUUID, bot_id: '303' });
      assert.match(d.raw, /name="dialog\.uuid"/);
      return String(d.headers['x-integration-token']);
    },
  },
  {
    name: 'GET with the fields in the query string',
    callback: { encoding: 'query', method: 'GET', fields: { botId: null } },
    check: (d, c) => {
      assert.deepEqual([d.method, d.contentType, d.raw], ['GET', undefined, '']);
      assert.deepEqual(Object.keys(d.fields), ['token', 'dialog_id', 'dialog_uuid']);
      assert.deepEqual([d.fields.dialog_id, d.fields.dialog_uuid], [String(c.dialogId), c.dialogUUID]);
      return String(d.fields.token);
    },
  },
  {
    name: 'POST with the fields in the query string and no body',
    callback: { encoding: 'query' },
    check: (d) => {
      assert.deepEqual([d.method, d.raw], ['POST', '']);
      return String(d.fields.token);
    },
  },
  {
    name: 'JSON of dialog ids only with Authorization: Bearer',
    callback: { tokenHeader: 'authorization', fields: { token: 'token', dialogId: 'dialogId', dialogUuid: 'dialogUUID', botId: null } },
    check: (d, c) => {
      assert.deepEqual(JSON.parse(d.raw), { dialogId: c.dialogId, dialogUUID: c.dialogUUID });
      const auth = String(d.headers.authorization);
      assert.match(auth, /^Bearer [A-Za-z0-9]{40}$/);
      return auth.slice('Bearer '.length);
    },
  },
];

describe('custom-block callback shapes', () => {
  let listener: Awaited<ReturnType<typeof blockListener>>;
  before(async () => {
    listener = await blockListener();
  });
  after(() => listener.close());

  for (const shape of SHAPES) {
    it(`delivers the integration token as ${shape.name}`, async () => {
      const sim = await simulator({ callbackUrl: listener.url, config: { callback: shape.callback } });
      try {
        const created = (await sim.call('POST', '/api/v2/dialog/303/create', { body: { response: true } })).json();
        const token = shape.check(await listener.next(), created);
        const sent = await sim.call('POST', '/api/vertex/v1/dialog/send_message', { body: { token, text: 'Hello' } });
        assert.equal(sent.status, 200, 'the delivered token is the live one');
      } finally {
        await sim.close();
      }
    });
  }
});
