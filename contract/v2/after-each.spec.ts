// Spec §3 and §4.2: each trigger tried right after each write the state table's walk does not lead up to (it tries
// every trigger after a V1 GET create, a POST create, a start and a stop): after a V2 GET create, after an operator's
// message and after a move to another bot. A success leads where §3 says (state-walk.ts). A moved dialog still exists
// and is accessible, so a trigger on it is also held to the same trigger on a dialog in the same state that was not
// moved (the checks `effect_of_*.after_move`): which states allow a trigger is the vendor's, a move changes none of it.
import { eachRunApart, test } from '../fixtures/api-test.ts';
import { shapeOf } from '../api/requests.ts';
import { created, isSuccess, reach, step, type Walk, type WalkCovers } from '../api/state-walk.ts';
import { judge } from '../judging/matchers.ts';
import { STATE_WORDS, TRIGGERS, type DialogState, type Trigger } from '../core/state-table.ts';
import { afterId } from '../../report/variants.ts';

/** The writes tried before each trigger here, in the words of the tests' titles. */
const PRIORS = { getV2DialogCreate: 'a V2 GET create', send: "an operator's message", command: 'a move to another bot' } as const;
type Prior = keyof typeof PRIORS;

/**
 * The state a message or a move is made in, before each trigger: one the trigger's effect shows from (stop from in
 * process; start, send and a second move on a dialog with an operator, as the lifecycle sends and moves).
 */
const MADE_IN: Record<Trigger, 'in-process' | 'operator'> = { start: 'operator', stop: 'in-process', send: 'operator', command: 'operator' };

/** The check that holds a trigger on a moved dialog to the same trigger on one not moved. */
const AFTER_MOVE = {
  start: 'effect_of_start.after_move',
  stop: 'effect_of_stop.after_move',
  send: 'effect_of_send.after_move',
  command: 'effect_of_goto.after_move',
} as const satisfies Record<Trigger, string>;

const operationOf = (prior: Prior) => (prior === 'getV2DialogCreate' ? prior : TRIGGERS[prior]);

/**
 * A dialog right after the prior write, and the state it is in: a message or a move made in `state` that left its
 * status as it was (what they do to a status is not stated; a dialog they moved elsewhere is walked from nowhere here).
 */
async function rightAfter(w: Walk, prior: Exclude<Prior, 'getV2DialogCreate'>, state: 'in-process' | 'operator', covers: WalkCovers) {
  const { dialog, read } = await reach(w, state, covers);
  const { res, after } = await step(w, dialog, state, prior, read);
  w.precondition(
    isSuccess(prior, res.status),
    `${prior} on a dialog ${STATE_WORDS[state]} answered ${res.status}: nothing to try after ${PRIORS[prior]}`,
    covers,
  );
  const [was, now] = [read.record?.status, after.record?.status];
  w.precondition(
    now === was,
    `${PRIORS[prior]} left the dialog "${now}", not the status "${was}" it had: the state after it is not one the walk knows`,
    covers,
  );
  return { dialog, read: after };
}

eachRunApart(() => {
  for (const prior of Object.keys(PRIORS) as Prior[]) {
    for (const trigger of Object.keys(TRIGGERS) as Trigger[]) {
      const moved = prior === 'command' ? '; taken on the moved dialog where taken on one not moved' : '';
      test(`${trigger} right after ${PRIORS[prior]}: a success leads where §3 and §4.2 say${moved}`, async ({ walk: w, bodies }) => {
        const covers = { variants: [afterId(TRIGGERS[trigger], operationOf(prior))] };
        for (const shape of new Set([shapeOf(TRIGGERS[trigger]), prior === 'getV2DialogCreate' ? undefined : shapeOf(TRIGGERS[prior])]))
          if (shape) w.precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
        if (prior === 'getV2DialogCreate') {
          const { dialog, read } = await created(w, 'v2-get');
          await step(w, dialog, 'created', trigger, read);
          return;
        }
        const state: DialogState = prior === 'send' ? 'operator' : MADE_IN[trigger];
        // The same trigger on a dialog in the same state, not moved: what the vendor takes there.
        const notMoved = prior === 'command' ? await reach(w, state, covers).then(({ dialog, read }) => step(w, dialog, state, trigger, read)) : undefined;
        const { dialog, read } = await rightAfter(w, prior, state, covers);
        const { res } = await step(w, dialog, state, trigger, read);
        if (!notMoved) return;
        judge(
          res,
          AFTER_MOVE[trigger],
          { notMoved: notMoved.res.status, moved: res.status },
          { details: { bot: dialog.botId, state: STATE_WORDS[state] }, shownBy: [notMoved.res] },
        );
      });
    }
  }
});
