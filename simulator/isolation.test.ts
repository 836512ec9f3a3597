import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from './config.ts';
import { startSimulator } from './server.ts';
import { blockListener, call } from './test-support.ts';

test('simulators in one process each call their own custom-block URL, and the defaults stay as they were', async () => {
  const [first, second] = [await blockListener(), await blockListener()];
  const defaultUrl = DEFAULT_CONFIG.bots.find((b) => b.customBlockUrl)!.customBlockUrl;
  // No config patch: the path on which the resolved config is DEFAULT_CONFIG itself.
  const a = await startSimulator({ port: 0, callbackUrl: first.url, log: () => {} });
  const b = await startSimulator({ port: 0, callbackUrl: second.url, log: () => {} });
  try {
    const created = await call(a.url, 'POST', '/api/v2/dialog/303/create', { body: { response: true } });
    assert.equal(created.status, 200);
    const delivered = await Promise.race([first.next(), new Promise<undefined>((resolve) => setTimeout(resolve, 3000))]);
    assert.equal(delivered?.fields.dialog_uuid, created.json().dialogUUID, 'the first simulator calls its own listener');
    assert.equal(second.received.length, 0);
    assert.equal(DEFAULT_CONFIG.bots.find((bot) => bot.customBlockUrl)!.customBlockUrl, defaultUrl);
  } finally {
    await Promise.all([a.close(), b.close(), first.close(), second.close()]);
  }
});
