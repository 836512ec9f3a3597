// Breaking drifts that answer as documented and do nothing, or something else: the call succeeds, its effect does
// not happen (spec §3, §4.2, §4.3).
import { emptyReply } from '../exchange.ts';
import { dropChange, editBody, type Drift } from './types.ts';
import { NEW_DIALOG_LISTED } from '../../checks/dialogs.ts';

export const EFFECT_DRIFTS: Drift[] = [
  {
    name: 'v2-lists-miss-new-dialogs',
    kind: 'breaking',
    clause: '§1.3, §4.2 the V2 list lists dialogs: one created through the API too',
    description: 'V2 lists never show a dialog created through the API (its page and numbers as if it did not exist); V1 lists and reads do',
    breaks: [{ operations: ['getV2Conversations', 'getV2DialogCreate'], at: [NEW_DIALOG_LISTED] }],
    transformResponse: editBody(['getV2Conversations'], (body, _ex, sim) => {
      const { meta, ...items } = body as Record<string, unknown> & { meta?: { pagination?: Record<string, number> } };
      const kept = Object.values(items).filter((item) => sim.store.byV2(String((item as { id?: unknown }).id))?.origin !== 'api');
      for (const key of Object.keys(items)) delete body[key];
      for (const [i, item] of kept.entries()) body[String(i)] = item;
      const p = meta?.pagination;
      if (p) [p.total, p.count] = [p.total! - (Object.keys(items).length - kept.length), kept.length];
    }),
  },
  {
    name: 'custom-block-call-without-token',
    kind: 'breaking',
    clause: '§1.5, §6.1 the service passes an integration token to the external service at the block URL',
    description: 'the call to the block URL carries the dialog and the bot but no integration token, in any field or header',
    breaks: [{ operations: ['postV2DialogCreate'], at: ['the call'] }],
    config: { callback: { sendsToken: false } },
  },
  {
    name: 'send-no-effect',
    kind: 'undocumented',
    clause: '§4.2 send: 204, message sent (where a sent message shows is not stated: §2.1, §4.1)',
    description: 'send answers 204 but the message never reaches the dialog (updated and data stay as they were)',
    reports: ['send.moves-updated'],
    change: dropChange('postV2ConversationSend', 'message'),
  },
  {
    name: 'response-true-ignored',
    kind: 'breaking',
    clause: '§4.2 POST create with response true answers 200 with dialogId and dialogUUID',
    description: 'POST create answers 204 without the identifiers even when response is true',
    breaks: [{ operations: ['postV2DialogCreate'], at: ['status'] }],
    transformResponse: (ex, reply) => (ex.operationId === 'postV2DialogCreate' && reply.status === 200 ? emptyReply(204) : reply),
  },
  {
    name: 'command-wrong-bot',
    kind: 'breaking',
    clause: '§4.2 command goto moves the dialog to the target bot',
    description: 'command goto answers success but moves the dialog to another bot than the one named',
    breaks: [{ operations: ['postV2ConversationCommand'], at: ['bot of the dialog afterwards'] }],
    change: (ex, dialog, change) => {
      if (ex.operationId !== 'postV2ConversationCommand' || change.botId === undefined) return change;
      return { ...change, botId: dialog.botId };
    },
  },
  {
    name: 'complete-data-object-only',
    kind: 'breaking',
    clause: '§4.3 complete: data is any JSON value',
    description: 'complete refuses data that is not an object or null (403)',
    breaks: [{ operations: ['postVertexComplete'], at: ['status'] }],
    beforeRequest: (ex) => {
      if (ex.operationId !== 'postVertexComplete') return;
      try {
        const { data, token } = JSON.parse(ex.body.toString('utf8')) as { data?: unknown; token?: unknown };
        if (data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) {
          ex.body = Buffer.from(JSON.stringify({ token: `${String(token)}-refused` }));
        }
      } catch {
        // not JSON: the handler answers it
      }
    },
  },
  {
    name: 'create-ids-mismatch',
    kind: 'breaking',
    clause: '§2.4 dialogId and dialogUUID identify the created dialog',
    description: 'POST create answers the dialogId of the dialog created before this one',
    breaks: [{ operations: ['postV2DialogCreate'], at: ['/dialogId'] }],
    transformResponse: editBody(['postV2DialogCreate'], (body) => {
      if (typeof body.dialogId === 'number') body.dialogId -= 1;
    }),
  },
];
