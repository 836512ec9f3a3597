// A run's dialog creations, one at a time across its worker processes. A create whose answer names no dialog is told
// by the one dialog new in its bot's list (contract/api/dialog-factory.ts); another worker's create meanwhile makes that
// two, and a conforming vendor's run fails (with two API workers, 4 runs of 4 against the envelope-multipart profile,
// whose V2 GET create names none). Such a window holds the lock throughout, every other create for its request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runWait } from '../core/run-waits.ts';

const POLL_MS = 10;
/** A lock without its holder's pid this long after it was taken: a holder killed while taking it. */
const UNNAMED_STALE_MS = 5_000;

/** The lock the current call chain holds: a create inside a window goes through, one beside it waits its turn. */
const holding = new AsyncLocalStorage<CreateLock>();

export class CreateLock {
  /**
   * `file` is made, holding its holder's pid, to take the lock and removed to give it back: making a file that must not
   * exist yet is atomic across processes (a folder and a file in it cost three times the system calls, a tenth of a
   * worker's CPU in the mutation run's lanes, whose every run makes two hundred dialogs). The suite
   * waits without a bound of its own: a holder's window ends within LIST_SETTLE_S and its requests' timeouts, a dead
   * holder is taken over, and the wait grows the waiting test's timeout (another test's window, paced at a low limit,
   * may outlast it); a test out of time is inconclusive, never a failure that a vendor ticket could come of. `maxWaitMs` bounds it for a caller that would rather have an error.
   */
  constructor(
    private readonly file: string,
    private readonly maxWaitMs = Number.POSITIVE_INFINITY,
  ) {}

  /** Runs `fn` holding the lock; a hold within `fn` is `fn`'s own and goes through. */
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    if (holding.getStore() === this) return fn();
    await this.acquire();
    try {
      return await holding.run(this, fn);
    } finally {
      rmSync(this.file, { force: true });
    }
  }

  private async acquire(): Promise<void> {
    const deadline = Date.now() + this.maxWaitMs;
    for (;;) {
      try {
        writeFileSync(this.file, String(process.pid), { flag: 'wx' });
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') mkdirSync(dirname(this.file), { recursive: true });
        else if (code !== 'EEXIST') throw err;
        else if (this.holderGone()) rmSync(this.file, { force: true });
        else if (Date.now() > deadline) throw new Error(`${this.file}: still held after ${this.maxWaitMs / 1000} s`);
        // Another test of the run holds it: the run's own wait (contract/core/run-waits.ts), not the target's slowness.
        else await runWait(POLL_MS);
      }
    }
  }

  /** A worker that died holding the lock (killed, crashed) must not hold up the run's other workers. */
  private holderGone(): boolean {
    let pid: number;
    try {
      pid = Number(readFileSync(this.file, 'utf8'));
    } catch {
      // Given back meanwhile: nothing to take over.
      return false;
    }
    // Made, its pid not written yet, or never (its holder killed in between).
    if (!pid) {
      try {
        return Date.now() - statSync(this.file).mtimeMs > UNNAMED_STALE_MS;
      } catch {
        return false;
      }
    }
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
}
