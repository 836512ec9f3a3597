// Breaking drifts on the state machine (spec §3): the call succeeds but the state does not move, or a completed
// dialog is accepted.
import { dropChange, type Drift } from './types.ts';

export const TRANSITION_DRIFTS: Drift[] = [
  {
    name: 'stop-keeps-status',
    kind: 'breaking',
    clause: '§3 stop moves the dialog to operator',
    description: 'stop answers 204 but the status does not change',
    breaks: [{ operations: ['postV2ConversationStop'], at: ['status of the dialog afterwards'] }],
    change: dropChange('postV2ConversationStop', 'state'),
  },
  {
    name: 'start-keeps-status',
    kind: 'breaking',
    clause: '§3 start moves the dialog to in-process',
    description: 'start answers 204 but the status does not change',
    breaks: [{ operations: ['postV2ConversationStart'], at: ['status of the dialog afterwards'] }],
    change: dropChange('postV2ConversationStart', 'state'),
  },
  {
    name: 'command-ignored',
    kind: 'breaking',
    clause: '§4.2 command goto moves the dialog to the target bot',
    description: 'command answers success but the dialog stays on its bot',
    breaks: [{ operations: ['postV2ConversationCommand'], at: ['bot of the dialog afterwards'] }],
    change: dropChange('postV2ConversationCommand', 'botId'),
  },
  {
    // On a vendor that takes any body, acceptance tells nothing: only the baseline's shape, tried first, shows it.
    name: 'lenient-command-ignored',
    kind: 'breaking',
    clause: '§4.2 command goto moves the dialog to the target bot',
    description: 'a vendor that takes any command body answers success and leaves the dialog on its bot',
    breaks: [{ operations: ['postV2ConversationCommand'], at: ['bot of the dialog afterwards'] }],
    config: { command: { lenient: true } },
    change: dropChange('postV2ConversationCommand', 'botId'),
  },
  {
    name: 'completed-accepts-start',
    kind: 'breaking',
    clause: '§5.3 a completed dialog yields 403',
    description: 'start on a completed dialog answers 204 (the dialog stays completed)',
    breaks: [{ operations: ['postV2ConversationStart'], at: ['status of the dialog afterwards'] }],
    transformResponse: (ex, reply) =>
      ex.operationId === 'postV2ConversationStart' && reply.status === 403 && ex.dialog?.state === 'completed' && !ex.dialog.deleted ? { status: 204 } : reply,
  },
];
