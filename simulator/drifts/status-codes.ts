// Breaking drifts on status codes and content types.
import { JSON_TYPE } from '../exchange.ts';
import { BASIC_AUTH_OPS, RECORD_IDS, swapStatus, type Drift } from './types.ts';

const FILE_OPS = new Set(['getV1File', 'getV2File']);

export const STATUS_CODE_DRIFTS: Drift[] = [
  {
    name: 'start-200-with-body',
    kind: 'breaking',
    clause: '§4.2 start answers 204 with no body',
    description: 'start answers 200 with {"status":"ok"}',
    breaks: [{ operations: ['postV2ConversationStart'], at: ['status'] }],
    transformResponse: swapStatus(204, 200, ['postV2ConversationStart'], { status: 'ok' }),
  },
  {
    name: 'unknown-dialog-200',
    kind: 'breaking',
    clause: '§7 404 when the dialog is not found',
    description: 'reading an unknown dialog (V1 or V2) answers 200 with {}',
    breaks: [{ operations: RECORD_IDS, at: ['status'] }],
    transformResponse: swapStatus(404, 200, RECORD_IDS, {}),
  },
  {
    name: 'bad-param-500',
    kind: 'breaking',
    clause: '§7 400 when a parameter has the wrong format',
    description: 'every 400 becomes a 500',
    breaks: [{ operations: BASIC_AUTH_OPS, at: ['status'] }],
    transformResponse: swapStatus(400, 500),
  },
  {
    name: 'wrong-password-403',
    kind: 'breaking',
    clause: '§5.2 a missing or wrong login or password yields 401',
    description: 'missing or wrong credentials answer 403 instead of 401',
    breaks: [{ operations: BASIC_AUTH_OPS, at: ['status'] }],
    transformResponse: swapStatus(401, 403),
  },
  {
    name: 'json-as-text-html',
    kind: 'breaking',
    clause: '§2 JSON bodies (list, record, created ids, sent message) are JSON',
    description: 'JSON success bodies are sent with Content-Type text/html',
    breaks: [
      {
        operations: [
          'getV1Conversations',
          'getV2Conversations',
          'getV1Conversation',
          'getV2Conversation',
          'getV1DialogCreate',
          'postV2DialogCreate',
          'postVertexSendMessage',
        ],
        at: ['content-type'],
      },
    ],
    transformResponse: (_ex, reply) =>
      reply.json !== undefined || reply.contentType === JSON_TYPE ? { ...reply, contentType: 'text/html; charset=utf-8' } : reply,
  },
  {
    name: 'stop-204-with-body',
    kind: 'breaking',
    clause: '§4.2 stop answers 204 (no content)',
    description: 'stop answers 204 announcing a JSON body (Content-Type and a Content-Length of its bytes)',
    breaks: [{ operations: ['postV2ConversationStop'], at: ['body'] }],
    transformResponse: (ex, reply) =>
      ex.operationId === 'postV2ConversationStop' && reply.status === 204 ? { status: 204, json: { status: 'stopped' } } : reply,
  },
  {
    name: 'file-content-length-wrong',
    kind: 'breaking',
    clause: '§4.1 GET /v1/file/{fileId} returns the file itself',
    description: 'a file download announces twice as many bytes as it sends, then closes the connection',
    breaks: [{ operations: ['getV1File', 'getV2File'], at: ['body'] }],
    transformResponse: (ex, reply) => {
      if (!FILE_OPS.has(ex.operationId ?? '') || reply.status !== 200 || reply.raw === undefined) return reply;
      return { ...reply, headers: { ...reply.headers, 'Content-Length': String(2 * Buffer.byteLength(reply.raw) + 1), Connection: 'close' } };
    },
  },
];
