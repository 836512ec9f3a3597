// The custom-block API (spec §4.3) with one block: which send_message fields are required and its longest text.
// Complete comes last: it ends the block and its token.
import { eachRun, test } from '../fixtures/probe-test.ts';
import { MAX_TOKEN_CHECKS } from '../api/custom-block.ts';
import { boundOf, runSizeLimit, sizeLimit } from '../api/size-limit.ts';

const FIELD_VARIANTS: Array<[string, Record<string, unknown>]> = [
  ['text without typing', { text: 'dialog-contract probe' }],
  ['typing without text', { typing: false }],
  ['token alone', {}],
];

eachRun(() => {
  test('records which send_message fields are required and its longest text', async ({ anonymousApi, customBlock, probe, observe }) => {
    const limit = sizeLimit('limit.maxTextLength.sendMessage');
    probe(1 + MAX_TOKEN_CHECKS + FIELD_VARIANTS.length + boundOf(limit) + 1 + 1, 'the custom-block API', {
      observations: ['vertex.send-message.fields', limit.id],
    });
    const { dialog, token } = await customBlock({ observations: ['vertex.send-message.fields', limit.id] });

    const fields: Record<string, number> = {};
    for (const [what, body] of FIELD_VARIANTS) fields[what] = (await anonymousApi.call('postVertexSendMessage', { json: { token, ...body } })).status;
    observe('postVertexSendMessage', {
      id: 'vertex.send-message.fields',
      section: '4.3',
      item: 'whether text and typing are each required (status per body)',
      observed: fields,
    });

    observe(await runSizeLimit(anonymousApi, limit, { botId: dialog.botId, vertexToken: token }));
    await anonymousApi.call('postVertexComplete', { json: { token, data: null } });
  });
});
