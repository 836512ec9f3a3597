// The simulated service's domain: creating dialogs, moving them through their states, custom blocks.
// Handlers parse and answer; every state change goes through here, where drifts may bend it.
import type { Faker } from '@faker-js/faker';
import type { SimulatorConfig } from './config.ts';
import type { CustomBlocks } from './callbacks.ts';
import { HttpError, type Exchange } from './exchange.ts';
import type { Dialog, DialogChange, Store } from './store.ts';

export type ChangeHook = (ex: Exchange, dialog: Dialog, change: DialogChange, sim: Simulation) => DialogChange;
/** Where a list page starts (a drift may make pages overlap): the offset of page `page` of `perPage` items. */
export type PageOffsetHook = (offset: number, perPage: number, page: number) => number;

export class Simulation {
  constructor(
    readonly config: SimulatorConfig,
    readonly store: Store,
    /** Randomness of the running service (UUIDs, IPs, tokens): seeded, so a replayed session gives the same. */
    readonly faker: Faker,
    readonly now: () => number,
    readonly blocks: CustomBlocks,
    private readonly changeHooks: ChangeHook[],
    private readonly pageOffsetHooks: PageOffsetHook[] = [],
  ) {}

  /** The first item of a list page, as the drifts bend it. */
  pageOffset(page: number, perPage: number): number {
    return this.pageOffsetHooks.reduce((offset, hook) => hook(offset, perPage, page), (page - 1) * perPage);
  }

  /** Applies a state or bot change, letting drifts alter it first. */
  change(ex: Exchange, dialog: Dialog, change: DialogChange): void {
    let effective = change;
    for (const hook of this.changeHooks) effective = hook(ex, dialog, effective, this);
    this.store.apply(dialog, effective);
  }

  /** The bot a create or goto names: unknown -> `unknownStatus` (404 "not found"), blocked -> 403 (spec §5.3). */
  usableBot(botId: number, unknownStatus = 404) {
    const bot = this.store.bot(botId);
    if (!bot) throw new HttpError(unknownStatus, `bot ${botId} not found`);
    if (bot.blocked) throw new HttpError(403, `bot ${botId}: blocked instance`);
    return bot;
  }

  createDialog(botId: number, variables: Record<string, unknown>): Dialog {
    const item = this.config.create.variableItem;
    const now = this.now();
    return this.store.add({
      id: this.store.nextDialogId,
      uuid: this.faker.string.uuid(),
      botId,
      state: 'created',
      ip: this.faker.internet.ipv4(),
      city: this.faker.location.city(),
      source: this.config.seed.sources[0]!,
      createdAt: now,
      lastMessageAt: null,
      duration: 0,
      data: item
        ? Object.entries(variables).map(([name, value]) => ({
            question: item.question,
            type: item.type,
            answer: typeof value === 'string' ? value : JSON.stringify(value),
            variable: name,
          }))
        : [],
      deleted: false,
      origin: 'api',
    });
  }

  /** Start (POST create, or start of a dialog not started yet): the bot runs, and reaches its custom block if it has one. */
  start(ex: Exchange, dialog: Dialog): void {
    const fresh = dialog.state === 'created';
    this.change(ex, dialog, { state: 'inProcess' });
    const url = this.store.bot(dialog.botId)?.customBlockUrl;
    if (fresh && url) this.blocks.enter(dialog, url);
  }

  /** The dialog a V1/V2 operation names, or the 403 that the specification gives for it (spec §5.3). */
  accessible(ex: Exchange, dialog: Dialog | undefined, what: string): Dialog {
    if (!dialog) throw new HttpError(404, `${what} not found`);
    ex.dialog = dialog;
    if (dialog.deleted) throw new HttpError(403, `${what} is deleted`);
    return dialog;
  }

  /** Like accessible(), and also refuses a completed dialog (start, stop, send, command). */
  actionable(ex: Exchange, dialog: Dialog | undefined, what: string): Dialog {
    const found = this.accessible(ex, dialog, what);
    if (found.state === 'completed') throw new HttpError(403, `${what} is completed`);
    return found;
  }
}
