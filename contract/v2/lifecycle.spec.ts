import { eachRunApart, test, expect } from '../fixtures/api-test.ts';
import { bodyShape } from '../../lib/shape.ts';
import { created, isSuccess, step } from '../api/state-walk.ts';
import { expectDialogMatchesListItem } from '../api/record-vs-list.ts';

eachRunApart(() => {
  test('walks a dialog through create, start, stop, send and command goto as documented', async ({ walk, observe, heldEffect, precondition, bodies }) => {
    // Created without starting it through V1, whose answer names the dialog (§2.4): on a busy target a dialog created
    // through V2 GET (answer not shown) may not be told apart from others created at the same moment.
    const { dialog, read: fresh } = await created(walk, 'v1-get');
    await expect(fresh.response).toMatchContract({ status: 200, because: 'for a dialog just created', section: '4.2' });
    observe('getV1DialogCreate', {
      id: 'status.created-not-started',
      section: '3',
      item: 'exact status string of a created, not started dialog',
      observed: fresh.record!.status,
      evidence: fresh.response.evidence(),
    });

    // Which states allow start and stop is not shown (§3): a dialog start refuses is stopped as it was created.
    const started = await test.step('start resumes the dialog: a 204 leaves it in process', async () => step(walk, dialog, 'created', 'start', fresh));
    const resumed = isSuccess('start', started.res.status);

    const stopped = await test.step('stop connects an operator: 204, status changes to the operator state', async () => {
      const { res, after } = await step(walk, dialog, resumed ? 'in-process' : 'created', 'stop', resumed ? started.after : fresh);
      precondition(isSuccess('stop', res.status), `stop answered ${res.status}: no dialog with an operator to send to and move`, {
        pairs: ['postV2ConversationSend 204', 'postV2ConversationCommand 2XX'],
        observations: ['status.operator', 'response.command'],
      });
      observe('postV2ConversationStop', {
        id: 'status.operator',
        section: '3',
        item: 'exact status string of the operator state',
        observed: after.record!.status,
        evidence: after.response.evidence(),
      });
      return after;
    });

    const missing = bodies.missing('send') ?? bodies.missing('command');
    precondition(missing === undefined, missing ?? '', {
      pairs: ['postV2ConversationSend 204', 'postV2ConversationCommand 2XX'],
      observations: ['response.command'],
    });

    await test.step('an operator sends a message: 204, and it is the last message of the dialog', async () => {
      // A message a whole second after the create: `updated` and `duration` have whole seconds, so a message in the
      // creation's second would show neither moving, nor a duration in the wrong unit. Counted from the create's
      // answer, by when the dialog existed: from its request, a create met late (a busy target, a slow network)
      // left less than a second, a duration of 0 in any unit.
      const since = dialog.createdBefore ?? Date.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, since + 1050 - Date.now())));
      const { res: sent, after, text } = await step(walk, dialog, 'operator', 'send', stopped);
      await expect(sent).toMatchContract({
        status: 204,
        because: `for a body carrying the text in the run's shape (${bodies.shapes.send.how})`,
        section: '4.2',
      });
      // Whether an operator's message moves `updated` is the vendor's choice: §2.1 calls it the time of the last
      // message, §4.1 filters on the respondent's last message. Recorded; held only to a --contract-from baseline.
      const [was, now] = [stopped.record?.updated, after.record?.updated];
      heldEffect(sent, {
        id: 'send.moves-updated',
        section: '2.1',
        item: "whether an operator's message moves updated (the time of the last message, §2.1; the Updated filters read the respondent's, §4.1)",
        at: 'updated of the dialog afterwards',
        observed: typeof now !== 'string' || now === '' ? 'no time' : now === was ? 'the time before' : 'a later time',
      });
      // The record is its list item plus data (§2.2) for this dialog too, right after its last message.
      await expectDialogMatchesListItem(walk.api, dialog, after, walk.config.listSettleSeconds, 'a dialog after a message');
      const added = (after.record?.data.length ?? 0) > (stopped.record?.data.length ?? 0);
      observe(sent.operation, {
        id: 'send.in-record',
        section: '2.2',
        item: 'whether an operator message shows in the dialog record (a data item added, its text among the answers)',
        observed: { dataItemAdded: added, textInData: (after.record?.data ?? []).some((d) => d.answer === text) },
      });
    });

    await test.step('command goto moves the dialog to the target bot', async () => {
      const { res: moved } = await step(walk, dialog, 'operator', 'command', stopped);
      await expect(moved).toMatchContract({
        status: '2XX',
        because: `for goto an existing bot in the run's shape (${bodies.shapes.command.how})`,
        section: '4.2',
      });
      observe('postV2ConversationCommand', {
        id: 'response.command',
        section: '4.2',
        item: 'success response of command',
        observed: { status: moved.status, body: bodyShape(moved.text) },
        evidence: moved.evidence(),
      });
    });
  });
});
