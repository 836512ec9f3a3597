// Runs once in Playwright's main process: fresh per-run records, the run's start time, the callback listener.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CallbackInbox } from './callback-inbox.ts';
import { unreachableReason } from './target-check.ts';
import { loadSuiteConfig, REPORTS_DIR } from './env.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const config = loadSuiteConfig();
  const unreachable = config.targetBaseUrl ? await unreachableReason(config.targetBaseUrl) : undefined;
  if (unreachable) {
    console.error(`dialog-contract: ${unreachable}`);
    process.exit(2);
  }
  for (const stale of ['exchanges', 'observations', 'probes', 'created-dialogs.jsonl']) rmSync(join(REPORTS_DIR, stale), { recursive: true, force: true });
  // Workers inherit this: dialogs created before it form a set the run's own creations cannot change.
  process.env.RUN_STARTED_AT ??= String(Date.now());
  const inbox = new CallbackInbox();
  await inbox.start(config.callbackPort);
  return () => inbox.stop();
}
