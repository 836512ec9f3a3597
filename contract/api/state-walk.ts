// Walking spec §3's state table: a trigger on a dialog in a known state, its answer held to the document (any status
// it lists: which states allow a trigger is not shown), the dialog read right after, the step recorded for the state
// × trigger coverage, and a documented success held to where §3 says it leads, from whatever state: start to in
// process ("resume a dialog"), stop to the operator state, command goto to the target bot; a GET create to "created,
// not started". The lifecycle walk and the state-table walk both go through here.
import { checkNotJudged, judge, judgeSoft, matchContract } from '../judging/matchers.ts';
import { MOVED, moveParts, type MoveEvidence } from '../../checks/effects.ts';
import { messageText } from '../../fixtures/builders.ts';
import type { Faker } from '@faker-js/faker';
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { RequestBodies } from '../../http/request-bodies.ts';
import type { ApiClient } from '../target/client.ts';
import type { Dialog, DialogFactory } from './dialog-factory.ts';
import { clockText, runVendorClock } from '../clock/vendor-clock.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { DialogRead } from './requests.ts';
import { gotoBot, sendAsOperator, startDialog, stopDialog } from './requests.ts';
import { NO_DIALOG, pairKey, STATE_WORDS, TRIGGERS, type CreateTrigger, type DialogState, type Trigger } from '../core/state-table.ts';
import type { WalkedStep } from '../core/journal.ts';

export interface Walk {
  api: ApiClient;
  dialogs: DialogFactory;
  bodies: RequestBodies;
  config: SuiteConfig;
  fake: Faker;
  walked: (step: Omit<WalkedStep, 'test'>) => void;
  /** The test's precondition: skips it with the reason, listing what it would have covered. */
  precondition: (holds: boolean, reason: string, covers?: WalkCovers) => void;
}

/** What a walk from a state would have covered: its pair, observation and variants, listed with the reason it was skipped. */
export type WalkCovers = { transitions?: string[]; observations?: string[]; pairs?: string[]; variants?: string[] };

export const isSuccess = (trigger: Trigger, status: number) => (trigger === 'command' ? status >= 200 && status < 300 : status === 204);

/** The bot a goto moves the dialog to: GOTO_BOT_ID, or back to BOT_ID from there. */
const otherBot = (w: Walk, dialog: Dialog) => (dialog.botId === w.config.gotoBotId ? w.config.botId : w.config.gotoBotId);

function perform(w: Walk, trigger: Trigger, dialog: Dialog, text: string): Promise<ApiResponse> {
  if (trigger === 'start') return startDialog(w.api, dialog.uuid);
  if (trigger === 'stop') return stopDialog(w.api, dialog.uuid);
  if (trigger === 'send') return sendAsOperator(w.api, w.bodies, dialog.uuid, text);
  return gotoBot(w.api, w.bodies, dialog.uuid, otherBot(w, dialog));
}

/**
 * One step of the table: the trigger on a dialog in state `from`, its answer held to the document (any status it
 * lists), the dialog read right after, the step recorded; a documented success held to where §3 says it leads.
 * `last`: nothing after it depends on where it led (the test's own step, not one that reaches a state), so a test
 * whose step led elsewhere goes on recording what it saw there, failed at its end.
 */
export async function step(w: Walk, dialog: Dialog, from: DialogState, trigger: Trigger, before: DialogRead, last = false) {
  const judgeEffect = last ? judgeSoft : judge;
  // The text a send carries, for a test that looks for it afterwards.
  const text = messageText(w.fake);
  const listedBefore = trigger === 'command' ? await beforeMove(w, dialog) : false;
  const [source, target] = [dialog.botId, otherBot(w, dialog)];
  const res = await perform(w, trigger, dialog, text);
  matchContract(res);
  const succeeded = isSuccess(trigger, res.status);
  // Moved, as far as the run knows: every lookup from here on (its V1 twin, its list items) searches the target.
  if (trigger === 'command' && succeeded) dialog.botId = target;
  const after = await w.dialogs.read(dialog);
  const status = after.record?.status;
  w.walked({ pair: pairKey(from, trigger), prior: dialog.lastWrite ?? null, status: res.status, after: status ?? null });
  if (!succeeded) return { res, after, text };
  dialog.lastWrite = TRIGGERS[trigger];
  const was = before.record?.status;
  if (trigger === 'start') {
    judgeEffect(res, 'effect_of_start', { answered: res.status, after: status }, { shownBy: [after.response] });
  } else if (trigger === 'stop') {
    judgeEffect(res, 'effect_of_stop', { from: STATE_WORDS[from], before: was, after: status }, { shownBy: [after.response] });
  } else if (trigger === 'command') {
    // The list may trail the move: it is read until the dialog shows under the target, then under the source.
    const onTarget = await w.dialogs.listedUnderBot(dialog, target, true);
    const onSource = await w.dialogs.listedUnderBot(dialog, source, false);
    // One dialog in both versions (§1.6): V1's list moves it too, by its integer id (found before the move, else now
    // under the target, then under any bot); waited for once V2's shows the move (a move V2 never shows is the
    // failure already, a second wait would tell nothing more).
    const v1OnTarget = (await w.dialogs.v1IdOf(dialog)) === undefined ? undefined : await w.dialogs.listedUnderBot(dialog, target, onTarget.listed, 'v1');
    const moved: MoveEvidence = {
      read: after.response.status,
      v2: { underTarget: onTarget.listed, underSource: onSource.listed, listedBefore },
      v1: v1OnTarget
        ? { underTarget: v1OnTarget.listed }
        : {
            noTwin: `no V1 list item with its V2 record's name, ip and location under bot ${source} before it, nor under bot ${target} or any bot after it (created since ${onTarget.CreatedFrom})`,
          },
    };
    for (const why of moveParts(moved).unjudged) checkNotJudged(res, 'effect_of_goto', { pointer: MOVED, why });
    judgeEffect(res, 'effect_of_goto', moved, {
      details: {
        target,
        source,
        from: STATE_WORDS[from],
        waitedForTheList: onTarget.waited,
        CreatedFrom: onTarget.CreatedFrom,
        clock: clockText(runVendorClock()),
      },
      shownBy: [after.response],
    });
  }
  return { res, after, text };
}

/**
 * Before a goto, what shows where the dialog is: its V1 id, found by its twin under the bot it is on, and whether the V2
 * list shows it there (read until it does): a dialog listed before the move and nowhere after it was lost by the move.
 */
async function beforeMove(w: Walk, dialog: Dialog): Promise<boolean> {
  await w.dialogs.v1IdOf(dialog);
  return (await w.dialogs.listedUnderBot(dialog, dialog.botId, true)).listed;
}

/** A create (§3, from no dialog) and the state it leaves the dialog in, read at once; the step recorded. */
export async function created(w: Walk, via: 'v1-get' | 'v2-get' | 'v2-post', variables?: Record<string, string>) {
  const made = await w.dialogs.create(via, variables ? { variables } : {});
  const read = await w.dialogs.read(made.dialog);
  const operationId = made.response.operationId as CreateTrigger;
  w.walked({ pair: pairKey(NO_DIALOG, operationId), prior: null, status: made.response.status, after: read.record?.status ?? null });
  made.dialog.lastWrite = operationId;
  if (via !== 'v2-post') {
    // "created, not started": not the state start leads to, nor the one that ends a dialog (§3).
    const status = read.record?.status;
    judge(made.response, 'effect_of_create', { after: status }, { shownBy: [read.response] });
    made.dialog.notStartedStatus = status;
  }
  return { ...made, read, variables: variables ?? {} };
}

/**
 * A dialog brought into `state` through the documented steps, each checked as it goes; with its last read. Which
 * states allow start and stop is not shown (§3): the operator state is reached by a stop from in process, or, where
 * start is refused on a dialog not started, from that dialog; a state no step reaches skips the test with the reason.
 */
export async function reach(w: Walk, state: Exclude<DialogState, 'completed'>, covers: WalkCovers): Promise<{ dialog: Dialog; read: DialogRead }> {
  if (state === 'created' || state === 'started') {
    const { dialog, read } = await created(w, state === 'created' ? 'v1-get' : 'v2-post');
    return { dialog, read };
  }
  const { dialog, read } = await reach(w, 'created', covers);
  const started = await step(w, dialog, 'created', 'start', read);
  const resumed = isSuccess('start', started.res.status);
  if (state === 'in-process') {
    w.precondition(resumed, `start on a dialog ${STATE_WORDS.created} answered ${started.res.status}: no dialog in process to walk from`, covers);
    return { dialog, read: started.after };
  }
  const from = resumed ? 'in-process' : 'created';
  const stopped = await step(w, dialog, from, 'stop', resumed ? started.after : read);
  w.precondition(
    isSuccess('stop', stopped.res.status),
    `stop on a dialog ${STATE_WORDS[from]} answered ${stopped.res.status}: no dialog with an operator to walk from`,
    covers,
  );
  return { dialog, read: stopped.after };
}
