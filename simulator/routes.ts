// The operations of the OpenAPI document: method, path (after /api) and how the caller authenticates.
import { listOperations, loadDocument } from '../openapi/document.ts';
import type { OperationId } from '../openapi/operations.generated.ts';

export interface Route {
  method: string;
  pattern: RegExp;
  operationId: OperationId;
  /** basic: HTTP Basic (V1, V2); token: integration token in the body (vertex). */
  auth: 'basic' | 'token';
}

const SEGMENT = '([^/]+)';

// Read from the document itself, so the simulator serves exactly the operations the contract describes.
export const ROUTES: readonly Route[] = listOperations(loadDocument()).map((op) => ({
  method: op.method,
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, SEGMENT)}$`),
  operationId: op.operationId,
  auth: op.needsBasicAuth ? 'basic' : 'token',
}));

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
