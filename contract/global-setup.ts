// Runs once in Playwright's main process: fresh per-run records, the run's start time, the callback listener.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CallbackInbox } from './callback-inbox.ts';
import { partialRunReason } from './run-scope.ts';
import { unreachableReason } from './target-check.ts';
import { loadSuiteConfig, REPORTS_DIR } from './env.ts';

/** What one run records as it goes, removed before it starts: nothing of an earlier run is read as this one's. */
export const RUN_RECORDS = ['exchanges', 'observations', 'probes', 'throttle', 'run', 'preconditions', 'created-dialogs.jsonl'];

export default async function globalSetup(): Promise<() => Promise<void>> {
  const config = loadSuiteConfig();
  const unreachable = config.targetBaseUrl ? await unreachableReason(config.targetBaseUrl) : undefined;
  if (unreachable) {
    console.error(`dialog-contract: ${unreachable}`);
    process.exit(2);
  }
  for (const stale of RUN_RECORDS) rmSync(join(REPORTS_DIR, stale), { recursive: true, force: true });
  // Workers inherit these: dialogs created before the start form a set the run's own creations cannot change.
  process.env.RUN_STARTED_AT ??= String(Date.now());
  process.env.RUN_PARTIAL = partialRunReason(process.argv) ?? '';
  const inbox = new CallbackInbox(config.callbackTokenField);
  try {
    await inbox.start(config.callbackPort, config.callbackHost);
  } catch (err) {
    console.error(`dialog-contract: ${(err as Error).message}`);
    process.exit(2);
  }
  process.env.DIALOG_CONTRACT_INBOX_KEY = inbox.claimKey;
  return () => inbox.stop();
}
