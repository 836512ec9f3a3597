// The 15 operations of the OpenAPI document: method, path (after /api) and how the caller authenticates.
export interface Route {
  method: string;
  pattern: RegExp;
  operationId: string;
  /** basic: HTTP Basic (V1, V2); token: integration token in the body (vertex). */
  auth: 'basic' | 'token';
}

const SEGMENT = '([^/]+)';

function route(method: string, path: string, operationId: string, auth: Route['auth'] = 'basic'): Route {
  return { method, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, SEGMENT)}$`), operationId, auth };
}

export const ROUTES: readonly Route[] = [
  route('GET', '/v1/conversations', 'getV1Conversations'),
  route('GET', '/v1/conversation/{id}', 'getV1Conversation'),
  route('GET', '/v1/dialog/{BotID}/create', 'getV1DialogCreate'),
  route('GET', '/v1/file/{fileId}', 'getV1File'),
  route('GET', '/v2/conversations', 'getV2Conversations'),
  route('GET', '/v2/conversation/{uuid}', 'getV2Conversation'),
  route('GET', '/v2/dialog/{BotID}/create', 'getV2DialogCreate'),
  route('POST', '/v2/dialog/{BotID}/create', 'postV2DialogCreate'),
  route('POST', '/v2/conversation/{uuid}/start', 'postV2ConversationStart'),
  route('POST', '/v2/conversation/{uuid}/stop', 'postV2ConversationStop'),
  route('POST', '/v2/conversation/{uuid}/send', 'postV2ConversationSend'),
  route('POST', '/v2/conversation/{uuid}/command', 'postV2ConversationCommand'),
  route('GET', '/v2/file/{fileId}', 'getV2File'),
  route('POST', '/vertex/v1/complete', 'postVertexComplete', 'token'),
  route('POST', '/vertex/v1/dialog/send_message', 'postVertexSendMessage', 'token'),
];

/** The route for (method, path) with its captured parameters, or the methods the path allows (405). */
export function matchRoute(method: string, path: string): { route: Route; params: string[] } | { allowed: string[] } {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { route, params: m.slice(1) };
    allowed.push(route.method);
  }
  return { allowed };
}
