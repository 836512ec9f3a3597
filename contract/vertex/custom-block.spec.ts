import { eachRunApart, test, expect } from '../fixtures/api-test.ts';
import { messageText } from '../../fixtures/builders.ts';
import { callbackObservation } from '../api/custom-block.ts';
import type { ApiResponse } from '../core/api-response.ts';
import { readV2 } from '../api/requests.ts';
import { clockText, inVendorClock, runVendorClock } from '../clock/vendor-clock.ts';
import { judge } from '../judging/matchers.ts';

/**
 * created_at is a Unix timestamp in seconds of sending (spec §2.5): held to the send as the run's clock of the
 * application reads it (another of its stamps, so possibly another host's clock).
 */
function expectSentNow(res: ApiResponse, sentAt: number) {
  const clock = runVendorClock();
  const sent = { fromMs: inVendorClock(clock, sentAt, 'early'), toMs: inVendorClock(clock, Date.now(), 'late') };
  judge(res, 'sent_at_conformance', { createdAt: res.json<{ created_at?: unknown }>()?.created_at, sent }, { details: { clock: clockText(clock) } });
}

eachRunApart(() => {
  test('a dialog reaching the custom block hands a token to the block URL; send_message and complete accept it once', async ({
    anonymousApi,
    api,
    customBlock,
    observe,
    fake,
  }) => {
    const { dialog, call, token, tokenAt } = await customBlock({
      pairs: ['postVertexSendMessage 200', 'postVertexComplete 204'],
      observations: ['callback.shape', 'vertex.after-complete.status', 'vertex.token.after-complete'],
    });
    observe({
      id: 'callback.shape',
      section: '6.1',
      item: 'request shape of the custom-block callback',
      observed: callbackObservation(call, tokenAt),
      evidence: JSON.stringify(call.shape),
    });

    // message_id is the "Identifier of the sent message" (§2.5): one per message, so two messages have two.
    const ids: number[] = [];
    for (const typing of [true, false]) {
      const sentAt = Date.now();
      const res = await anonymousApi.call('postVertexSendMessage', { json: { token, text: messageText(fake), typing } });
      await expect(res).toMatchContract({ status: 200, because: `for a valid token (typing ${typing})`, section: '4.3' });
      expectSentNow(res, sentAt);
      const id = res.json<{ message_id: number }>()!.message_id;
      judge(res, 'meaning_conformance.message_id', { messageId: id, earlier: ids });
      ids.push(id);
    }
    const completed = await anonymousApi.call('postVertexComplete', { json: { token, data: { source: 'dialog-contract', tags: [] } } });
    await expect(completed).toMatchContract({ status: 204, because: 'for a valid token and data that is an object', section: '4.3' });
    observe({
      id: 'vertex.after-complete.status',
      section: '4.3',
      item: 'dialog status after the custom block is completed',
      observed: (await readV2(api, dialog.uuid)).record?.status ?? null,
    });

    // Token lifetime is not shown (§5.5): what a finished block's token still opens is recorded, not asserted.
    const reused: Record<string, number> = {};
    for (const [operationId, json] of [
      ['postVertexSendMessage', { token, text: messageText(fake), typing: false }],
      ['postVertexComplete', { token, data: null }],
    ] as const) {
      const res = await anonymousApi.call(operationId, { json });
      await expect(res).toMatchContract();
      reused[res.operation.label] = res.status;
    }
    observe({ id: 'vertex.token.after-complete', section: '5.5', item: 'token lifetime: the token of a completed block, used again', observed: reused });
  });

  // data is "any JSON value" (§4.3); object and null are only what was observed. A block completes once, so each
  // other kind of value completes a block of its own.
  const DATA_KINDS: ReadonlyArray<[string, unknown]> = [
    ['null', null],
    ['a string', 'dialog-contract'],
    ['a number', 2.5],
    ['a boolean', true],
    ['an array', ['dialog-contract', 1, null, { tags: [] }]],
  ];
  for (const [kind, data] of DATA_KINDS) {
    test(`complete takes ${kind} as data: any JSON value`, async ({ anonymousApi, customBlock }) => {
      const { token } = await customBlock({ pairs: ['postVertexComplete 204'], observations: [] });
      const res = await anonymousApi.call('postVertexComplete', { json: { token, data } });
      await expect(res).toMatchContract({ status: 204, because: `for a valid token and data that is ${kind}`, section: '4.3' });
    });
  }

  for (const operationId of ['postVertexSendMessage', 'postVertexComplete'] as const) {
    test(`${operationId} answers 403 for an invalid integration token`, async ({ anonymousApi, fake }) => {
      const token = fake.string.alphanumeric(32);
      const json = operationId === 'postVertexComplete' ? { token, data: null } : { token, text: messageText(fake), typing: false };
      await expect(await anonymousApi.call(operationId, { json })).toMatchContract({ status: 403, because: 'for an invalid token', section: '5.4' });
    });
  }

  // Whether a body that cannot be parsed is "a wrong format" (400) or "an invalid token" (403) is the target's call.
  test('send_message and complete reject a malformed body with a documented 4xx', async ({ anonymousApi, fake, validators }) => {
    for (const raw of ['{"token": ', `{"token": "${fake.string.alphanumeric(8)}", "text": `, '[]', 'null']) {
      for (const operationId of ['postVertexSendMessage', 'postVertexComplete'] as const) {
        const res = await anonymousApi.call(operationId, { raw });
        const allowed = [...validators.statusesFor(operationId, 'bad-input'), ...validators.statusesFor(operationId, 'forbidden')];
        await expect.soft(res).toMatchContract({ status: allowed, because: `for malformed body ${raw}`, section: '7' });
      }
    }
  });
});
