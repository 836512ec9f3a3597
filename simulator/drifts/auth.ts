// Breaking drifts on authentication (spec §5).
import { emptyReply, jsonReply } from '../exchange.ts';
import { BASIC_AUTH_OPS, type Drift } from './types.ts';

const VERTEX_OPS = new Set(['postVertexSendMessage', 'postVertexComplete']);

export const AUTH_DRIFTS: Drift[] = [
  {
    name: 'auth-ignored',
    kind: 'breaking',
    clause: '§5.2 a missing or wrong login or password yields 401',
    description: 'V1/V2 requests are served normally whatever their Authorization header',
    breaks: [{ operations: BASIC_AUTH_OPS, at: ['status'] }],
    beforeRequest: (ex, sim) => {
      const { login, password } = sim.config.auth;
      ex.authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
    },
  },
  {
    name: 'vertex-token-ignored',
    kind: 'breaking',
    clause: '§5.4 an invalid integration token yields 403',
    description: 'send_message and complete succeed with any token (200 / 204)',
    breaks: [{ operations: ['postVertexSendMessage', 'postVertexComplete'], at: ['status'] }],
    transformResponse: (ex, reply, sim) => {
      if (reply.status !== 403 || sim.config.blocked || !VERTEX_OPS.has(ex.operationId ?? '')) return reply;
      return ex.operationId === 'postVertexComplete'
        ? emptyReply(204)
        : jsonReply(200, { message_id: sim.store.nextMessageId++, created_at: Math.floor(sim.now() / 1000) });
    },
  },
];
