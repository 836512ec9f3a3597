// Variables that are not a JSON object serialized as a string (spec §4.2): whether create refuses them, and how.
import { eachRun, test } from '../fixtures/probe-test.ts';

const MALFORMED: Array<[string, unknown]> = [
  ['not JSON', '{"client_name": '],
  ['a JSON array', '["client_name"]'],
  ['a JSON string', '"client_name"'],
  ['an object instead of a string', { client_name: 'dialog-contract' }],
];

eachRun(() => {
  test('records how create answers malformed variables', async ({ api, config, dialogs, probe, observe }) => {
    // An accepted one creates a dialog, stopped after the test.
    probe(2 * MALFORMED.length, 'how create answers malformed variables', { observations: ['variables.malformed'] });
    const createdAfter = Date.now();
    const seen: Record<string, number> = {};
    for (const [what, variables] of MALFORMED) {
      const res = await api.call('postV2DialogCreate', { path: { BotID: config.botId }, json: { response: true, variables } });
      seen[what] = res.status;
      const uuid = res.json<{ dialogUUID?: unknown }>()?.dialogUUID;
      if (typeof uuid === 'string') dialogs.adopt(uuid, config.botId, createdAfter);
    }
    observe('postV2DialogCreate', {
      id: 'variables.malformed',
      section: '8.4',
      item: 'status of create for variables that are not a JSON object serialized as a string',
      observed: seen,
    });
  });
});
