// Breaking drifts on status codes and content types.
import { JSON_TYPE } from '../exchange.ts';
import { RECORD_OPS, swapStatus, type Drift } from './types.ts';

export const STATUS_CODE_DRIFTS: Drift[] = [
  {
    name: 'start-200-with-body',
    kind: 'breaking',
    clause: '§4.2 start answers 204 with no body',
    description: 'start answers 200 with {"status":"ok"}',
    transformResponse: swapStatus(204, 200, ['postV2ConversationStart'], { status: 'ok' }),
  },
  {
    name: 'unknown-dialog-200',
    kind: 'breaking',
    clause: '§7 404 when the dialog is not found',
    description: 'reading an unknown dialog (V1 or V2) answers 200 with {}',
    transformResponse: swapStatus(404, 200, [...RECORD_OPS], {}),
  },
  {
    name: 'bad-param-500',
    kind: 'breaking',
    clause: '§7 400 when a parameter has the wrong format',
    description: 'every 400 becomes a 500',
    transformResponse: swapStatus(400, 500),
  },
  {
    name: 'wrong-password-403',
    kind: 'breaking',
    clause: '§5.2 a missing or wrong login or password yields 401',
    description: 'missing or wrong credentials answer 403 instead of 401',
    transformResponse: swapStatus(401, 403),
  },
  {
    name: 'json-as-text-html',
    kind: 'breaking',
    clause: '§2 JSON bodies (list, record, created ids, sent message) are JSON',
    description: 'JSON success bodies are sent with Content-Type text/html',
    transformResponse: (_ex, reply) =>
      reply.json !== undefined || reply.contentType === JSON_TYPE ? { ...reply, contentType: 'text/html; charset=utf-8' } : reply,
  },
];
