// Runs once in Playwright's main process: no report of an earlier run left, fresh per-run records, a target that can
// be judged (contract/target-check.ts), the run's id and start time, the callback listener, the learned contract
// (--contract-from) and the run's body shapes (run-setup.ts). What stops the run here ends it with its own verdict
// (report/verdict.ts): its line first and last, its reports in place of a test report.
import { randomUUID } from 'node:crypto';
import { secretsOf } from '../config/suite-config.ts';
import { writeLearnedContract } from './learned-contract.ts';
import { rememberSecrets } from '../http/redact.ts';
import { settleRequestShapes } from './run-setup.ts';
import { CallbackInbox } from './callback-inbox.ts';
import { partialRunReason } from './run-scope.ts';
import { targetProblem } from './target-check.ts';
import { loadSuiteConfig, REPORTS_DIR, SIMULATOR_STARTED_ENV } from './env.ts';
import { listensWithin } from './local-ports.ts';
import { clearRunReports } from './run-files.ts';
import { writeVerdictReports, type UnjudgedVerdict } from './verdict-reports.ts';
import { exitCode, verdictLine } from '../report/verdict.ts';

function endRun(verdict: UnjudgedVerdict): never {
  writeVerdictReports(REPORTS_DIR, verdict);
  console.error(verdictLine(verdict));
  process.exit(exitCode(verdict));
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const config = loadSuiteConfig();
  clearRunReports(REPORTS_DIR);
  // Started by the main command beside Playwright: as long as Playwright's webServer would have waited for it.
  if (config.usesSimulator && process.env[SIMULATOR_STARTED_ENV] === '1' && !(await listensWithin(config.simulatorPort, '127.0.0.1', 30_000))) {
    endRun({
      kind: 'config',
      reason: `dialog-contract: the embedded simulator does not listen on port ${config.simulatorPort} after 30 s: see its lines above`,
    });
  }
  const problem = config.targetBaseUrl ? await targetProblem(config) : undefined;
  if (problem) endRun({ kind: 'no-verdict', reason: problem });
  // Workers and reporters inherit these.
  process.env.RUN_ID ??= randomUUID();
  process.env.RUN_STARTED_AT ??= String(Date.now());
  process.env.RUN_PARTIAL = partialRunReason(process.argv) ?? '';
  if (config.contractFrom) {
    try {
      await writeLearnedContract(config.contractFrom);
    } catch (err) {
      endRun({ kind: 'config', reason: `dialog-contract: ${(err as Error).message}` });
    }
  }
  const inbox = new CallbackInbox(config.callbackTokenField);
  try {
    await inbox.start(config.callbackPort, config.callbackHost);
  } catch (err) {
    endRun({ kind: 'config', reason: `dialog-contract: ${(err as Error).message}` });
  }
  process.env.DIALOG_CONTRACT_INBOX_KEY = inbox.claimKey;
  rememberSecrets(secretsOf(config));
  console.log(await settleRequestShapes(config));
  return () => inbox.stop();
}
