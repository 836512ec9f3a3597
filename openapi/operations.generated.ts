// Generated from openapi/dialog-bot.openapi.yaml by `npm run generate:api` (openapi/generate.ts): do not edit.
// openapi/generate.test.ts fails when the document has changed since.

/** Every operation of the document, by operationId: its method, its path below /api, and the label QA names it by. */
export const OPERATIONS = {
  getV1Conversations: { method: 'GET', path: '/v1/conversations', label: 'GET /v1/conversations' },
  getV1Conversation: { method: 'GET', path: '/v1/conversation/{id}', label: 'GET /v1/conversation/{id}' },
  getV1DialogCreate: { method: 'GET', path: '/v1/dialog/{BotID}/create', label: 'GET /v1/dialog/{BotID}/create' },
  getV1File: { method: 'GET', path: '/v1/file/{fileId}', label: 'GET /v1/file/{fileId}' },
  getV2Conversations: { method: 'GET', path: '/v2/conversations', label: 'GET /v2/conversations' },
  getV2Conversation: { method: 'GET', path: '/v2/conversation/{uuid}', label: 'GET /v2/conversation/{uuid}' },
  getV2DialogCreate: { method: 'GET', path: '/v2/dialog/{BotID}/create', label: 'GET /v2/dialog/{BotID}/create' },
  postV2DialogCreate: { method: 'POST', path: '/v2/dialog/{BotID}/create', label: 'POST /v2/dialog/{BotID}/create' },
  postV2ConversationStart: { method: 'POST', path: '/v2/conversation/{uuid}/start', label: 'POST /v2/conversation/{uuid}/start' },
  postV2ConversationStop: { method: 'POST', path: '/v2/conversation/{uuid}/stop', label: 'POST /v2/conversation/{uuid}/stop' },
  postV2ConversationSend: { method: 'POST', path: '/v2/conversation/{uuid}/send', label: 'POST /v2/conversation/{uuid}/send' },
  postV2ConversationCommand: { method: 'POST', path: '/v2/conversation/{uuid}/command', label: 'POST /v2/conversation/{uuid}/command' },
  getV2File: { method: 'GET', path: '/v2/file/{fileId}', label: 'GET /v2/file/{fileId}' },
  postVertexComplete: { method: 'POST', path: '/vertex/v1/complete', label: 'POST /vertex/v1/complete' },
  postVertexSendMessage: { method: 'POST', path: '/vertex/v1/dialog/send_message', label: 'POST /vertex/v1/dialog/send_message' },
} as const;

export type OperationId = keyof typeof OPERATIONS;
