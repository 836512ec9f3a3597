// The custom-block API (spec §4.3) with one block: which send_message fields are required, its longest text, and
// which data shapes complete accepts. Complete comes last: it ends the block and its token.
import { test } from './probe-fixtures.ts';
import { MAX_TOKEN_CHECKS } from '../custom-block.ts';
import { observeSizeLimit, searchBound, sizeLimit } from './size-limit.ts';

const SEND_MESSAGE = 'POST /vertex/v1/dialog/send_message';
const COMPLETE = 'POST /vertex/v1/complete';
const FIELD_VARIANTS: Array<[string, Record<string, unknown>]> = [
  ['text without typing', { text: 'dialog-contract probe' }],
  ['typing without text', { typing: false }],
  ['token alone', {}],
];
// Shapes the spec did not observe first: the first one accepted completes the block, so later ones go untried.
const DATA_SHAPES: Array<[string, unknown]> = [
  ['array', ['dialog-contract']],
  ['string', 'dialog-contract'],
  ['number', 1],
  ['boolean', true],
  ['object', { source: 'dialog-contract' }],
  ['null', null],
];

test('records which send_message fields are required, its longest text and the data shapes complete accepts', async ({ anonymousApi, customBlock, probe, observe }) => {
  const limit = sizeLimit('limit.maxTextLength.sendMessage');
  probe(1 + MAX_TOKEN_CHECKS + FIELD_VARIANTS.length + searchBound(limit) + DATA_SHAPES.length + 1, 'the custom-block API');
  const { dialog, token } = await customBlock({ observations: ['vertex.send-message.fields', limit.id, 'vertex.complete.data-shapes'] });

  const fields: Record<string, number> = {};
  for (const [what, body] of FIELD_VARIANTS) fields[what] = (await anonymousApi.call('postVertexSendMessage', { json: { token, ...body } })).status;
  observe({ id: 'vertex.send-message.fields', section: '4.3', operation: SEND_MESSAGE, item: 'whether text and typing are each required (status per body)', observed: fields });

  observe(await observeSizeLimit(anonymousApi, limit, { botId: dialog.botId, vertexToken: token }));

  const shapes: Record<string, number> = {};
  for (const [shape, data] of DATA_SHAPES) {
    shapes[shape] = (await anonymousApi.call('postVertexComplete', { json: { token, data } })).status;
    if (shapes[shape]! < 300) break;
  }
  observe({ id: 'vertex.complete.data-shapes', section: '4.3', operation: COMPLETE, item: 'accepted shapes of complete data (status per shape, until one completes the block)', observed: shapes });
});
