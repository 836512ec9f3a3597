// Breaking drifts on the state machine (spec §3): the call succeeds but the state does not move, or a completed
// dialog is accepted.
import type { DialogChange } from '../store.ts';
import type { Drift } from './types.ts';

/** A change hook that drops one part of the change for one operation. */
function drop(operationId: string, part: keyof DialogChange): Drift['change'] {
  return (ex, _dialog, change) => (ex.operationId === operationId ? { ...change, [part]: undefined } : change);
}

export const TRANSITION_DRIFTS: Drift[] = [
  {
    name: 'stop-keeps-status',
    kind: 'breaking',
    clause: '§3 stop moves the dialog to operator',
    description: 'stop answers 204 but the status does not change',
    change: drop('postV2ConversationStop', 'state'),
  },
  {
    name: 'start-keeps-status',
    kind: 'breaking',
    clause: '§3 start moves the dialog to in-process',
    description: 'start answers 204 but the status does not change',
    change: drop('postV2ConversationStart', 'state'),
  },
  {
    name: 'command-ignored',
    kind: 'breaking',
    clause: '§4.2 command goto moves the dialog to the target bot',
    description: 'command answers success but the dialog stays on its bot',
    change: drop('postV2ConversationCommand', 'botId'),
  },
  {
    name: 'completed-accepts-start',
    kind: 'breaking',
    clause: '§5.3 a completed dialog yields 403',
    description: 'start on a completed dialog answers 204 (the dialog stays completed)',
    transformResponse: (ex, reply) =>
      ex.operationId === 'postV2ConversationStart' && reply.status === 403 && ex.dialog?.state === 'completed' && !ex.dialog.deleted
        ? { status: 204 }
        : reply,
  },
];
