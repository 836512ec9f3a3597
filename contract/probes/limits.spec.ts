// Hidden size limits (spec §8.3, §8.4): the largest accepted value of each, found with ⌈log2 range⌉ + 2 requests at
// most, and how the first larger value is refused.
import { test, adopt } from './probe-fixtures.ts';
import { sendBodyCandidates } from '../../fixtures/body-candidates.ts';
import { messageText } from '../../fixtures/builders.ts';
import { sendAsOperator, stopDialog } from '../steps.ts';
import { observeSizeLimit, searchBound, sizeLimit } from './size-limit.ts';

test('records the largest PageCount the list accepts and how a larger one is refused', async ({ api, config, probe, observe }) => {
  const limit = sizeLimit('limit.maxPageCount');
  probe(searchBound(limit), limit.item);
  observe(await observeSizeLimit(api, limit, { botId: config.botId, textField: 'text' }));
});

test('records the longest text send accepts and how a longer one is refused', async ({ api, dialogs, fake, probe, observe }) => {
  const limit = sizeLimit('limit.maxTextLength.send');
  // Create (and find) a dialog, connect an operator, find the body field, search, stop it again.
  probe(2 + 1 + sendBodyCandidates('').length + searchBound(limit) + 1, limit.item);
  const { dialog } = await dialogs.create('v2-get');
  await stopDialog(api, dialog.uuid);
  const sent = await sendAsOperator(api, dialog.uuid, messageText(fake));
  if (!sent.accepted) throw new Error(`could not observe ${limit.item}: send accepted none of the candidate bodies (${JSON.stringify(sent.tried)})`);
  const textField = Object.keys(JSON.parse(sent.accepted) as Record<string, unknown>)[0]!;
  observe(await observeSizeLimit(api, limit, { botId: dialog.botId, dialogUuid: dialog.uuid, textField }));
});

test('records the largest variables create accepts and how larger ones are refused', async ({ api, config, dialogs, probe, observe }) => {
  const limit = sizeLimit('limit.maxVariablesBytes');
  // Every accepted value creates a dialog, stopped after the test: twice the search's bound at most.
  probe(2 * searchBound(limit), limit.item);
  const createdAfter = Date.now();
  const observation = await observeSizeLimit(api, limit, { botId: config.botId, textField: 'text' }, (res) => {
    const uuid = res.json<{ dialogUUID?: unknown }>()?.dialogUUID;
    if (typeof uuid === 'string') adopt(dialogs, uuid, config.botId, createdAfter);
  });
  observe(observation);
});
