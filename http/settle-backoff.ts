// How a read of a list that may trail a write is repeated (a search index behind its store, §4.1 shows no
// consistency): after 0.25 s, doubling, at most 2 s apart, and never waited for past the settle deadline, so
// LIST_SETTLE_S bounds the wait instead of being overshot by the last pause. Pure: the settled reads of the tests
// (contract/target/settle.ts) and the body-shape discovery's goto check share it.

/** Backoff before read `read + 1`: 0.25 s, doubling, at most 2 s. */
export const settleDelayMs = (read: number): number => Math.min(2000, 250 * 2 ** (read - 1));

/** The pause before the next read after `read` reads and `waitedMs` since the first; undefined: the deadline is reached. */
export function nextSettlePause(read: number, waitedMs: number, settleMs: number): number | undefined {
  const pause = settleDelayMs(read);
  return waitedMs + pause > settleMs ? undefined : pause;
}

/**
 * The most reads a settled read makes within `settleMs`: each pause is waited in full and the reads themselves take
 * time too, so none makes more than when reads take none. What a probe that settles declares of its budget.
 */
export function settleReadsMax(settleMs: number): number {
  let [reads, waited] = [1, 0];
  for (let pause = nextSettlePause(reads, waited, settleMs); pause !== undefined; pause = nextSettlePause(reads, waited, settleMs)) {
    waited += pause;
    reads++;
  }
  return reads;
}
