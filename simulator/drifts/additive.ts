// Additive drifts: a new field appears; every documented clause still holds (objects are open, spec §2).
import { eachDialog, editBody, editPagination, LIST_OPS, RECORD_IDS, type Drift } from './types.ts';

export const ADDITIVE_DRIFTS: Drift[] = [
  {
    name: 'list-item-extra-field',
    kind: 'additive',
    clause: '§2.1 dialog list item',
    description: 'list items gain bot_id (integer)',
    reports: ['additive.getV1Conversations.$[*].bot_id', 'additive.getV2Conversations.$[*].bot_id'],
    transformResponse: (ex, reply, sim) =>
      LIST_OPS.has(ex.operationId ?? '')
        ? eachDialog(ex, reply, 'any', (d) => {
            const dialog = typeof d.id === 'number' ? sim.store.byV1(d.id) : sim.store.byV2(String(d.id));
            d.bot_id = dialog?.botId ?? null;
          })
        : reply,
  },
  {
    name: 'pagination-extra-key',
    kind: 'additive',
    clause: '§2.3 meta.pagination',
    description: 'meta.pagination gains has_more (boolean)',
    reports: ['additive.getV1Conversations.$.meta.pagination.has_more', 'additive.getV2Conversations.$.meta.pagination.has_more'],
    transformResponse: editPagination((p) => (p.has_more = Number(p.current_page) < Number(p.total_pages))),
  },
  {
    name: 'record-extra-field',
    kind: 'additive',
    clause: '§2.2 dialog record',
    description: 'records gain tags (array of strings, empty)',
    reports: ['additive.getV1Conversation.$.tags', 'additive.getV2Conversation.$.tags'],
    transformResponse: editBody(RECORD_IDS, (body) => (body.tags = [])),
  },
  {
    name: 'send-message-extra-field',
    kind: 'additive',
    clause: '§2.5 sent bot message',
    description: 'send_message answers also dialog_id (integer)',
    reports: ['additive.postVertexSendMessage.$.dialog_id'],
    transformResponse: editBody(['postVertexSendMessage'], (body, ex) => (body.dialog_id = ex.dialog?.id ?? null)),
  },
  {
    // Harmless to the contract, dangerous to reports: whatever quotes this answer must not quote the token.
    name: 'send-message-echoes-token',
    kind: 'additive',
    clause: '§2.5 sent bot message',
    description: 'send_message answers also the integration token it was given (token, string)',
    reports: ['additive.postVertexSendMessage.$.token'],
    transformResponse: editBody(['postVertexSendMessage'], (body, ex) => {
      const sent = JSON.parse(ex.body.toString('utf8') || '{}') as { token?: unknown };
      body.token = typeof sent.token === 'string' ? sent.token : null;
    }),
  },
];
