// The fingerprint of a live target changes only when the API does: two runs of the whole suite against a simulator
// whose data keeps moving (new dialogs, bot messages, status changes: --live), with more than a hundred changes
// between them, give byte-identical fingerprint items, and both runs are green (the reads that race live data, such
// as a record against its list item, read again before they call a difference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite, startRunSimulator } from './suite-run.ts';

/** The fingerprint file without its run block: what two runs must share byte for byte. */
const itemsOf = (dir: string) => {
  const text = readFileSync(join(dir, 'fingerprint.json'), 'utf8');
  return text.slice(0, text.indexOf('"run"'));
};

test('two runs against live data, a hundred changes apart, give the same fingerprint items, both green', async () => {
  const { sim, callbackPort } = await startRunSimulator({ live: { perSecond: 20 } });
  try {
    const dirs = [mkdtempSync(join(tmpdir(), 'live-a-')), mkdtempSync(join(tmpdir(), 'live-b-'))];
    const run = (reportsDir: string) => runSuite({ baseUrl: sim.url, callbackPort, reportsDir, workers: 1, simulator: sim.config });
    const first = await run(dirs[0]!);
    const between = sim.live!.changes();
    sim.live!.step(100);
    const second = await run(dirs[1]!);
    assert.ok(sim.live!.changes() - between >= 100, `only ${sim.live!.changes() - between} live changes between the runs`);
    for (const r of [first, second]) {
      assert.equal(r.error, undefined);
      assert.deepEqual(r.failed, [], `a run against live data failed: ${r.firstMessage}`);
    }
    assert.equal(itemsOf(dirs[1]!), itemsOf(dirs[0]!), 'the fingerprints differ: an observation moves with live data');
  } finally {
    await sim.close();
  }
});
