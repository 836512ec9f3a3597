import { eachRun, test, expect } from '../fixtures/api-test.ts';
import { unknownInteger } from '../shared/not-found.ts';

eachRun(() => {
  test('GET /v1/conversation/{id} answers 404 for a dialog that does not exist', async ({ api, fake }) => {
    const id = unknownInteger(fake);
    await expect(await api.call('getV1Conversation', { path: { id } })).toMatchContract({ status: 404, because: `for unknown dialog ${id}`, section: '7' });
  });

  test('GET /v1/dialog/{BotID}/create answers 404 for a bot that does not exist', async ({ api, fake }) => {
    const BotID = unknownInteger(fake);
    await expect(await api.call('getV1DialogCreate', { path: { BotID } })).toMatchContract({ status: 404, because: `for unknown bot ${BotID}`, section: '7' });
  });

  test('GET /v1/dialog/{BotID}/create answers 403 for a blocked instance', async ({ api, config, precondition }) => {
    const why = 'BLOCKED_BOT_ID is not configured: the target offers no blocked instance to drive 403';
    precondition(config.blockedBotId !== undefined, why, { pairs: ['getV1DialogCreate 403'] });
    const res = await api.call('getV1DialogCreate', { path: { BotID: config.blockedBotId! } });
    await expect(res).toMatchContract({ status: 403, because: `for blocked bot ${config.blockedBotId}`, section: '5.3' });
  });
});
