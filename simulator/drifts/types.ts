// A drift mode is one realistic vendor mistake (or harmless change), switched on with --drift NAME.
// It is a small object of optional hooks; the request pipeline (http.ts) and the domain (simulation.ts) call the
// hooks of the active drifts, so no handler knows drifts exist.
import type { DeepPartial, SimulatorConfig } from '../config.ts';
import { replyJson, type Exchange, type Reply } from '../exchange.ts';
import type { ChangeHook, PageOffsetHook, Simulation } from '../simulation.ts';
import { ROUTES } from '../routes.ts';
import type { DialogChange } from '../store.ts';
import type { DriftDeclaration } from '../../lib/drift-declaration.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';

/** A drift: its declaration (lib/drift-declaration.ts), the settings it forces and the hooks it bends. */
export interface Drift extends DriftDeclaration {
  /** Settings this drift forces, merged over the user's config. */
  config?: DeepPartial<SimulatorConfig>;
  /** Runs after routing, before auth and the handler; may rewrite the query or the credentials. */
  beforeRequest?(ex: Exchange, sim: Simulation): void;
  /** Bends a state, bot or message change before it applies. */
  change?: ChangeHook;
  /** Moves where a list page starts. */
  pageOffset?: PageOffsetHook;
  /** Rewrites the reply (status, headers, body) before it is written. */
  transformResponse?(ex: Exchange, reply: Reply, sim: Simulation): Reply;
}

export const LIST_IDS: readonly OperationId[] = ['getV1Conversations', 'getV2Conversations'];
export const RECORD_IDS: readonly OperationId[] = ['getV1Conversation', 'getV2Conversation'];
export const LIST_OPS: ReadonlySet<string> = new Set(LIST_IDS);
export const RECORD_OPS: ReadonlySet<string> = new Set(RECORD_IDS);
/** The V1 and V2 operations, those behind HTTP Basic (the vertex ones carry a token). */
export const BASIC_AUTH_OPS: readonly OperationId[] = ROUTES.filter((r) => r.auth === 'basic').map((r) => r.operationId);
const V1_OPS = new Set(['getV1Conversations', 'getV1Conversation']);

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Calls `fn` on every dialog (list item or record) of a successful list or read reply of the given API version. */
export function eachDialog(ex: Exchange, reply: Reply, api: 'v1' | 'v2' | 'any', fn: (dialog: Json) => void): Reply {
  const op = ex.operationId ?? '';
  if (reply.status !== 200 || !(LIST_OPS.has(op) || RECORD_OPS.has(op))) return reply;
  if (api !== 'any' && V1_OPS.has(op) !== (api === 'v1')) return reply;
  const body = replyJson(reply);
  if (!isJson(body)) return reply;
  if (RECORD_OPS.has(op)) fn(body);
  else for (const [key, value] of Object.entries(body)) if (key !== 'meta' && isJson(value)) fn(value);
  return reply;
}

/** The body of a successful reply of one of the operations, or undefined. */
function bodyOf(ex: Exchange, reply: Reply, operationIds: readonly string[]): Json | undefined {
  if (reply.status !== 200 || !operationIds.includes(ex.operationId ?? '')) return undefined;
  const body = replyJson(reply);
  return isJson(body) ? body : undefined;
}

type Transform = NonNullable<Drift['transformResponse']>;

/** A transform that edits, in place, the JSON body of successful replies of the given operations. */
export function editBody(operationIds: readonly string[], edit: (body: Json, ex: Exchange, sim: Simulation) => void): Transform {
  return (ex, reply, sim) => {
    const body = bodyOf(ex, reply, operationIds);
    if (body) edit(body, ex, sim);
    return reply;
  };
}

/** A transform that edits meta.pagination of successful list replies. */
export function editPagination(edit: (pagination: Json) => void): Transform {
  return editBody(LIST_IDS, (body) => {
    const meta = body.meta;
    if (isJson(meta) && isJson(meta.pagination)) edit(meta.pagination);
  });
}

/** Removes query parameters before the handler sees them: the vendor ignores them. */
export function ignoreQuery(...names: string[]): (ex: Exchange) => void {
  return (ex) => {
    if (LIST_OPS.has(ex.operationId ?? '')) for (const name of names) ex.query.delete(name);
  };
}

/** A change hook that drops one part of the change for one operation: the call succeeds, that effect does not happen. */
export function dropChange(operationId: string, part: keyof DialogChange): NonNullable<Drift['change']> {
  return (ex, _dialog, change) => (ex.operationId === operationId ? { ...change, [part]: undefined } : change);
}

/** Rewrites query parameters of list requests before the handler reads them. */
export function rewriteQuery(names: readonly string[], rewrite: (value: string) => string): (ex: Exchange) => void {
  return (ex) => {
    if (!LIST_OPS.has(ex.operationId ?? '')) return;
    for (const name of names) {
      const value = ex.query.get(name);
      if (value !== null) ex.query.set(name, rewrite(value));
    }
  };
}

/** Replaces one status by another (optionally with a JSON body) for the given operations (all when omitted). */
export function swapStatus(from: number, to: number, operationIds?: readonly string[], json?: unknown) {
  return (ex: Exchange, reply: Reply): Reply => {
    if (reply.status !== from || (operationIds && !operationIds.includes(ex.operationId ?? ''))) return reply;
    return json === undefined ? { ...reply, status: to } : { status: to, headers: reply.headers, json };
  };
}

/** The dialogs a goto moved, per simulator (drifts are shared by every simulator of a process). */
const moves = new WeakMap<Simulation, Set<number>>();

/** The V1 ids of the dialogs a goto of this simulator moved so far (noteMove records them). */
export function movedDialogs(sim: Simulation): Set<number> {
  const moved = moves.get(sim) ?? new Set<number>();
  moves.set(sim, moved);
  return moved;
}

/** Records the dialog of a goto that answered success among the moved ones; the reply is left as it is. */
export function noteMove(ex: Exchange, reply: Reply, sim: Simulation): Reply {
  if (ex.operationId === 'postV2ConversationCommand' && reply.status < 300 && ex.dialog) movedDialogs(sim).add(ex.dialog.id);
  return reply;
}
