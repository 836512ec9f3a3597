// Settled reads: a list behind its store (a search index behind a database, as on most real services) shows a write
// seconds later. Where a test expects a write to show in a list or a filter, it reads again with backoff until the
// write shows or LIST_SETTLE_S has passed; only then is it drift, and the failure says how long the run waited.
// Every wait is journalled, and the run's largest is the observation lists.lag (consistency of the
// lists: not shown, §4.1). A target with no lag costs nothing: the first read settles it.
import { nextSettlePause } from '../../http/settle-backoff.ts';
import { journal, readJournal, type LagRecord } from '../core/journal.ts';
import { runWait } from '../core/run-waits.ts';

export interface Settled<T> {
  value: T;
  /** Whether `done` held before the deadline. */
  settled: boolean;
  /** From the first read to the one that settled it (or the last). */
  waitedMs: number;
  reads: number;
}

/** Reads until `done` holds or `settleSeconds` have passed. Pure but for `read` and `sleep`. */
export async function settle<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  settleSeconds: number,
  clock: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = runWait,
): Promise<Settled<T>> {
  const started = clock();
  for (let reads = 1; ; reads++) {
    const value = await read();
    if (done(value)) return { value, settled: true, waitedMs: clock() - started, reads };
    const next = nextSettlePause(reads, clock() - started, settleSeconds * 1000);
    if (next === undefined) return { value, settled: false, waitedMs: clock() - started, reads };
    await sleep(next);
  }
}

export const recordLag = (reportsDir: string, row: LagRecord) => journal(reportsDir, 'lag', row);
export const readLags = (reportsDir: string) => readJournal(reportsDir, 'lag');

/** The run's largest lag in steps that stay put from run to run: "none", "under 1 s", "under 5 s", "under 30 s", "30 s or more", or "not settled". */
export function lagObserved(rows: readonly LagRecord[]): string {
  if (rows.some((r) => !r.settled)) return 'not settled within LIST_SETTLE_S';
  const most = Math.max(0, ...rows.filter((r) => r.reads > 1).map((r) => r.waitedMs));
  return most === 0 ? 'none' : most < 1000 ? 'under 1 s' : most < 5000 ? 'under 5 s' : most < 30_000 ? 'under 30 s' : '30 s or more';
}
