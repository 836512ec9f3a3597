// Breaking drifts on a dialog moved to another bot (spec §4.2 command goto): it still exists and is accessible, so
// start and stop still lead where §3 says and send still answers 204 (§4.2). Each drift honours the move and breaks
// what comes after it, or loses the dialog outright.
import { movedDialogs, noteMove, type Drift } from './types.ts';

/** Where the suite names what a trigger does to a moved dialog, against the same trigger on a dialog not moved. */
const AFTER_MOVE = 'answer after a move to another bot';
const ACTIONS: readonly string[] = ['postV2ConversationStart', 'postV2ConversationStop', 'postV2ConversationSend'];
/** What a vendor looking a moved dialog up under the bot it was created on fails: every trigger, a second goto too. */
const LOOKED_UP: readonly string[] = [...ACTIONS, 'postV2ConversationCommand'];
/** A UUID no dialog has: the path of a request the vendor looks up in the wrong place. */
const NOWHERE = '00000000-0000-4000-8000-000000000000';

export const MOVE_DRIFTS: Drift[] = [
  {
    name: 'goto-loses-dialog',
    kind: 'breaking',
    clause: '§4.2 command goto moves the dialog to another bot: it still exists (§3) and reads (§4.2)',
    description: 'command goto answers success and the dialog is gone: its reads answer 403 as for a deleted dialog, and no list shows it',
    breaks: [{ operations: ['postV2ConversationCommand'], at: ['bot of the dialog afterwards'] }],
    transformResponse: (ex, reply, sim) => {
      if (ex.operationId !== 'postV2ConversationCommand' || reply.status >= 300 || !ex.dialog) return reply;
      ex.dialog.deleted = true;
      sim.store.touched(ex.dialog);
      return reply;
    },
  },
  {
    name: 'moved-dialog-not-found',
    kind: 'breaking',
    clause: '§3 start and stop act on a dialog that exists and is accessible, §4.2 send answers 204: a moved dialog is one',
    description: 'start, stop, send and a second goto answer 404 for a dialog a goto moved (looked up under the bot it was created on) and change nothing',
    breaks: [{ operations: ['postV2ConversationStart', 'postV2ConversationStop', 'postV2ConversationSend', 'postV2ConversationCommand'], at: [AFTER_MOVE] }],
    beforeRequest: (ex, sim) => {
      if (!LOOKED_UP.includes(ex.operationId ?? '')) return;
      const dialog = sim.store.byV2(ex.params[0] ?? '');
      if (dialog && movedDialogs(sim).has(dialog.id)) ex.params[0] = NOWHERE;
    },
    transformResponse: noteMove,
  },
  {
    name: 'moved-dialog-inert',
    kind: 'breaking',
    clause: '§3 start leads to in process, stop to the operator state, from any state: a moved dialog too',
    description: 'start and stop answer 204 for a dialog a goto moved and leave its status as it was',
    breaks: [{ operations: ['postV2ConversationStart', 'postV2ConversationStop'], at: ['status of the dialog afterwards'] }],
    change: (ex, dialog, change, sim) =>
      ACTIONS.includes(ex.operationId ?? '') && movedDialogs(sim).has(dialog.id) ? { ...change, state: undefined } : change,
    transformResponse: noteMove,
  },
];
