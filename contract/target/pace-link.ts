// The run's one pace (http/run-pace.ts), kept in Playwright's main process by its global setup, beside the requests
// instead of in their path: every worker sends straight to the target (target-transport.ts) and tells the pace, on one
// connection kept for its life, when each send left and what came back; a send on the run's credentials asks it for its
// turn once the run is paced, and the pace says when the run became paced. A proxy in the path held the pace before:
// its second hop cost a sixth of the mutation run's CPU (30.5 s against 25.0 s wall over 14 drifts), and the pace
// reads no more than the times and the answer's status and headers, which a line of JSON carries.
//
// The lines, one JSON object each. A worker's: `{"turn":N,"first":bool}` (asks the Nth turn; `first`: the probes',
// one at a time, ahead of every other waiting send); `{"sent":ms,"held":bool}` (a send left; `held`: on the run's
// credentials, the sends a limit counts); `{"answered":ms,"sentAt":ms,"held":bool,"status":N,"headers":{…}}` (its
// answer's status and headers came); `{"lost":ms}` (no answer came). The pace's: `{"go":N}` (the Nth turn has come) and
// `{"paced":true}` (from now on each send of the run's credentials asks its turn; said once, on connecting if already).
// The times are each worker's clock, the machine's: a pace reads every event at the time it says, late or not.
import { connect, createServer, type Socket } from 'node:net';
import { failureLine } from '../../http/health.ts';
import { readAnnouncement } from '../../http/rate-headers.ts';
import { throttledForRate, TurnQueue, type RunPace } from '../../http/run-pace.ts';

/** The clock the pace's turns read and its timers: the system's in a run, a test's own so that it asserts no wall time. */
export interface PaceClock {
  now(): number;
  /** Calls `fn` in `ms`; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const SYSTEM_CLOCK: PaceClock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** The run's pace, what to do when its limit changed, and its clock (the system's by default). */
export interface RunPacing {
  pace: RunPace;
  changed: () => void;
  clock?: PaceClock;
}

/** What a worker tells the run's pace. */
export type PaceEvent =
  | { turn: number; first: boolean }
  | { sent: number; held: boolean }
  | { answered: number; sentAt: number; held: boolean; status: number; headers: Record<string, string> }
  | { lost: number };

/** What the run's pace tells a worker. */
type PaceNews = { go: number } | { paced: true };

/**
 * Each whole line of a stream as what `read` makes of the JSON it holds, the rest kept for the next chunk; a line that
 * is no JSON, or that `read` does not take, ends the stream.
 */
function lines<T>(socket: Socket, read: (value: unknown) => T | undefined, each: (value: T) => void): void {
  let rest = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    rest += chunk;
    for (let end = rest.indexOf('\n'); end >= 0 && !socket.destroyed; end = rest.indexOf('\n')) {
      const line = rest.slice(0, end);
      rest = rest.slice(end + 1);
      let value: T | undefined;
      try {
        value = read(JSON.parse(line));
      } catch {
        value = undefined;
      }
      // Not one of ours (another program on the loopback port): nothing it says is heard.
      if (value === undefined) {
        socket.destroy();
        return;
      }
      each(value);
    }
  });
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A worker's event, if the value is one: every field of its kind, of its type. */
function paceEvent(value: unknown): PaceEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const e = value as Record<string, unknown>;
  const texts = (h: unknown) => typeof h === 'object' && h !== null && Object.values(h).every((v) => typeof v === 'string');
  const known =
    (finite(e.turn) && typeof e.first === 'boolean') ||
    (finite(e.sent) && typeof e.held === 'boolean') ||
    (finite(e.answered) && finite(e.sentAt) && typeof e.held === 'boolean' && finite(e.status) && texts(e.headers)) ||
    finite(e.lost);
  return known ? (e as PaceEvent) : undefined;
}

/**
 * The run's pace for its workers, on a loopback port: `address` (host:port) is what each worker's PaceLink connects
 * to. Every answer is read for the target's rate limit: those of the run's credentials, and throttles of any.
 */
export async function startPaceServer(pacing: RunPacing): Promise<{ address: string; close(): Promise<void> }> {
  const { pace, changed } = pacing;
  const clock = pacing.clock ?? SYSTEM_CLOCK;
  const turns = new TurnQueue<() => void>(pace);
  const links = new Set<Socket>();
  let cancel: (() => void) | undefined;
  let paced = pace.limit !== undefined;
  const tell = (socket: Socket, news: PaceNews) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(news)}\n`);
  };
  const release = () => {
    cancel = undefined;
    const { go, nextInMs } = turns.due(clock.now());
    for (const send of go) send();
    if (nextInMs !== undefined) cancel = clock.after(nextInMs, release);
  };
  /** A worker's connection, and its sends told and not yet answered. */
  interface Link {
    socket: Socket;
    open: number;
  }
  const done = (link: Link, atMs: number) => {
    link.open = Math.max(0, link.open - 1);
    pace.done(atMs);
  };
  const heard = (link: Link, event: PaceEvent) => {
    if ('turn' in event) {
      turns.add(() => tell(link.socket, { go: event.turn }), event.first, clock.now());
      if (!cancel) release();
    } else if ('sent' in event) {
      link.open++;
      pace.busy(event.sent);
      // When the run's own sends left, as they left (a worker late after its turn included): what bunching is measured from.
      if (event.held) pace.sent(event.sent);
    } else if ('answered' in event) {
      const throttled = throttledForRate(event.status, event.headers['retry-after']);
      // What the limit let through is counted on the run's credentials only: a 401 for none, a call with a custom
      // block's token, may count against no bucket of theirs, and counted would overstate the limit.
      if (throttled || event.held) {
        const announced = readAnnouncement(event.headers, event.answered);
        if (pace.answered(event.answered, { throttled, sentAtMs: event.sentAt, announced })) changed();
      }
      done(link, event.answered);
      if (!paced && pace.limit !== undefined) {
        paced = true;
        for (const socket of links) tell(socket, { paced: true });
      }
    } else done(link, event.lost);
  };
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    links.add(socket);
    const link: Link = { socket, open: 0 };
    socket.on('close', () => {
      links.delete(socket);
      // A process gone before its answers came (killed mid-send, or closed with a send on its way): its sends are
      // done, or the pace would count the run busy for the rest of it.
      while (link.open > 0) done(link, clock.now());
    });
    // A worker gone mid-line (killed by a cancel) is no fault of the run's.
    socket.on('error', () => socket.destroy());
    if (paced) tell(socket, { paced: true });
    lines(socket, paceEvent, (event) => heard(link, event));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        cancel?.();
        server.close(() => resolve());
        for (const link of links) link.destroy();
      }),
  };
}

/** A turn asked of a pace that is gone (the run ended, or its setup never started one): the send cannot be paced. */
export class PaceGone extends Error {
  override name = 'PaceGone';
}

/**
 * One process's line to its run's pace (`address`, host:port), connected at its first event and kept for the
 * process's life: what its sends tell the pace, the turns they ask for, and whether the run is paced (`paced`: it was
 * at the run's start). A pace that is gone (the run ended, or its main process did) stays gone: its turns fail, and
 * what the sends would tell it is dropped.
 */
export class PaceLink {
  private socket: Socket | undefined;
  private goneWhy: string | undefined;
  private turns = 0;
  private readonly waiting = new Map<number, { go: () => void; gone: (err: Error) => void }>();
  private pacedNow: boolean;
  private corked = false;

  constructor(
    /** Where the pace listens; empty where no global setup started one. */
    readonly address: string,
    paced: boolean,
  ) {
    this.pacedNow = paced;
  }

  /** Each send of the run's credentials asks its turn: the run knew a limit at its start, or the pace said so since. */
  get paced(): boolean {
    return this.pacedNow;
  }

  /** Resolves when the pace lets this process's next send go; `first` ahead of every other waiting send. */
  turn(first: boolean): Promise<void> {
    const turn = ++this.turns;
    return new Promise<void>((go, gone) => {
      this.waiting.set(turn, { go, gone });
      this.tell({ turn, first });
    });
  }

  /** A send left at `atMs`; `held`: on the run's credentials. */
  sent(atMs: number, held: boolean): void {
    this.tell({ sent: atMs, held });
  }

  /** The answer to a send that left at `sentAtMs` came at `atMs` with its status and headers. */
  answered(atMs: number, sentAtMs: number, held: boolean, status: number, headers: Record<string, string>): void {
    this.tell({ answered: atMs, sentAt: sentAtMs, held, status, headers });
  }

  /** No answer came to a send, at `atMs`. */
  lost(atMs: number): void {
    this.tell({ lost: atMs });
  }

  close(): void {
    this.gone('closed by its process');
  }

  private tell(event: PaceEvent): void {
    const socket = this.connected();
    if (!socket) {
      if ('turn' in event) this.gone(this.goneWhy!);
      return;
    }
    // The events of one tick (a send and its neighbours') go in one write, not a write each.
    if (!this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    socket.write(`${JSON.stringify(event)}\n`);
  }

  /** Every turn waiting fails, and every one asked from now on. */
  private gone(why: string): void {
    this.goneWhy ??= why;
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
    for (const { gone } of this.waiting.values()) gone(new PaceGone(`the run's pace at ${this.address} is gone (${this.goneWhy}): its sends cannot be paced`));
    this.waiting.clear();
  }

  private connected(): Socket | undefined {
    if (this.goneWhy !== undefined) return undefined;
    if (this.socket) return this.socket;
    const at = this.address.lastIndexOf(':');
    const socket = connect({ host: this.address.slice(0, at), port: Number(this.address.slice(at + 1)) });
    socket.setNoDelay(true);
    lines(
      socket,
      (value) => (typeof value === 'object' && value !== null ? (value as PaceNews) : undefined),
      (news) => {
        if ('paced' in news) this.pacedNow = true;
        else {
          this.waiting.get(news.go)?.go();
          this.waiting.delete(news.go);
        }
      },
    );
    socket.on('error', (err) => this.gone(failureLine(err)));
    socket.on('close', () => this.gone('closed'));
    this.socket = socket;
    return socket;
  }
}
