import { test, expect } from '../fixtures.ts';
import { fetchPages, historyQuery } from '../lists.ts';
import { unknownInteger, unknownUuid } from '../shared/not-found.ts';
import { wellFormedRequest } from '../shared/requests.ts';
import { gotoBot } from '../steps.ts';

for (const operationId of ['getV2Conversation', 'postV2ConversationStart', 'postV2ConversationStop', 'postV2ConversationSend', 'postV2ConversationCommand']) {
  test(`${operationId} answers 404 for a dialog that does not exist`, async ({ api, config, fake }) => {
    const uuid = unknownUuid(fake);
    const request = wellFormedRequest(operationId, { config });
    const res = await api.call(operationId, { ...request, path: { uuid } });
    await expect(res).toMatchContract({ status: 404, because: `for unknown dialog ${uuid}`, section: '7' });
  });
}

for (const operationId of ['getV2DialogCreate', 'postV2DialogCreate']) {
  test(`${operationId} answers 404 for a bot that does not exist`, async ({ api, config, fake }) => {
    const BotID = unknownInteger(fake);
    const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config }), path: { BotID } });
    await expect(res).toMatchContract({ status: 404, because: `for unknown bot ${BotID}`, section: '7' });
  });

  test(`${operationId} answers 403 for a blocked instance`, async ({ api, config }) => {
    test.skip(config.blockedBotId === undefined, 'BLOCKED_BOT_ID is not configured: the target offers no blocked instance to drive 403');
    const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config }), path: { BotID: config.blockedBotId! } });
    await expect(res).toMatchContract({ status: 403, because: `for blocked bot ${config.blockedBotId}`, section: '5.3' });
  });
}

test('command goto answers 404 for a target bot that does not exist', async ({ api, dialogs, fake }) => {
  const { dialog } = await dialogs.create('v2-post');
  const target = unknownInteger(fake);
  const moved = await gotoBot(api, dialog.uuid, target);
  await expect(moved.response).toMatchContract({ status: 404, because: `for goto unknown bot ${target} (tried ${JSON.stringify(moved.tried)})`, section: '7' });
});

test('start, stop, send and command answer 403 for a completed dialog', async ({ api, config, observe }) => {
  const history = { ...historyQuery(config.botId), PageCount: 40 };
  const completed = (await fetchPages(api, 'v2', history, 5)).flatMap((p) => p.items).find((item) => item.status === 'completed');
  test.skip(!completed, `no dialog in status "completed" on bot ${config.botId}: 403 for a completed dialog cannot be driven`);
  const uuid = String(completed!.id);
  const read = await api.call('getV2Conversation', { path: { uuid } });
  await expect(read).toMatchContract();
  observe({ id: 'read.completed', section: '5.3', operation: read.operation.label, item: 'reading a completed dialog', observed: read.status });
  for (const operationId of ['postV2ConversationStart', 'postV2ConversationStop', 'postV2ConversationSend', 'postV2ConversationCommand']) {
    const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config }), path: { uuid } });
    await expect.soft(res).toMatchContract({ status: 403, because: `for completed dialog ${uuid}`, section: '5.3' });
  }
});
