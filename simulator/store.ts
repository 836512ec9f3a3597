// The one store of dialogs and files. A dialog has both identities (V1 integer id, V2 UUID) and is rendered
// from here for both APIs; rendered list items are cached per dialog until the dialog changes.
import type { SimulatorConfig, StatusKey } from './config.ts';
import { isoSeconds } from './times.ts';

export interface DataItem {
  question: string;
  type: string;
  answer: string;
  variable: string | null;
  /** File-link items only: the link points at `fileId`. */
  fileId?: number;
  deleted?: boolean;
}

/** Where a dialog came from: the seeded history, an API create, or the live stream (live.ts). */
export type Origin = 'seed' | 'api' | 'live';

export interface Dialog {
  id: number;
  uuid: string;
  botId: number;
  state: StatusKey;
  ip: string;
  city: string;
  source: string;
  createdAt: number;
  /** Epoch ms of the last message; null while the dialog has none. */
  lastMessageAt: number | null;
  duration: number;
  /** Undefined until first needed for a seeded dialog: generated then from the seed (see seed.ts), to keep memory low. */
  data?: DataItem[];
  /** The seeded upload of this dialog, rendered as its last data item. */
  fileId?: number;
  deleted: boolean;
  origin: Origin;
  /** Rendered JSON of the V1 / V2 list item; dropped on every change. */
  rendered?: { v1?: string; v2?: string };
  /** With a list lag: what the lists show of the dialog from each time on (seeded dialogs have none: always shown). */
  indexed?: Array<{ at: number; view: IndexedView }>;
}

/** The fields a list reads, as its index last took them. */
type IndexedView = Pick<Dialog, 'botId' | 'state' | 'lastMessageAt' | 'duration' | 'deleted'>;

export interface StoredFile {
  id: number;
  name: string;
  contentType: string;
  bytes: Buffer;
  deleted: boolean;
}

export type ApiVersion = 'v1' | 'v2';

export interface ListQuery {
  botId?: number;
  createdFrom?: number;
  createdTo?: number;
  updatedFrom?: number;
  updatedTo?: number;
}

/** A change to a dialog's state or bot; drifts may alter it before it applies (see drifts/types.ts). */
export interface DialogChange {
  state?: StatusKey;
  botId?: number;
  /** A message sent in the dialog at `at` (epoch ms), optionally recorded as a data item; `updated` stays with movesUpdated false. */
  message?: { at: number; item?: DataItem; movesUpdated?: boolean };
}

/** A set of dialogs with O(1) add, remove and pick by index: the live stream samples from it on every tick. */
class Pool {
  readonly items: Dialog[] = [];
  private readonly at = new Map<Dialog, number>();

  add(dialog: Dialog): void {
    this.at.set(dialog, this.items.length);
    this.items.push(dialog);
  }

  remove(dialog: Dialog): void {
    const i = this.at.get(dialog)!;
    // The last item fills the gap, so removal does not shift the rest.
    const last = this.items.pop()!;
    this.at.delete(dialog);
    if (last !== dialog) {
      this.items[i] = last;
      this.at.set(last, i);
    }
  }
}

export class Store {
  /** Ascending by id, ids consecutive from firstDialogId: the index is the id, the end is the newest dialog. */
  readonly dialogs: Dialog[] = [];
  private readonly byUuid = new Map<string, Dialog>();
  /**
   * Dialogs not seeded (API-created and live ones) by origin and state, kept current by add() and apply(): the
   * candidates of the live stream, found without walking the seeded history.
   */
  private readonly pools = new Map<string, Pool>();
  readonly files = new Map<number, StoredFile>();
  /** Bumped on every change; list responses are cached per revision. */
  revision = 0;
  nextDialogId: number;
  nextFileId: number;
  nextMessageId = 70001;
  /** Absolute base of file links ("http://127.0.0.1:4010"); set once the server listens. */
  linkBase = '';
  /** Generates the data of a seeded dialog on first use. */
  seededData: (dialog: Dialog) => DataItem[] = () => [];
  /** The vendor's clock (server.ts sets it): when the list index takes a change. */
  clock: () => number = Date.now;

  constructor(private readonly config: SimulatorConfig) {
    this.nextDialogId = config.seed.firstDialogId;
    this.nextFileId = config.seed.firstFileId;
  }

  /** Adds a dialog under the next id (its `id` must be nextDialogId). */
  add(dialog: Dialog): Dialog {
    if (dialog.id !== this.nextDialogId) throw new Error(`dialog id ${dialog.id} is not the next id ${this.nextDialogId}`);
    this.dialogs.push(dialog);
    this.byUuid.set(dialog.uuid, dialog);
    if (dialog.origin !== 'seed') this.poolOf(dialog.origin, dialog.state).add(dialog);
    if (dialog.origin !== 'seed') this.reindex(dialog);
    this.nextDialogId++;
    this.revision++;
    return dialog;
  }

  addFile(file: StoredFile): StoredFile {
    this.files.set(file.id, file);
    this.nextFileId = Math.max(this.nextFileId, file.id + 1);
    return file;
  }

  byV1(id: number): Dialog | undefined {
    return this.dialogs[id - this.config.seed.firstDialogId];
  }

  dataOf(dialog: Dialog): DataItem[] {
    return (dialog.data ??= this.seededData(dialog));
  }

  byV2(uuid: string): Dialog | undefined {
    return this.byUuid.get(uuid.toLowerCase());
  }

  bot(id: number) {
    return this.config.bots.find((b) => b.id === id);
  }

  /** The API-created or live dialogs in `state`, in no particular order: a view that follows later changes. */
  pool(origin: Exclude<Origin, 'seed'>, state: StatusKey): readonly Dialog[] {
    return this.poolOf(origin, state).items;
  }

  private poolOf(origin: Origin, state: StatusKey): Pool {
    const key = `${origin} ${state}`;
    let pool = this.pools.get(key);
    if (!pool) this.pools.set(key, (pool = new Pool()));
    return pool;
  }

  /** Applies a change and invalidates what was rendered from the dialog. */
  apply(dialog: Dialog, change: DialogChange): void {
    if (change.state !== undefined && change.state !== dialog.state && dialog.origin !== 'seed') {
      this.poolOf(dialog.origin, dialog.state).remove(dialog);
      this.poolOf(dialog.origin, change.state).add(dialog);
    }
    if (change.state !== undefined) dialog.state = change.state;
    if (change.botId !== undefined) dialog.botId = change.botId;
    if (change.message) this.message(dialog, change.message.at, change.message.item, change.message.movesUpdated);
    this.touched(dialog);
  }

  /** Records a message at `now`: moves `updated` and the duration. */
  message(dialog: Dialog, now: number, item?: DataItem, movesUpdated = true): void {
    if (movesUpdated) dialog.lastMessageAt = now;
    dialog.duration = Math.max(0, Math.floor((now - dialog.createdAt) / 1000));
    if (item) this.dataOf(dialog).push(item);
    this.touched(dialog);
  }

  touched(dialog: Dialog): void {
    dialog.rendered = undefined;
    if (dialog.origin !== 'seed') this.reindex(dialog);
    this.revision++;
  }

  /** With a list lag, the lists will show the dialog as it is now once the lag has passed. */
  private reindex(dialog: Dialog): void {
    if (this.config.lists.lagMs <= 0) return;
    const { botId, state, lastMessageAt, duration, deleted } = dialog;
    (dialog.indexed ??= []).push({ at: this.clock(), view: { botId, state, lastMessageAt, duration, deleted } });
  }

  /** The dialog as the lists show it now: its index's view as of the lag ago; undefined before its index has it. */
  private listed(dialog: Dialog, cutoff: number): Dialog | undefined {
    if (!dialog.indexed) return dialog;
    const entry = [...dialog.indexed].reverse().find((e) => e.at <= cutoff);
    return entry && { ...dialog, ...entry.view, rendered: undefined };
  }

  /** Matching, not deleted dialogs in list order; `total` counts them all, `items` holds one page. */
  page(query: ListQuery, offset: number, limit: number): { total: number; items: Dialog[] } {
    const items: Dialog[] = [];
    let total = 0;
    const newestFirst = this.config.lists.order === 'newest-first';
    const n = this.dialogs.length;
    const cutoff = this.clock() - this.config.lists.lagMs;
    for (let i = 0; i < n; i++) {
      const d = this.listed(this.dialogs[newestFirst ? n - 1 - i : i]!, cutoff);
      if (!d || d.deleted || !matches(d, query)) continue;
      if (total >= offset && items.length < limit) items.push(d);
      total++;
    }
    return { total, items };
  }

  /** JSON text of the list item (record fields without data); cached until the dialog changes. */
  renderItem(dialog: Dialog, api: ApiVersion): string {
    const rendered = (dialog.rendered ??= {});
    return (rendered[api] ??= JSON.stringify(this.listItem(dialog, api)));
  }

  listItem(dialog: Dialog, api: ApiVersion): Record<string, unknown> {
    const zone = this.config.format.updatedOffset;
    const updated = dialog.lastMessageAt !== null ? isoSeconds(dialog.lastMessageAt, zone) : api === 'v1' ? isoSeconds(dialog.createdAt, zone) : '';
    const item: Record<string, unknown> = {
      id: api === 'v1' ? dialog.id : dialog.uuid,
      name: `#${dialog.id} ${dialog.city}`,
      status: this.config.statuses[dialog.state],
      ip: dialog.ip,
      location: dialog.city,
      updated,
      duration: dialog.duration,
    };
    if (api === 'v2') item.source = dialog.source;
    return item;
  }

  record(dialog: Dialog, api: ApiVersion): Record<string, unknown> {
    return { ...this.listItem(dialog, api), data: this.dataOf(dialog).map((item) => this.dataItem(item)) };
  }

  private dataItem(item: DataItem): Record<string, unknown> {
    const out: Record<string, unknown> = { question: item.question, type: item.type, answer: item.answer, variable: item.variable };
    if (item.fileId !== undefined) {
      out.answer = `${this.config.files.linkBase ?? this.linkBase}/api/v1/file/${item.fileId}`;
      out.deleted = item.deleted ?? false;
    }
    return out;
  }
}

function matches(d: Dialog, q: ListQuery): boolean {
  if (q.botId !== undefined && d.botId !== q.botId) return false;
  if (q.createdFrom !== undefined && d.createdAt < q.createdFrom) return false;
  if (q.createdTo !== undefined && d.createdAt > q.createdTo) return false;
  if (q.updatedFrom !== undefined || q.updatedTo !== undefined) {
    // Updated filters are on the last message: a dialog without one has no date to match.
    if (d.lastMessageAt === null) return false;
    if (q.updatedFrom !== undefined && d.lastMessageAt < q.updatedFrom) return false;
    if (q.updatedTo !== undefined && d.lastMessageAt > q.updatedTo) return false;
  }
  return true;
}
