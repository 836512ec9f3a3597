// Spec §4.2: POST /v2/dialog/{BotID}/create takes `response` and `variables` in the query and in the JSON body, and
// says neither place wins. Each is sent in each place alone and in both with one value, which must mean there what the
// spec says it means; in both with two values, which one wins is observed. §4.1, §4.2: both GET creates take variables
// in the query, with the meaning POST gives them (effect_of_create.variables in checks/effects.ts).
import { eachRun, test, expect } from '../fixtures/api-test.ts';
import { dialogVariables } from '../../fixtures/builders.ts';
import type { Faker } from '@faker-js/faker';
import type { ApiResponse } from '../core/api-response.ts';
import type { DialogRead, DialogRecord } from '../api/requests.ts';
import type { Dialog } from '../api/dialog-factory.ts';
import { readV2 } from '../api/requests.ts';
import { settle } from '../target/settle.ts';
import { judgeSoft } from '../judging/matchers.ts';
import { responseWins, whichWins } from '../judging/variant-places.ts';
import { variablesShown } from '../../checks/effects.ts';

/** Where a create's inputs go: its query and its JSON body. */
type Places = { query?: Record<string, string | boolean>; json?: Record<string, string | boolean> };

/** Variables of their own for one create, none of whose values another create of the test was given. */
function freshVariables(fake: Faker, taken: Set<string>): Record<string, string> {
  for (;;) {
    const variables = dialogVariables(fake);
    if (Object.values(variables).every((v) => !taken.has(v))) {
      for (const v of Object.values(variables)) taken.add(v);
      return variables;
    }
  }
}

/** A dialog's data, read again until `done` holds or LIST_SETTLE_S: a vendor may record what a create passed a moment later. */
async function dataOf(read: () => Promise<DialogRead>, done: (data: DialogRecord['data']) => boolean, settleSeconds: number) {
  const found = await settle(read, (r) => done(r.record?.data ?? []), settleSeconds);
  return found.value;
}

eachRun(() => {
  test('POST create honours response true in the query alone, in the JSON body alone and in both: 200 with the identifiers; false in each: no identifiers; the two disagreeing are recorded', async ({
    api,
    config,
    dialogs,
    observe,
  }) => {
    const create = (places: Places) => dialogs.track(config.botId, () => api.call('postV2DialogCreate', { path: { BotID: config.botId }, ...places }));
    const PLACES = [
      ['in the query alone', (value: boolean) => ({ query: { response: value } })],
      ['in the JSON body alone', (value: boolean) => ({ json: { response: value } })],
      ['in the query and the JSON body', (value: boolean) => ({ query: { response: value }, json: { response: value } })],
    ] as const;
    for (const [words, places] of PLACES) {
      const res = await create(places(true));
      await expect.soft(res).toMatchContract({ status: 200, because: `for POST create with response true ${words}`, section: '4.2' });
      // The identifiers name the dialog it made (§2.4).
      const uuid = res.json<{ dialogUUID?: unknown }>()?.dialogUUID;
      if (typeof uuid === 'string')
        await expect
          .soft((await readV2(api, uuid)).response)
          .toMatchContract({ status: 200, because: 'for the dialogUUID POST create answered', section: '4.2' });
      // With response false the status and body are not shown: a success that carries no identifiers is all that is asked.
      const sent: Places = places(false);
      const withoutIds = await create(sent);
      await expect
        .soft(withoutIds)
        .toMatchContract({ status: '2XX', because: `for POST create with response false ${words}`, section: '4.2', bodyNotShown: true });
      judgeSoft(
        withoutIds,
        'created_dialog_identified.not_with_response_false',
        { sent: { query: sent.query?.response, body: sent.json?.response }, answer: withoutIds.text },
        { details: { response: `false ${words}` } },
      );
    }
    const ids = (res: ApiResponse) => typeof res.json<{ dialogUUID?: unknown }>()?.dialogUUID === 'string';
    const disagreeing = [
      await create({ query: { response: true }, json: { response: false } }),
      await create({ query: { response: false }, json: { response: true } }),
    ];
    for (const res of disagreeing)
      await expect.soft(res).toMatchContract({
        status: '2XX',
        because: 'for POST create with response true in one place and false in the other',
        section: '4.2',
        bodyNotShown: true,
      });
    observe('postV2DialogCreate', {
      id: 'response.create.both-places',
      section: '4.2',
      item: 'which response takes effect when the query and the JSON body disagree (neither is said to win)',
      observed: responseWins(ids(disagreeing[0]!), ids(disagreeing[1]!)),
    });
  });

  test('POST create passes variables in the query alone, in the JSON body alone and in both alike: each shows in its dialog as the others do; two disagreeing are recorded', async ({
    api,
    config,
    dialogs,
    fake,
    observe,
  }) => {
    const taken = new Set<string>();
    const create = async (words: string, places: Places) => {
      const res = await dialogs.track(config.botId, () =>
        api.call('postV2DialogCreate', { path: { BotID: config.botId }, query: places.query, json: { response: true, ...places.json } }),
      );
      await expect(res).toMatchContract({ status: 200, because: `for POST create with response true and variables ${words}`, section: '4.2' });
      return { res, uuid: res.json<{ dialogUUID: string }>()!.dialogUUID };
    };
    const made = [];
    for (const words of ['in the query alone', 'in the JSON body alone', 'in both, agreeing'] as const) {
      const variables = freshVariables(fake, taken);
      const text = JSON.stringify(variables);
      const places =
        words === 'in the query alone'
          ? { query: { variables: text } }
          : words === 'in the JSON body alone'
            ? { json: { variables: text } }
            : { query: { variables: text }, json: { variables: text } };
      made.push({ words, variables, ...(await create(words, places)) });
    }
    const reads: DialogRead[] = [];
    for (const m of made) reads.push(await readV2(api, m.uuid));
    const shownOnce = made.map((m, i) => variablesShown(reads[i]!.record?.data ?? [], m.variables));
    // Where one place shows them, the others are read again for LIST_SETTLE_S before they are said not to.
    for (const [i, m] of made.entries())
      if (!shownOnce[i] && shownOnce.some(Boolean))
        reads[i] = await dataOf(
          () => readV2(api, m.uuid),
          (data) => variablesShown(data, m.variables),
          config.listSettleSeconds,
        );
    const shown = made.map((m, i) => variablesShown(reads[i]!.record?.data ?? [], m.variables));
    for (const [i, m] of made.entries()) {
      const shownThrough = made.filter((_, j) => j !== i && shown[j]).map((other) => other.words);
      judgeSoft(
        m.res,
        'effect_of_create.variables',
        { place: m.words, operation: 'postV2DialogCreate', shown: shown[i]!, shownThrough },
        { details: { dialog: m.uuid, variables: m.variables }, shownBy: [reads[i]!.response] },
      );
    }
    // Two values for one name: which the dialog shows is not stated.
    const [inQuery, inBody] = [freshVariables(fake, taken), freshVariables(fake, taken)];
    const both = await create('in both, disagreeing', { query: { variables: JSON.stringify(inQuery) }, json: { variables: JSON.stringify(inBody) } });
    const data = (await readV2(api, both.uuid)).record?.data ?? [];
    observe('postV2DialogCreate', {
      id: 'variables.create.both-places',
      section: '4.2',
      item: 'whose variables a dialog shows when the query and the JSON body disagree (neither is said to win)',
      observed: whichWins(variablesShown(data, inQuery), variablesShown(data, inBody)),
    });
  });

  test('both GET creates pass variables in the query: each shows in its dialog as the other does', async ({ config, dialogs, fake }) => {
    const taken = new Set<string>();
    const made: Array<{ dialog: Dialog; response: ApiResponse; variables: Record<string, string>; read: DialogRead }> = [];
    for (const via of ['v1-get', 'v2-get'] as const) {
      const variables = freshVariables(fake, taken);
      const { dialog, response } = await dialogs.create(via, { variables });
      made.push({ dialog, response, variables, read: await dialogs.read(dialog) });
    }
    const shown = (i: number) => variablesShown(made[i]!.read.record?.data ?? [], made[i]!.variables);
    for (const [i, m] of made.entries())
      if (!shown(i) && shown(1 - i))
        m.read = await dataOf(
          () => dialogs.read(m.dialog),
          (data) => variablesShown(data, m.variables),
          config.listSettleSeconds,
        );
    for (const [i, m] of made.entries()) {
      const other = made[1 - i]!;
      judgeSoft(
        m.response,
        'effect_of_create.variables',
        {
          place: 'in the query',
          operation: m.response.operationId as 'getV1DialogCreate' | 'getV2DialogCreate',
          shown: shown(i),
          shownThrough: shown(1 - i) ? [`through ${other.response.operation.label}`] : [],
        },
        { details: { dialog: m.dialog.uuid, variables: m.variables }, shownBy: [m.read.response] },
      );
    }
  });
});
