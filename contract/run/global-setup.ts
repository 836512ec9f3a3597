// Runs once in Playwright's main process: no report of an earlier run left, fresh per-run records, a target that can
// be judged (contract/target/target-check.ts), the run's id and start time, the callback listener, the learned contract
// (--contract-from), the run's pace (contract/target/pace-link.ts, at the target's limit when a run before
// or the baseline knew it: contract/target/rate-memory.ts) and the run's body shapes (run-setup.ts). What stops the run here ends it with its own verdict
// (report/verdict.ts): its line first and last, its reports in place of a test report. An invocation of several runs
// (contract/core/env.ts RUNS_ENV) sets each up the same way, several at once; one that cannot go on stops alone.
import { randomUUID } from 'node:crypto';
import { secretsOf, type SuiteConfig } from '../../config/suite-config.ts';
import { CLOCK_ENV } from '../clock/vendor-clock.ts';
import { PAGING_ENV } from '../core/list-paging.ts';
import { writeLearnedContract } from '../judging/learned-contract.ts';
import { rememberSecrets } from '../../http/redact.ts';
import { settleRequestShapes } from './run-setup.ts';
import { CallbackInbox } from '../target/callback-inbox.ts';
import { partialRunReason } from '../core/run-scope.ts';
import { targetProblem } from '../target/target-check.ts';
import { loadSuiteConfig, recordSetUp, REPORTS_DIR, reportsHome, runConfig, runSpecs, SIMULATOR_STARTED_ENV, type RunSpec } from '../core/env.ts';
import { listensWithin } from '../core/local-ports.ts';
import { clearRunReports } from './run-files.ts';
import { writeVerdictReports, type UnjudgedVerdict } from '../core/verdict-reports.ts';
import { stopRun } from '../target/run-health.ts';
import { pool } from '../../lib/pool.ts';
import { exitCode, verdictLine } from '../../report/verdict.ts';
import { targetOf } from '../../report/run-meta.ts';
import { RunPace } from '../../http/run-pace.ts';
import { startPaceServer } from '../target/pace-link.ts';
import { knownLimit, writePace } from '../target/rate-memory.ts';
import { RUN_PACE_ENV, RUN_PACED_ENV } from '../target/run-throttle.ts';
import { readBaseline } from '../core/baselines.ts';
import { CheckRegistryError } from '../../checks/check.ts';
import { runChecks } from '../judging/run-checks.ts';
import { COMMAND_TIMING_ENV, markPart, PART, timed } from '../core/run-timing.ts';
import { runSeed, seedLine } from '../core/run-seed.ts';

function endRun(verdict: UnjudgedVerdict): never {
  writeVerdictReports(REPORTS_DIR, verdict);
  console.error(verdictLine(verdict));
  process.exit(exitCode(verdict));
}

/** The baseline a run compares with, when it can be read (the run reporter says what is wrong with one that cannot). */
function baselineOf(config: SuiteConfig): ReturnType<typeof readBaseline> | undefined {
  try {
    return config.baseline ? readBaseline(config.baseline) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run's pace, told of every request of the run, paced from the start at MAX_RPS or the target's limit as the
 * run before or the baseline knew it (the lower), and at what the run learns from its throttled answers after.
 */
async function startRunPace(config: SuiteConfig, reportsDir: string) {
  const known = knownLimit(reportsHome(reportsDir), targetOf(config.baseUrl), baselineOf(config));
  const pace = new RunPace(known?.limit, config.maxRps);
  let said = 0;
  const record = () => {
    const paced = pace.record();
    writePace(reportsDir, paced, known);
    // What the pace does not trust, or found by a probe, said as it happens: a line, never a failure.
    for (const note of paced.notes?.slice(said) ?? []) console.log(`dialog-contract: the run's pace ${note}`);
    said = paced.notes?.length ?? 0;
  };
  record();
  const server = await startPaceServer({ pace, changed: record });
  return { at: { address: server.address, paced: pace.limit !== undefined }, close: server.close };
}

/** A setup that cannot go on ends its run with this verdict. */
type Ended = Extract<UnjudgedVerdict, { reason: string }>;

/**
 * Before anything is sent: the checks named and a team's module known good (the main command says so first), the
 * target judged, the learned contract written, the callback listener and the run's pace started.
 */
async function preflightRun(
  config: SuiteConfig,
  reportsDir: string,
): Promise<{ inbox: CallbackInbox; pace: Awaited<ReturnType<typeof startRunPace>> } | { ended: Ended }> {
  try {
    await runChecks(config);
  } catch (err) {
    if (!(err instanceof CheckRegistryError)) throw err;
    return { ended: { kind: 'config', reason: `dialog-contract: ${err.message}` } };
  }
  const problem = config.targetBaseUrl ? await targetProblem(config) : undefined;
  if (problem) return { ended: { kind: 'no-verdict', reason: problem } };
  if (config.contractFrom) {
    try {
      await writeLearnedContract(config.contractFrom, reportsDir);
    } catch (err) {
      return { ended: { kind: 'config', reason: `dialog-contract: ${(err as Error).message}` } };
    }
  }
  const inbox = new CallbackInbox(config.callbackTokenField);
  try {
    await inbox.start(config.callbackPort, config.callbackHost);
  } catch (err) {
    return { ended: { kind: 'config', reason: `dialog-contract: ${(err as Error).message}` } };
  }
  rememberSecrets(secretsOf(config));
  return { inbox, pace: await startRunPace(config, reportsDir) };
}

/**
 * The setup of one run, its records under `reportsDir`: its teardown and the variables its workers and reporter
 * inherit, or the verdict that ends it. Nothing global, so the runs of a several-run invocation set up side by side.
 */
async function setUpRun(
  config: SuiteConfig,
  reportsDir: string,
  run: { id: string; startedAt: number },
): Promise<{ teardown: () => Promise<void>; env: Record<string, string> } | { ended: Ended }> {
  clearRunReports(reportsDir);
  const preflight = await timed(reportsDir, PART.preflight, () => preflightRun(config, reportsDir));
  if ('ended' in preflight) return preflight;
  const { inbox, pace } = preflight;
  const { clock, paging, line } = await settleRequestShapes(config, reportsDir, run, pace.at);
  console.log(line);
  return {
    teardown: async () => {
      await Promise.all([inbox.stop(), pace.close()]);
    },
    env: {
      [RUN_PACE_ENV]: pace.at.address,
      [RUN_PACED_ENV]: pace.at.paced ? '1' : '',
      RUN_ID: run.id,
      RUN_STARTED_AT: String(run.startedAt),
      RUN_PARTIAL: partialRunReason(process.argv) ?? '',
      DIALOG_CONTRACT_INBOX_KEY: inbox.claimKey,
      [CLOCK_ENV]: JSON.stringify(clock),
      [PAGING_ENV]: JSON.stringify(paging),
    },
  };
}

/** Setups of a several-run invocation at once: each waits on its own target, most of the time. */
const SETUPS_AT_ONCE = 8;

/**
 * Several runs (RUNS_ENV): set up side by side, what each set recorded for its workers and reporter. A run that cannot
 * go on is stopped alone: its workers skip its tests, its reporter writes its verdict.
 */
async function setUpRuns(runs: readonly RunSpec[]): Promise<() => Promise<void>> {
  const teardowns = await pool(runs, SETUPS_AT_ONCE, async (run) => {
    const reportsDir = run.env.REPORTS_DIR!;
    const from = Date.now();
    const setUp = await setUpRun(runConfig(run.name), reportsDir, { id: randomUUID(), startedAt: from });
    markPart(reportsDir, PART.setup, from);
    if ('ended' in setUp) {
      stopRun(reportsDir, setUp.ended.reason);
      return undefined;
    }
    recordSetUp(run.name, setUp.env);
    return setUp.teardown;
  });
  return async () => {
    await Promise.all(teardowns.map((teardown) => teardown?.()));
  };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  // Outside the main command, which drew and printed it first: one seed for every run and worker of the invocation.
  const seeded = runSeed(process.env);
  if (seeded.drawn) console.log(seedLine(seeded.seed, loadSuiteConfig().generatedCases));
  const runs = runSpecs();
  if (runs) return setUpRuns(runs);
  const from = Date.now();
  const config = loadSuiteConfig();
  // Started by the main command beside Playwright: as long as Playwright's webServer would have waited for it.
  if (config.usesSimulator && process.env[SIMULATOR_STARTED_ENV] === '1' && !(await listensWithin(config.simulatorPort, '127.0.0.1', 30_000))) {
    endRun({
      kind: 'config',
      reason: `dialog-contract: the embedded simulator does not listen on port ${config.simulatorPort} after 30 s: see its lines above`,
    });
  }
  const listening = Date.now();
  const setUp = await setUpRun(config, REPORTS_DIR, {
    id: process.env.RUN_ID ?? randomUUID(),
    startedAt: Number(process.env.RUN_STARTED_AT ?? Date.now()),
  });
  // Journalled once setUpRun has cleared an earlier run's records.
  const [commandFrom, commandTo] = (process.env[COMMAND_TIMING_ENV] ?? '').split(',').map(Number);
  if (commandFrom && commandTo) markPart(REPORTS_DIR, PART.command, commandFrom, commandTo);
  markPart(REPORTS_DIR, PART.simulator, from, listening);
  markPart(REPORTS_DIR, PART.setup, from);
  if ('ended' in setUp) endRun(setUp.ended);
  // Workers and reporters inherit these.
  Object.assign(process.env, setUp.env);
  return setUp.teardown;
}
