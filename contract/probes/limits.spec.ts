// Hidden size limits (spec §8.3, §8.4): the largest accepted value of each, found with ⌈log2 range⌉ + 2 requests at
// most, and how the first larger value is refused (or clamped, for PageCount).
import { eachRun, test } from '../fixtures/probe-test.ts';
import { stopDialog } from '../api/requests.ts';
import { boundOf, runSizeLimit, sizeLimit } from '../api/size-limit.ts';

eachRun(() => {
  test('records the largest PageCount the list accepts and how a larger one is refused or clamped', async ({ api, config, probe, observe }) => {
    const limit = sizeLimit('limit.maxPageCount');
    probe(boundOf(limit), limit.item, { observations: [limit.id] });
    observe(await runSizeLimit(api, limit, { botId: config.botId }));
  });

  test('records the longest text send accepts and how a longer one is refused', async ({ api, dialogs, bodies, probe, observe, precondition }) => {
    const limit = sizeLimit('limit.maxTextLength.send');
    precondition(!bodies.missing('send'), bodies.missing('send') ?? '', { observations: [limit.id] });
    // Create (and find) a dialog, connect an operator, search, stop it again; nothing when the run found it already.
    const bound = boundOf(limit);
    probe(bound === 0 ? 0 : 2 + 1 + bound + 1, limit.item, { observations: [limit.id] });
    if (bound === 0) return observe(await runSizeLimit(api, limit, { botId: 0 }));
    const { dialog } = await dialogs.create('v1-get');
    await stopDialog(api, dialog.uuid);
    observe(await runSizeLimit(api, limit, { botId: dialog.botId, dialogUuid: dialog.uuid, sendBody: bodies.shapes.send.template! }));
  });

  test('records the largest variables create accepts and how larger ones are refused', async ({ api, config, dialogs, probe, observe }) => {
    const limit = sizeLimit('limit.maxVariablesBytes');
    // Every accepted value creates a dialog, stopped after the test: twice the search's bound at most.
    probe(2 * boundOf(limit), limit.item, { observations: [limit.id] });
    const createdAfter = Date.now();
    const observation = await runSizeLimit(api, limit, { botId: config.botId }, (res) => {
      const uuid = res.json<{ dialogUUID?: unknown }>()?.dialogUUID;
      if (typeof uuid === 'string') dialogs.adopt(uuid, config.botId, createdAfter);
    });
    observe(observation);
  });
});
