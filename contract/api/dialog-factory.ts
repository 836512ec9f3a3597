// Creates dialogs through the public API only, remembers each one, and cleans every one up after the test (the API
// has no delete: stopping hands the dialog to an operator, so the bot stops publishing in it).
import type { ApiClient } from '../target/client.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { WriteOperation } from '../core/state-table.ts';
import { judge, judgeSoft, matchContract, notJudged } from '../judging/matchers.ts';
import { createdSince, fetchPages, searchPageCount, searchSettled, searchWhere, vendorMs, waitedText, type ListItem, type Version } from './lists.ts';
import { settle } from '../target/settle.ts';
import { settleReadsMax } from '../../http/settle-backoff.ts';
import { updatedKind } from '../../checks/meanings.ts';
import { readV1, readV2, type DialogRead } from './requests.ts';
import { clockText, runVendorClock } from '../clock/vendor-clock.ts';

export type CreateVia = 'v1-get' | 'v2-get' | 'v2-post';

export interface Dialog {
  uuid: string;
  /** V1 integer id when known (POST create returns it; otherwise found through the lists). */
  v1Id?: number;
  /** The bot it is on as far as the run knows: the one it was created on, the target once a goto answers success. */
  botId: number;
  via: CreateVia;
  /** Client clock just before the create request (ms). */
  createdAfter: number;
  /** Client clock when the create's answer came (ms): the dialog existed by then, however late the target made it. */
  createdBefore?: number;
  /**
   * Its create's exchange, as the run's journal names it: the run's HAR names this dialog at that create, where a V2
   * GET create's answer does not (§4.2), so the engine judges it as the tests do.
   */
  createExchangeId?: string;
  /** The last non-empty `updated` each version showed (dialogs.read): the last message's time never moves back. */
  updatedSeen?: Partial<Record<Version, string>>;
  /** The status it had right after a GET create: the vendor's string for "created, not started" (§3). */
  notStartedStatus?: string;
  /** The last write of a walk of §3 that succeeded on it (its create, a trigger): what a next step comes after. */
  lastWrite?: WriteOperation;
}

export interface Created {
  dialog: Dialog;
  response: ApiResponse;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Pages of the V2 list a lookup of a bot's new dialogs reads, at most. */
const LOOKUP_PAGES = 5;

/** What the factory tells its owner: each cleanup, each dialog the moment it is known, each it could not identify. */
export interface FactoryHooks {
  cleaned: (dialog: Dialog, status: number) => void;
  /** Before any check of its create: a cancelled run still stops it. */
  created?: (dialog: Dialog) => void;
  /** A create whose dialog the run could not find, with why: listed, never silently lost. */
  unidentified?: (botId: number, reason: string) => void;
  /**
   * The dialogs every worker of the run has named so far (its journal), lower-cased: never the one a create that names
   * none made, though a trailing list may show them only now.
   */
  claimed?: () => ReadonlySet<string>;
}

export class DialogFactory {
  readonly created: Dialog[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly defaultBot: number,
    /** LIST_SETTLE_S: how long a list may trail a write. */
    private readonly settleSeconds: number,
    private readonly hooks: FactoryHooks,
  ) {}

  /**
   * Made and named before another worker of the run may create one: a create told by the list (newDialogs) then
   * finds this one claimed, not new.
   */
  create(via: CreateVia, options: { botId?: number; variables?: Record<string, unknown> } = {}): Promise<Created> {
    return this.api.creating(() => this.make(via, options));
  }

  private async make(via: CreateVia, options: { botId?: number; variables?: Record<string, unknown> }): Promise<Created> {
    const botId = options.botId ?? this.defaultBot;
    const variables = options.variables ? JSON.stringify(options.variables) : undefined;
    const createdAfter = Date.now();
    let response: ApiResponse;
    let uuid: string | undefined;
    let v1Id: number | undefined;
    if (via === 'v2-post') {
      response = await this.api.call('postV2DialogCreate', { path: { BotID: botId }, json: { response: true, ...(variables ? { variables } : {}) } });
      const body = response.json<{ dialogId?: unknown; dialogUUID?: unknown }>();
      uuid = typeof body?.dialogUUID === 'string' ? body.dialogUUID : undefined;
      v1Id = typeof body?.dialogId === 'number' ? body.dialogId : undefined;
    } else if (via === 'v1-get') {
      response = await this.api.call('getV1DialogCreate', { path: { BotID: botId }, query: { variables } });
      // V1 documents dialogId, a UUID (§2.4).
      uuid = response.text.match(UUID)?.[0];
    } else {
      // The V2 GET body is not shown (§4.2): any UUID in it, else the one dialog new in the V2 list.
      const made = await this.newDialogs(botId, () => this.api.call('getV2DialogCreate', { path: { BotID: botId }, query: { variables } }));
      response = made.response;
      uuid = made.uuids.length === 1 ? made.uuids[0] : undefined;
    }
    const createdBefore = Date.now();
    // A create names a new dialog (§2.4: the identifiers of the created dialog), never one the run made before.
    const again = uuid !== undefined && via !== 'v2-get' && (this.hooks.claimed?.() ?? new Set()).has(uuid.toLowerCase());
    if (uuid) this.hooks.created?.({ uuid, botId, via, createdAfter, ...(response.exchangeId ? { createExchangeId: response.exchangeId } : {}) });
    // A creation that breaks the contract is reported as such, before anything reads ids out of it.
    matchContract(response, { status: 200, because: `for creating a dialog on bot ${botId}`, section: via === 'v1-get' ? '4.1' : '4.2' });
    // No identifier at all stops the test here, at the create, with the check that names it: the V2 GET create's
    // body is not shown, so its dialog is the one new in the V2 list.
    if (via === 'v2-get') judge(response, 'created_dialog_identified.listed', { listed: uuid !== undefined });
    else judge(response, 'created_dialog_identified', { field: via === 'v1-get' ? 'dialogId' : 'dialogUUID', dialog: uuid, answeredBefore: again });
    if (uuid === undefined) notJudged(`${response.operation.label} named no dialog, and the check that says so is left out of this run`);
    const dialog: Dialog = { uuid, botId, via, createdAfter, createdBefore, ...(v1Id === undefined ? {} : { v1Id }) };
    this.created.push(dialog);
    return { dialog, response };
  }

  /**
   * Reads a dialog the run created (V2 by its UUID, V1 by its integer id) and holds the record to what §2.1's words
   * rule out for it (field-meanings.ts): an ip that is no address, a location that is no place, a duration longer than
   * the dialog has existed, an updated outside its life so far (in the vendor's clock) or earlier than a read before.
   */
  async read(dialog: Dialog, version: Version = 'v2'): Promise<DialogRead> {
    const v1Id = version === 'v1' ? await this.v1IdOf(dialog) : undefined;
    const read = version === 'v1' ? await readV1(this.api, v1Id!) : await readV2(this.api, dialog.uuid);
    const readAt = Date.now();
    const record = read.record;
    if (!record) return read;
    const seen = (dialog.updatedSeen ??= {});
    const window = { createdMs: vendorMs(dialog.createdAfter, 'early'), readMs: vendorMs(readAt, 'late') };
    const ageMs = readAt - dialog.createdAfter;
    const shown = { details: { dialog: dialog.uuid } };
    judgeSoft(read.response, 'meaning_conformance.ip', { dialog: record, in: 'record' }, shown);
    judgeSoft(read.response, 'meaning_conformance.location', { dialog: record, in: 'record' }, shown);
    judgeSoft(read.response, 'meaning_conformance.duration', { dialog: record, in: 'record', ageMs }, { ...shown, timed: true });
    const updated = typeof record.updated === 'string' ? updatedKind(record.updated, window, seen[version]) : undefined;
    if (typeof record.updated === 'string') {
      const clock = { details: { dialog: dialog.uuid, clock: clockText(runVendorClock()) } };
      judgeSoft(read.response, 'meaning_conformance.updated', { updated: record.updated, window, ...(seen[version] ? { before: seen[version] } : {}) }, clock);
    }
    if (updated === 'between the creation and the read') seen[version] = record.updated;
    return read;
  }

  /** Takes over a dialog made by a raw request (a probe, the shape discovery), so it is cleaned up like the others. */
  adopt(uuid: string, botId: number, createdAfter: number): void {
    const dialog: Dialog = { uuid, botId, via: 'v2-post', createdAfter };
    this.hooks.created?.(dialog);
    this.created.push(dialog);
  }

  /**
   * Runs a create whose answer may not name the dialog (POST create with response false or none: not shown, §4.2)
   * and takes what it made over for cleanup: the one dialog new in the bot's list. Two new ones are the run's and
   * another's: it stops neither, and says so.
   */
  async track(botId: number, create: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const createdAfter = Date.now();
    const { response, uuids, waited } = await this.newDialogs(botId, create);
    if (uuids.length === 1) this.adopt(uuids[0]!, botId, createdAfter);
    // A create that answered success made a dialog: one the lists never showed is reported, not left uncounted.
    else if (response.status >= 200 && response.status < 300) {
      const found = uuids.length === 0 ? `none new showed` : `${uuids.length} new showed, which the run cannot tell its own from another's`;
      this.unidentified(
        botId,
        `${response.operation.label} → ${response.status} named no dialog and ${found} in the V2 list of bot ${botId} (waited ${waited})`,
      );
    }
    return response;
  }

  /** The most requests track() sends beside the create: the bot's list before it, and read again until it settles. */
  get trackBound(): number {
    return LOOKUP_PAGES * (1 + settleReadsMax(this.settleSeconds * 1000));
  }

  /** A create that answered success without a dialog the run could find: listed with why, never silently lost. */
  unidentified(botId: number, reason: string): void {
    this.hooks.unidentified?.(botId, reason);
  }

  /** A create and what it made: the UUID its answer names, else the dialogs new in the V2 list of the bot. */
  private newDialogs(botId: number, create: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; uuids: string[]; waited: string }> {
    // No other worker of the run creates a dialog from the list read before to the one that shows it.
    return this.api.creating(() => this.newInList(botId, create));
  }

  private async newInList(botId: number, create: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; uuids: string[]; waited: string }> {
    const createdAfter = Date.now();
    const before = await this.recentUuids(botId, createdAfter);
    const response = await create();
    const named = response.text.match(UUID)?.[0];
    if (named) return { response, uuids: [named], waited: 'nothing' };
    if (response.status < 200 || response.status >= 300) return { response, uuids: [], waited: 'nothing' };
    // The list may trail the create: read until a new dialog shows, or LIST_SETTLE_S.
    const found = await settle(
      async () => {
        const listed = await this.recentUuids(botId, createdAfter);
        const claimed = this.hooks.claimed?.() ?? new Set<string>();
        // Compared lower-cased: a vendor may write a UUID in capitals in one answer only (RFC 9562: the same UUID).
        const known = new Set([...before, ...claimed].map((id) => id.toLowerCase()));
        return [...listed].filter((id) => !known.has(id.toLowerCase()));
      },
      (uuids) => uuids.length > 0,
      this.settleSeconds,
    );
    return { response, uuids: found.value, waited: waitedText(found, this.settleSeconds) };
  }

  /** UUIDs of the bot's dialogs created since shortly before `after`, in the vendor's clock. */
  private async recentUuids(botId: number, after: number): Promise<Set<string>> {
    const pages = await fetchPages(this.api, 'v2', { BotID: botId, CreatedFrom: createdSince(after), PageCount: searchPageCount() }, LOOKUP_PAGES);
    return new Set(pages.flatMap((p) => p.items).map((item) => String(item.id)));
  }

  /**
   * The V1 integer id of a dialog: the V1 list item whose name, ip and location equal the V2 record's (name is the
   * dialog number plus the city, spec §2.1), looked for under the bot the dialog is on now (a goto of the run moves
   * `botId` as soon as it answers success), read until it shows or LIST_SETTLE_S, then under any bot; each over the
   * pages of the dialogs created since it was (the run's other dialogs may fill the first). With the list answer that
   * shows it, else the last one read.
   */
  async findV1(dialog: Dialog): Promise<{ v1Id: number | undefined; response: ApiResponse | undefined }> {
    if (dialog.v1Id !== undefined) return { v1Id: dialog.v1Id, response: undefined };
    const record = (await this.api.call('getV2Conversation', { path: { uuid: dialog.uuid } })).json<ListItem>();
    if (!record) return { v1Id: undefined, response: undefined };
    const twin = (item: ListItem) => item.name === record.name && item.ip === record.ip && item.location === record.location;
    const search = (botId: number | undefined) => searchWhere(this.api, 'v1', { BotID: botId, CreatedFrom: createdSince(dialog.createdAfter) }, twin);
    const own = await settle(
      () => search(dialog.botId),
      (found) => found.item !== undefined,
      this.settleSeconds,
    );
    const found = own.value.item ? own.value : await search(undefined);
    const v1Id = typeof found.item?.id === 'number' ? (dialog.v1Id = found.item.id) : undefined;
    return { v1Id, response: found.response };
  }

  /** The V1 integer id of a dialog (see findV1). */
  async v1IdOf(dialog: Dialog): Promise<number | undefined> {
    return (await this.findV1(dialog)).v1Id;
  }

  /** Stops every dialog this factory made; a stop that fails is recorded, never thrown. */
  async cleanup(): Promise<void> {
    for (const dialog of this.created) {
      const res = await this.api.call('postV2ConversationStop', { path: { uuid: dialog.uuid } }).catch(() => undefined);
      this.hooks.cleaned(dialog, res?.status ?? 0);
    }
  }

  /**
   * Is the dialog in the list of one version filtered on this bot (and created since it was made)? `awaitListed`: a
   * change expected to show it there is waited for (the list may trail it); how long that took, and the CreatedFrom
   * sent. V1 looks for its integer id (not listed when it has none).
   */
  async listedUnderBot(
    dialog: Dialog,
    botId: number,
    awaitListed: boolean,
    version: Version = 'v2',
  ): Promise<{ listed: boolean; waited: string; CreatedFrom: string }> {
    const query = { BotID: botId, CreatedFrom: createdSince(dialog.createdAfter) };
    const id = version === 'v2' ? dialog.uuid : await this.v1IdOf(dialog);
    if (id === undefined) return { listed: false, waited: 'no V1 id', CreatedFrom: query.CreatedFrom };
    const found = await searchSettled(this.api, version, query, id, awaitListed ? this.settleSeconds : 0, `a dialog under bot ${botId}`);
    return { listed: found.item !== undefined, waited: found.waited, CreatedFrom: query.CreatedFrom };
  }
}
