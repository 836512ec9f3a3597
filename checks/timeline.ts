// The exchanges of a run or a recording in time order, with what a reader of them can know without the suite's
// intent: which dialog each names (a V2 UUID; a V1 integer id tied to its UUID by a POST create's answer, which names
// both, or by a V1 and a V2 view that agree on name, ip and location and no other dialog's do), which writes touched
// it and when, and how its reads followed each other. The engine's feeders (checks/engine.ts) assemble their evidence
// from it, the same for the run's journal and for a HAR recorded by anyone. Pure.
import type { OperationId } from '../openapi/operations.generated.ts';
import { jsonOf, type ExchangeEvidence } from './evidence.ts';

/** The operations that write: a create, or a trigger on one dialog. */
export const WRITES: readonly OperationId[] = [
  'getV1DialogCreate',
  'getV2DialogCreate',
  'postV2DialogCreate',
  'postV2ConversationStart',
  'postV2ConversationStop',
  'postV2ConversationSend',
  'postV2ConversationCommand',
];
export const CREATES: readonly OperationId[] = ['getV1DialogCreate', 'getV2DialogCreate', 'postV2DialogCreate'];
export const LISTS: readonly OperationId[] = ['getV1Conversations', 'getV2Conversations'];
export const RECORDS: readonly OperationId[] = ['getV1Conversation', 'getV2Conversation'];

export type Version = 'v1' | 'v2';
export const versionOf = (operationId: OperationId | null): Version => (operationId?.toLowerCase().includes('v1') ? 'v1' : 'v2');

/** A view of one dialog in one answer: its record, or its item in a list. */
export interface View {
  /** Where the exchange stands in time order. */
  at: number;
  e: ExchangeEvidence;
  version: Version;
  kind: 'record' | 'list item';
  fields: Record<string, unknown>;
}

const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const isOk = (e: ExchangeEvidence) => e.response.status >= 200 && e.response.status < 300;
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
/** The identity of a dialog that no write moves (§2.1): its name (number and city), ip and location. */
const identity = (f: Record<string, unknown>) =>
  typeof f.name === 'string' && f.name !== '' ? JSON.stringify([f.name, f.ip ?? null, f.location ?? null]) : undefined;

/** Each answer's list items, read once: the feeders ask for them again and again (an answer never changes). */
const itemsRead = new WeakMap<ExchangeEvidence['response'], Record<string, unknown>[]>();

/** The items of a list answer (keys but meta), each an object. */
export function listItems(e: ExchangeEvidence): Record<string, unknown>[] {
  const known = itemsRead.get(e.response);
  if (known) return known;
  const body = jsonOf(e);
  const items =
    !body || typeof body !== 'object' || Array.isArray(body)
      ? []
      : Object.entries(body as Record<string, unknown>)
          .filter(([key, item]) => key !== 'meta' && item !== null && typeof item === 'object' && !Array.isArray(item))
          .map(([, item]) => item as Record<string, unknown>);
  itemsRead.set(e.response, items);
  return items;
}

/** The pagination numbers of a list answer, when it has them. */
export function paginationOf(e: ExchangeEvidence): Record<string, unknown> | undefined {
  const meta = (jsonOf(e) as { meta?: { pagination?: unknown } } | undefined)?.meta?.pagination;
  return meta && typeof meta === 'object' ? (meta as Record<string, unknown>) : undefined;
}

/** Whether one page of a list holds every dialog its query matches: its total is what the page lists. */
export function wholeList(e: ExchangeEvidence): boolean {
  const p = paginationOf(e);
  return typeof p?.total === 'number' && p.total === listItems(e).length && e.response.status === 200;
}

/** A query without the parameters that only page it: what one walk of pages shares. */
export function queryKey(e: ExchangeEvidence, without: readonly string[] = ['PageNumber']): string {
  return JSON.stringify(
    Object.entries(e.query)
      .filter(([k]) => !without.includes(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export class Timeline {
  /** Every judged exchange, in the order it was sent. */
  readonly exchanges: readonly ExchangeEvidence[];
  /** The V2 UUID of a V1 integer id, where the exchanges tie them. */
  private readonly uuidOfV1 = new Map<string, string>();
  private readonly v1OfUuid = new Map<string, string>();
  /** The writes on each dialog, by their place in time. */
  private readonly writes = new Map<string, number[]>();
  /** The create of each dialog whose create answered its identifier. */
  readonly createOf = new Map<string, number>();
  /** Every view of each dialog, in time order. */
  private readonly views = new Map<string, View[]>();

  constructor(exchanges: readonly ExchangeEvidence[]) {
    this.exchanges = [...exchanges].sort((a, b) => a.startedMs - b.startedMs);
    this.tieVersions();
    for (const [at, e] of this.exchanges.entries()) {
      const dialog = this.written(e);
      if (dialog) this.writes.set(dialog, [...(this.writes.get(dialog) ?? []), at]);
      if (dialog && CREATES.includes(e.operationId!) && !this.createOf.has(dialog)) this.createOf.set(dialog, at);
      for (const view of this.viewsIn(e, at)) {
        const key = this.dialogOfView(view);
        if (key) this.views.set(key, [...(this.views.get(key) ?? []), view]);
      }
    }
  }

  /** The UUID a create's answer names (POST: dialogUUID; V1 GET: dialogId, a UUID, §2.4); none for a V2 GET create (not shown). */
  static createdUuid(e: ExchangeEvidence): string | undefined {
    if (!isOk(e)) return undefined;
    const body = jsonOf(e) as { dialogUUID?: unknown; dialogId?: unknown } | undefined;
    if (e.operationId === 'postV2DialogCreate') return lower(body?.dialogUUID);
    if (e.operationId === 'getV1DialogCreate') return lower(body?.dialogId);
    // A V2 GET create's body is not shown (§4.2): the dialog its recorder found, else the one UUID its body holds.
    if (e.operationId !== 'getV2DialogCreate') return undefined;
    const uuids = [...new Set(e.response.body.match(UUIDS) ?? [])];
    return e.dialog?.toLowerCase() ?? (uuids.length === 1 ? uuids[0]!.toLowerCase() : undefined);
  }

  /**
   * V1 integer ids and V2 UUIDs of one dialog: one identity (name, ip, location) seen under one id on each side, or a
   * POST create naming both, unless the identities say its two ids are two dialogs (that is the create's drift,
   * created_dialog_identified.one_dialog: no other check is to compare them as one).
   */
  private tieVersions(): void {
    const byIdentity = this.identityTies();
    const byUuid = new Map([...byIdentity].map(([v1, uuid]) => [uuid, v1]));
    for (const e of this.exchanges) {
      if (e.operationId !== 'postV2DialogCreate' || !isOk(e)) continue;
      const body = jsonOf(e) as { dialogUUID?: unknown; dialogId?: unknown } | undefined;
      if (typeof body?.dialogUUID !== 'string' || !(typeof body.dialogId === 'number' || typeof body.dialogId === 'string')) continue;
      const [v1, uuid] = [String(body.dialogId), body.dialogUUID.toLowerCase()];
      const contradicted = (byIdentity.has(v1) && byIdentity.get(v1) !== uuid) || (byUuid.has(uuid) && byUuid.get(uuid) !== v1);
      if (!contradicted) this.tie(v1, uuid);
    }
    for (const [v1, uuid] of byIdentity) this.tie(v1, uuid);
  }

  /** V1 ids and UUIDs whose views share one identity that no other id on either side has. */
  private identityTies(): Map<string, string> {
    const seen = { v1: new Map<string, Set<string>>(), v2: new Map<string, Set<string>>() };
    for (const e of this.exchanges)
      for (const view of this.viewsIn(e, 0)) {
        const id = view.version === 'v1' ? view.fields.id : lower(view.fields.id);
        const key = identity(view.fields);
        if (key === undefined || id === undefined || id === null) continue;
        const ids = seen[view.version].get(key) ?? new Set<string>();
        ids.add(String(id));
        seen[view.version].set(key, ids);
      }
    const ties = new Map<string, string>();
    for (const [key, v1] of seen.v1) {
      const v2 = seen.v2.get(key);
      if (v1.size === 1 && v2?.size === 1) ties.set([...v1][0]!, [...v2][0]!);
    }
    return ties;
  }

  private tie(v1: string, uuid: string): void {
    if (this.uuidOfV1.has(v1) || this.v1OfUuid.has(uuid)) return;
    this.uuidOfV1.set(v1, uuid);
    this.v1OfUuid.set(uuid, v1);
  }

  /** The dialog a V1 id names, as its UUID where known, else as "v1:ID" (its V1 views still follow each other). */
  private keyOfV1 = (id: unknown) => (id === undefined || id === null ? undefined : (this.uuidOfV1.get(String(id)) ?? `v1:${String(id)}`));

  /** The V1 id of a dialog, where the exchanges tie it. */
  v1Of = (uuid: string): string | undefined => this.v1OfUuid.get(uuid);

  private dialogOfView(view: View): string | undefined {
    return view.version === 'v1' ? this.keyOfV1(view.fields.id) : lower(view.fields.id);
  }

  /** The dialog an exchange's path names (a read, a trigger), or a create's answer names. */
  dialogOf(e: ExchangeEvidence): string | undefined {
    if (e.pathParams.uuid !== undefined) return e.pathParams.uuid.toLowerCase();
    if (e.pathParams.id !== undefined) return this.keyOfV1(e.pathParams.id);
    return Timeline.createdUuid(e);
  }

  /** The dialog a write touched: a trigger's, a create's (when its answer names it). */
  private written(e: ExchangeEvidence): string | undefined {
    if (!e.operationId || !WRITES.includes(e.operationId)) return undefined;
    return this.dialogOf(e);
  }

  /** The records and list items of an answer, each a view of one dialog. */
  private viewsIn(e: ExchangeEvidence, at: number): View[] {
    if (e.response.status !== 200 || !e.operationId) return [];
    const version = versionOf(e.operationId);
    if (RECORDS.includes(e.operationId)) {
      const fields = jsonOf(e);
      return fields && typeof fields === 'object' && !Array.isArray(fields)
        ? [{ at, e, version, kind: 'record', fields: fields as Record<string, unknown> }]
        : [];
    }
    if (LISTS.includes(e.operationId)) return listItems(e).map((fields) => ({ at, e, version, kind: 'list item' as const, fields }));
    return [];
  }

  /** Every view of a dialog, in time order. */
  viewsOf(dialog: string): readonly View[] {
    return this.views.get(dialog) ?? [];
  }

  /** Every dialog some view shows. */
  dialogs(): string[] {
    return [...this.views.keys()];
  }

  /** The places in time of the writes on a dialog. */
  writesOn(dialog: string): readonly number[] {
    return this.writes.get(dialog) ?? [];
  }

  /** Whether a write on the dialog stands between two places in time (either order), the create excluded when it is the earlier. */
  writeBetween(dialog: string, a: number, b: number): boolean {
    const [from, to] = a < b ? [a, b] : [b, a];
    // A V1 id no exchange ties to its UUID: its writes (by UUID) cannot be told from others', so any write counts.
    if (dialog.startsWith('v1:')) return [...this.writes.values()].some((ws) => ws.some((w) => w > from && w < to));
    return this.writesOn(dialog).some((w) => w > from && w < to);
  }

  /** The last write on a dialog before a place in time. */
  lastWriteBefore(dialog: string, at: number): number | undefined {
    return this.writesOn(dialog)
      .filter((w) => w < at)
      .at(-1);
  }

  /** The bot a create made its dialog on: its path's BotID. */
  static createdOn(e: ExchangeEvidence): string | undefined {
    return e.pathParams.BotID;
  }
}
