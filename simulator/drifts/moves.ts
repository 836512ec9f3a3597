// Breaking drifts on a dialog moved to another bot (spec §4.2 command goto): it still exists and is accessible, so
// start and stop still lead where §3 says and send still answers 204 (§4.2). Each drift honours the move and breaks
// what comes after it, or loses the dialog outright.
import type { Drift } from './types.ts';

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
];
