// The waits a run chooses: a list given LIST_SETTLE_S to show a write, a throttled answer's wait before its resend, a
// send's turn in the run's pace, the pause before resending after a network blip. They are the run's patience, not the
// target answering slowly: each is told to the listener the running test sets (contract/fixtures/api-test.ts), which grows the
// test's timeout by it. Counted against the timeout, a drift whose writes never show (several settles in one test) or
// a low MAX_RPS (a long test's every send waiting its turn) left "no verdict: the target answered too slowly".
let listener: (ms: number) => void = () => {};

export const listenToRunWaits = (to: (ms: number) => void) => {
  listener = to;
};

/** Tells of `ms` the run waited of its own accord (measured where the wait is another's answer, a pace's turn). */
export const waited = (ms: number) => listener(ms);

/** Waits `ms`, told as the run's own wait. */
export const runWait = (ms: number) => {
  waited(ms);
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
};
