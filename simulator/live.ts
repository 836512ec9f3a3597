// The live stream (--live RATE): other people's dialogs arriving and moving in the background, as on the vendor's
// staging, so the suite meets live data offline. It is seeded, so a run can be replayed. It changes only dialogs of
// the run (ones it created, and bot messages on dialogs the API started), never the seeded history. A sample taken
// from before the run therefore stays still, and what the suite observes changes only when the API does.
import type { Faker } from '@faker-js/faker';
import type { SimulatorConfig, StatusKey } from './config.ts';
import { answered, answers, makeFaker } from './seed.ts';
import type { Dialog, Store } from './store.ts';

export interface LiveOptions {
  /** Changes per second (real time), a positive number. */
  perSecond: number;
}

export type LiveChangeKind = 'new' | 'message' | 'status';

/** One change of the stream: its kind and the dialog it made or changed, with the dialog's state after it. */
export interface LiveChange {
  kind: LiveChangeKind;
  id: number;
  uuid: string;
  state: StatusKey;
}

/** What a running simulator exposes of its stream. */
export interface LiveControl {
  /** Changes made so far, by the timer and by step(). */
  changes(): number;
  /** Runs `ticks` ticks at once, without the timer (tests); returns the changes made (a tick without candidates makes none). */
  step(ticks?: number): LiveChange[];
}

// New dialogs and bot messages have fixed weights; the weight of a status change grows with the stream's open
// dialogs (each is as likely to move on), so arrivals and completions balance at about OPEN_TARGET open dialogs
// instead of piling up or draining to none.
const NEW_WEIGHT = 2;
const MESSAGE_WEIGHT = 5;
const OPEN_TARGET = 40;
/** A new dialog is mostly running already; none arrives completed. */
const NEW_STATES = [
  { weight: 2, value: 'created' as const },
  { weight: 6, value: 'inProcess' as const },
  { weight: 2, value: 'operator' as const },
];
/** A status change, by the state it starts from. */
const NEXT_STATE = { created: 'inProcess', inProcess: 'completed', operator: 'completed' } as const;
/** Share of bot messages on a stream dialog that come with the respondent's answer as a data item. */
const ANSWER_SHARE = 0.5;
// The timer fires at most every 10 ms (higher rates make several changes per firing) and at least every 2^31-1 ms,
// node's longest interval.
const MIN_PERIOD_MS = 10;
const MAX_PERIOD_MS = 2 ** 31 - 1;

export class LiveStream implements LiveControl {
  private readonly faker: Faker;
  /** Ordinary bots (not blocked, weight > 0, no custom block): a new dialog never has to enter a block. */
  private readonly bots: Array<{ weight: number; value: number }>;
  // The store's pools are live arrays, so these stay current without a walk over the dialogs.
  /** Candidates for a bot message: running dialogs the API or the stream created. */
  private readonly running: ReadonlyArray<readonly Dialog[]>;
  /** Candidates for a status change: the stream's own dialogs not completed yet. */
  private readonly open: ReadonlyArray<readonly Dialog[]>;
  private made = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: SimulatorConfig,
    private readonly store: Store,
    seed: number,
    private readonly now: () => number,
    private readonly perSecond: number,
  ) {
    if (!(perSecond > 0 && Number.isFinite(perSecond))) throw new RangeError(`live.perSecond must be a positive number, got ${perSecond}`);
    // Its own stream (no other one has a three-number key), so neither the seeded data nor what the API creates
    // (UUIDs, IPs, tokens) shifts with the number of live changes.
    this.faker = makeFaker(seed);
    this.faker.seed([seed, 0, 1]);
    this.bots = config.bots.filter((b) => !b.blocked && b.weight > 0 && b.customBlockUrl === null).map((b) => ({ weight: b.weight, value: b.id }));
    this.running = [store.pool('api', 'inProcess'), store.pool('live', 'inProcess')];
    this.open = [store.pool('live', 'created'), store.pool('live', 'inProcess'), store.pool('live', 'operator')];
  }

  changes(): number {
    return this.made;
  }

  step(ticks = 1): LiveChange[] {
    const made: LiveChange[] = [];
    for (let i = 0; i < ticks; i++) {
      const change = this.tick();
      if (change) made.push(change);
    }
    this.made += made.length;
    return made;
  }

  /**
   * Runs the stream at `perSecond` of real time. Credit accrues with elapsed time and is spent one change at a time,
   * so rates above the timer's resolution hold; after a stall (busy event loop, suspended machine) at most one
   * second's worth is caught up.
   */
  start(): void {
    const period = Math.min(MAX_PERIOD_MS, Math.max(MIN_PERIOD_MS, 1000 / this.perSecond));
    let last = performance.now();
    let credit = 0;
    this.timer = setInterval(() => {
      const t = performance.now();
      credit = Math.min(credit + ((t - last) * this.perSecond) / 1000, 1 + this.perSecond);
      last = t;
      const due = Math.floor(credit);
      credit -= due;
      this.step(due);
    }, period).unref();
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** One weighted change among the kinds that have a candidate now. */
  private tick(): LiveChange | undefined {
    const f = this.faker;
    const open = sizeOf(this.open);
    const kinds = [
      { weight: NEW_WEIGHT, value: 'new' as const, size: this.bots.length },
      { weight: MESSAGE_WEIGHT, value: 'message' as const, size: sizeOf(this.running) },
      { weight: (NEW_WEIGHT * open) / OPEN_TARGET, value: 'status' as const, size: open },
    ].filter((k) => k.size > 0);
    if (kinds.length === 0) return undefined;
    const kind = f.helpers.weightedArrayElement(kinds);
    const now = this.now();
    let dialog: Dialog;
    switch (kind) {
      case 'new':
        dialog = this.newDialog(now);
        break;
      case 'message':
        // The bot publishes (spec §3). A dialog of the API gets no data item: the suite reads its data as it left it.
        dialog = this.pick(this.running);
        this.store.message(dialog, now, dialog.origin === 'live' && f.datatype.boolean({ probability: ANSWER_SHARE }) ? answered(f, this.config) : undefined);
        break;
      case 'status':
        dialog = this.pick(this.open);
        this.store.apply(dialog, { state: NEXT_STATE[dialog.state as keyof typeof NEXT_STATE] });
        break;
    }
    return { kind, id: dialog.id, uuid: dialog.uuid, state: dialog.state };
  }

  /** A dialog created now on an ordinary bot; a running or operator one has talked already. */
  private newDialog(now: number): Dialog {
    const f = this.faker;
    const s = this.config.seed;
    const state = f.helpers.weightedArrayElement(NEW_STATES);
    const silent = state === 'created' || (state === 'inProcess' && f.datatype.boolean({ probability: s.silentInProcessShare }));
    return this.store.add({
      id: this.store.nextDialogId,
      uuid: f.string.uuid(),
      botId: f.helpers.weightedArrayElement(this.bots),
      state,
      ip: f.internet.ipv4(),
      city: f.location.city(),
      source: f.helpers.arrayElement(s.sources),
      createdAt: now,
      lastMessageAt: silent ? null : now,
      duration: 0,
      data: silent ? [] : answers(f, this.config),
      deleted: false,
      origin: 'live',
    });
  }

  /** A uniform pick over several pools, as if they were one list. */
  private pick(pools: ReadonlyArray<readonly Dialog[]>): Dialog {
    let i = this.faker.number.int({ min: 0, max: sizeOf(pools) - 1 });
    let k = 0;
    while (i >= pools[k]!.length) i -= pools[k++]!.length;
    return pools[k]![i]!;
  }
}

const sizeOf = (pools: ReadonlyArray<readonly Dialog[]>): number => pools.reduce((n, pool) => n + pool.length, 0);
