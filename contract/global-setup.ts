// Runs once in Playwright's main process: no report of an earlier run left, fresh per-run records, the run's id and
// start time, the callback listener, the learned contract (--contract-from) and the run's body shapes (run-setup.ts).
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { secretsOf } from '../config/suite-config.ts';
import { writeLearnedContract } from './learned-contract.ts';
import { rememberSecrets } from '../http/redact.ts';
import { settleRequestShapes } from './run-setup.ts';
import { CallbackInbox } from './callback-inbox.ts';
import { partialRunReason } from './run-scope.ts';
import { unreachableReason } from './target-check.ts';
import { loadSuiteConfig, REPORTS_DIR } from './env.ts';
import { RUN_REPORTS } from './reporters/run-reports.ts';
import { EXCHANGES_DIR, RUN_END_FILES } from './run-end.ts';

/** What one run records as it goes and the reports it writes: nothing of an earlier run is read, or left, as this one's. */
const RUN_FILES = [EXCHANGES_DIR, 'probes', 'throttle', 'run', 'preconditions', 'created-dialogs.jsonl', ...RUN_END_FILES, ...RUN_REPORTS];

export default async function globalSetup(): Promise<() => Promise<void>> {
  const config = loadSuiteConfig();
  for (const stale of RUN_FILES) rmSync(join(REPORTS_DIR, stale), { recursive: true, force: true });
  const unreachable = config.targetBaseUrl ? await unreachableReason(config.targetBaseUrl) : undefined;
  if (unreachable) {
    console.error(`dialog-contract: ${unreachable}`);
    process.exit(2);
  }
  // Workers and reporters inherit these.
  process.env.RUN_ID ??= randomUUID();
  process.env.RUN_STARTED_AT ??= String(Date.now());
  process.env.RUN_PARTIAL = partialRunReason(process.argv) ?? '';
  if (config.contractFrom) {
    try {
      await writeLearnedContract(config.contractFrom);
    } catch (err) {
      console.error(`dialog-contract: ${(err as Error).message}`);
      process.exit(2);
    }
  }
  const inbox = new CallbackInbox(config.callbackTokenField);
  try {
    await inbox.start(config.callbackPort, config.callbackHost);
  } catch (err) {
    console.error(`dialog-contract: ${(err as Error).message}`);
    process.exit(2);
  }
  process.env.DIALOG_CONTRACT_INBOX_KEY = inbox.claimKey;
  rememberSecrets(secretsOf(config));
  console.log(await settleRequestShapes(config));
  return () => inbox.stop();
}
