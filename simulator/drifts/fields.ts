// Breaking drifts on fields: a field removed, renamed or retyped.
import { eachDialog, editBody, RECORD_IDS, type Drift } from './types.ts';

export const FIELD_DRIFTS: Drift[] = [
  {
    name: 'v2-source-removed',
    kind: 'breaking',
    clause: '§2.1 source is a string in V2 list items and records',
    description: 'V2 list items and records lose the source field',
    breaks: [{ operations: ['getV2Conversations', 'getV2Conversation'], at: ['/*/source', '/source'] }],
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'v2', (d) => delete d.source),
  },
  {
    name: 'v1-source-present',
    kind: 'breaking',
    clause: '§2.1 source is absent in V1',
    description: 'V1 list items and records carry the source field V2 has',
    breaks: [{ operations: ['getV1Conversations', 'getV1Conversation'], at: ['/*/source', '/source'] }],
    transformResponse: (ex, reply, sim) => eachDialog(ex, reply, 'v1', (d) => (d.source = sim.config.seed.sources[0])),
  },
  {
    name: 'v1-id-string',
    kind: 'breaking',
    clause: '§2.1 id is an integer in V1',
    description: 'V1 list items and records carry id as a string ("1042")',
    breaks: [{ operations: ['getV1Conversations', 'getV1Conversation'], at: ['/*/id', '/id'] }],
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'v1', (d) => (d.id = String(d.id))),
  },
  {
    name: 'v2-id-integer',
    kind: 'breaking',
    clause: '§2.1 id is a UUID string in V2',
    description: 'V2 list items and records carry the V1 integer id instead of the UUID',
    breaks: [{ operations: ['getV2Conversations', 'getV2Conversation'], at: ['/*/id', '/id'] }],
    transformResponse: (ex, reply, sim) => eachDialog(ex, reply, 'v2', (d) => (d.id = sim.store.byV2(String(d.id))?.id ?? 0)),
  },
  {
    name: 'duration-string',
    kind: 'breaking',
    clause: '§2.1 duration is an integer number of seconds',
    description: 'duration is sent as a string ("125") in V1 and V2',
    breaks: [{ operations: ['getV1Conversations', 'getV2Conversations', 'getV1Conversation', 'getV2Conversation'], at: ['/*/duration', '/duration'] }],
    transformResponse: (ex, reply) => eachDialog(ex, reply, 'any', (d) => (d.duration = String(d.duration))),
  },
  {
    name: 'updated-renamed',
    kind: 'breaking',
    clause: '§2.1 updated is the date-time of the last message',
    description: 'updated is renamed updated_at in V1 and V2',
    breaks: [{ operations: ['getV1Conversations', 'getV2Conversations', 'getV1Conversation', 'getV2Conversation'], at: ['/*/updated', '/updated'] }],
    transformResponse: (ex, reply) =>
      eachDialog(ex, reply, 'any', (d) => {
        d.updated_at = d.updated;
        delete d.updated;
      }),
  },
  {
    name: 'data-variable-missing',
    kind: 'breaking',
    clause: '§2.2 every data item has variable (string or null)',
    description: 'data items of records lose the variable field',
    breaks: [{ operations: RECORD_IDS, at: ['/data/*/variable'] }],
    transformResponse: (ex, reply) =>
      eachDialog(ex, reply, 'any', (d) => {
        if (Array.isArray(d.data)) for (const item of d.data as Array<Record<string, unknown>>) delete item.variable;
      }),
  },
  {
    name: 'created-at-milliseconds',
    kind: 'breaking',
    clause: '§2.5 created_at is a Unix timestamp (seconds)',
    description: 'send_message answers created_at in milliseconds',
    breaks: [{ operations: ['postVertexSendMessage'], at: ['/created_at'] }],
    transformResponse: editBody(['postVertexSendMessage'], (body) => (body.created_at = Number(body.created_at) * 1000)),
  },
  {
    name: 'send-message-id-string',
    kind: 'breaking',
    clause: '§2.5 message_id is an integer',
    description: 'send_message answers message_id as a string',
    breaks: [{ operations: ['postVertexSendMessage'], at: ['/message_id'] }],
    transformResponse: editBody(['postVertexSendMessage'], (body) => (body.message_id = String(body.message_id))),
  },
  {
    name: 'v1-create-integer-id',
    kind: 'breaking',
    clause: '§2.4 V1 create answers dialogId as a UUID string',
    description: 'GET /v1/dialog/{BotID}/create answers the integer id in dialogId',
    breaks: [{ operations: ['getV1DialogCreate'], at: ['/dialogId'] }],
    transformResponse: editBody(['getV1DialogCreate'], (body, _ex, sim) => (body.dialogId = sim.store.byV2(String(body.dialogId))?.id ?? 0)),
  },
  {
    name: 'v2-create-missing-uuid',
    kind: 'breaking',
    clause: '§2.4 POST /v2/dialog/{BotID}/create with response true answers dialogUUID',
    description: 'POST create answers dialogId only, without dialogUUID',
    breaks: [{ operations: ['postV2DialogCreate'], at: ['/dialogUUID'] }],
    transformResponse: editBody(['postV2DialogCreate'], (body) => delete body.dialogUUID),
  },
  {
    name: 'data-deleted-string',
    kind: 'breaking',
    clause: '§2.2 deleted of a data item is a boolean',
    description: 'deleted of data items is sent as the string "true" or "false"',
    breaks: [{ operations: RECORD_IDS, at: ['/data/*/deleted'] }],
    transformResponse: (ex, reply) =>
      eachDialog(ex, reply, 'any', (d) => {
        if (Array.isArray(d.data)) for (const item of d.data as Array<Record<string, unknown>>) if ('deleted' in item) item.deleted = String(item.deleted);
      }),
  },
  {
    name: 'created-at-future',
    kind: 'breaking',
    clause: '§2.5 created_at is the Unix timestamp of sending',
    description: 'send_message answers created_at a day in the future',
    breaks: [{ operations: ['postVertexSendMessage'], at: ['/created_at'] }],
    transformResponse: editBody(['postVertexSendMessage'], (body) => (body.created_at = Number(body.created_at) + 86_400)),
  },
];
