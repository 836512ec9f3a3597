// Fixtures of the probes project: the suite's fixtures, with every request counted against the run's budget (the
// client waits out 429/503 for every project), and `probe(bound, what)` that a probe calls before it sends anything.
import { test as base } from '../api-test.ts';
import { PROBE_REQUESTS } from './budget.ts';

export { eachRun, expect } from '../api-test.ts';

type ProbeFixtures = {
  /** Declares the most requests the probe will send (retries aside); fails it, unsent, when they do not fit. */
  probe: (bound: number, what: string) => void;
};

// Test fixtures only: a worker fixture here would keep probes out of the API tests' workers.
export const test = base.extend<ProbeFixtures>({
  // Torn down after the probe's clients and dialogs, so its count includes their cleanup.
  requestHooks: async ({ probeBudget }, use) => {
    // One at a time, the probes are a chain the run's end waits for: their sends go first in the run's pace.
    await use({ ...probeBudget.hooks(), paceFirst: true });
    probeBudget.save();
  },

  probe: async ({ probeBudget }, use, testInfo) => {
    const start = { spent: probeBudget.spent, retries: probeBudget.retries };
    let bound = 0;
    await use((requests, what) => {
      probeBudget.reserve(requests, what);
      bound += requests;
    });
    const retries = probeBudget.retries - start.retries;
    const sent = probeBudget.spent - start.spent - retries;
    testInfo.annotations.push({ type: PROBE_REQUESTS, description: JSON.stringify({ sent, retries, bound }) });
    if (sent > bound) throw new Error(`${testInfo.title}: sent ${sent} requests, more than the ${bound} it declared: fix its bound`);
  },

  // The dialogs' cleanup runs in the probe's accounting: the probe fixture is set up first, so torn down last.
  api: async ({ probe: _probe, clientFor }, use) => use(await clientFor('valid')),
});
