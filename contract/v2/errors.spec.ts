import { eachRun, test, expect } from '../fixtures/api-test.ts';
import { fetchPages, sampleQuery, searchPageCount } from '../api/lists.ts';
import { unknownInteger, unknownUuid } from '../shared/not-found.ts';
import { gotoBot, readV2, shapeOf, wellFormedRequest } from '../api/requests.ts';
import { pairKey, transitionId, TRIGGERS, type Trigger } from '../core/state-table.ts';
import { reach } from '../api/state-walk.ts';
import { judge } from '../judging/matchers.ts';

const ON_A_DIALOG = ['getV2Conversation', 'postV2ConversationStart', 'postV2ConversationStop', 'postV2ConversationSend', 'postV2ConversationCommand'] as const;
eachRun(() => {
  for (const operationId of ON_A_DIALOG) {
    test(`${operationId} answers 404 for a dialog that does not exist`, async ({ api, config, bodies, fake, precondition }) => {
      const shape = shapeOf(operationId);
      // A body the vendor takes, so a vendor that checks the body before the dialog still answers about the dialog.
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', { pairs: [`${operationId} 404`] });
      const uuid = unknownUuid(fake);
      const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config, bodies }), path: { uuid } });
      await expect(res).toMatchContract({ status: 404, because: `for unknown dialog ${uuid}`, section: '7' });
    });
  }

  for (const operationId of ['getV2DialogCreate', 'postV2DialogCreate'] as const) {
    test(`${operationId} answers 404 for a bot that does not exist`, async ({ api, config, bodies, fake }) => {
      const BotID = unknownInteger(fake);
      const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config, bodies }), path: { BotID } });
      await expect(res).toMatchContract({ status: 404, because: `for unknown bot ${BotID}`, section: '7' });
    });

    test(`${operationId} answers 403 for a blocked instance`, async ({ api, config, bodies, precondition }) => {
      precondition(config.blockedBotId !== undefined, 'BLOCKED_BOT_ID is not configured: the target offers no blocked instance to drive 403', {
        pairs: [`${operationId} 403`],
      });
      const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config, bodies }), path: { BotID: config.blockedBotId! } });
      await expect(res).toMatchContract({ status: 403, because: `for blocked bot ${config.blockedBotId}`, section: '5.3' });
    });
  }

  test('command goto to a bot that does not exist is a wrong parameter value: 400 or 404', async ({
    api,
    walk,
    bodies,
    fake,
    precondition,
    validators,
    observe,
  }) => {
    const covers = { pairs: ['postV2ConversationCommand 404'], observations: ['command.unknown-bot'] };
    precondition(!bodies.missing('command'), bodies.missing('command') ?? '', covers);
    // Wrong in the bot only: the dialog is with an operator, the state the lifecycle moves one from (§4.2).
    const { dialog } = await reach(walk, 'operator', covers);
    const target = unknownInteger(fake);
    const moved = await gotoBot(api, bodies, dialog.uuid, target);
    await expect(moved).toMatchContract({
      status: validators.statusesFor('postV2ConversationCommand', 'bad-input'),
      because: `for goto unknown bot ${target}`,
      section: '7',
    });
    observe(moved.operation, {
      id: 'command.unknown-bot',
      section: '7',
      item: 'which of the listed statuses (400, 404) goto to an unknown bot answers',
      observed: moved.status,
      evidence: moved.evidence(),
    });
  });

  // Each action gets a dialog of its own, checked to be completed right before the action: one action that re-opens
  // a dialog (start may, §3: from "any" state) must not leave the next one acting on a dialog no longer completed.
  for (const [index, [trigger, operationId]] of (Object.entries(TRIGGERS) as Array<[Trigger, (typeof TRIGGERS)[Trigger]]>).entries()) {
    test(`${operationId} on a completed dialog answers as §3 and §5.3 allow`, async ({ api, config, bodies, precondition, observe, walked }) => {
      const shape = shapeOf(operationId);
      const covers = {
        pairs: [`${operationId} 403`],
        transitions: [pairKey('completed', trigger)],
        observations: trigger === 'start' ? [transitionId('start', 'completed')] : [],
      };
      if (shape) precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
      const history = { ...sampleQuery(config, config.botId), PageCount: searchPageCount() };
      const completed = (await fetchPages(api, 'v2', history, 5)).flatMap((p) => p.items).filter((item) => item.status === 'completed');
      let uuid: string | undefined;
      // The index keeps the four actions on different dialogs; each is read again right before its action.
      for (const item of completed.slice(index * 3)) {
        if ((await readV2(api, String(item.id))).record?.status === 'completed') {
          uuid = String(item.id);
          break;
        }
      }
      precondition(uuid !== undefined, `no dialog in status "completed" left on bot ${config.botId} (of ${completed.length} listed) to act on`, covers);
      const res = await api.call(operationId, { ...wellFormedRequest(operationId, { config, bodies }), path: { uuid: uuid! } });
      const { response: read, record } = await readV2(api, uuid!);
      const after = record?.status ?? null;
      walked({ pair: pairKey('completed', trigger), status: res.status, after });
      if (trigger !== 'start') {
        await expect(res).toMatchContract({ status: 403, because: `for completed dialog ${uuid}`, section: '5.3' });
        return;
      }
      // Start resumes a dialog from "any" state (§3) and a completed dialog yields 403 (§5.3): either a 403, or a
      // documented start (204) after which the dialog is in process.
      await expect(res).toMatchContract({ status: [403, 204], because: `for start on completed dialog ${uuid}`, section: '3' });
      judge(res, 'effect_of_start', { answered: res.status, after }, { shownBy: [read] });
      observe(res.operation, {
        id: transitionId('start', 'completed'),
        section: '3',
        item: 'start on a dialog completed: refused, or the dialog resumed',
        observed: { status: res.status, after },
      });
    });
  }
});
