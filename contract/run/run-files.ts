// Every file a contract run writes under reports/, and how a run's reports take the place of the last run's. The main
// command runs the suite into a folder of its own (`.next/` in the reports folder): a run that ends with a verdict
// (pass, drift) or is cancelled replaces the last run's reports with its own as a whole, at its end; one that stops
// before a verdict (a caller's mistake, a target that cannot be judged) leaves them as they were and keeps its own
// apart, in `stopped/`. Nothing a run left (a green junit.xml, an HTML report, tickets) is lost to a typo, and none
// of it may stand for a run that wrote its own.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_END_FILES, RUN_REPORTS } from '../core/run-report-files.ts';
import { CREATED_DIALOGS_FILE } from '../target/leftover-dialogs.ts';
import { PLAYWRIGHT_REPORTS } from '../core/verdict-reports.ts';

/** The folder a run of the main command writes into, under the reports folder, until its end. */
export const NEXT_RUN_DIR = '.next';
/** The reports of the last run that stopped before a verdict (exit 2, 3), under the reports folder. */
export const STOPPED_RUN_DIR = 'stopped';

/** What one run records as it goes and the reports it writes, relative to the reports folder. */
export const RUN_FILES = [
  // The run's journal and what setup settled for its workers (reports/run/), the probes' budget.
  'run',
  'probes',
  CREATED_DIALOGS_FILE,
  ...RUN_END_FILES,
  ...RUN_REPORTS,
  ...Object.values(PLAYWRIGHT_REPORTS),
];

export function clearRunReports(reportsDir: string): void {
  for (const stale of RUN_FILES) rmSync(join(reportsDir, stale), { recursive: true, force: true });
}

/** An empty folder for a run of the main command to write into (one a killed run left is dropped). */
export function startRunReports(reportsHome: string): string {
  const next = join(reportsHome, NEXT_RUN_DIR);
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  return next;
}

/**
 * A run that ended with a verdict, or was cancelled: its reports replace every report of the last run (and those of
 * a run that stopped since), as a whole. What outlives runs (rate-limits.json, load/, other commands' folders) stays.
 */
export function replaceRunReports(reportsHome: string, next: string): void {
  clearRunReports(reportsHome);
  rmSync(join(reportsHome, STOPPED_RUN_DIR), { recursive: true, force: true });
  for (const name of readdirSync(next)) {
    rmSync(join(reportsHome, name), { recursive: true, force: true });
    renameSync(join(next, name), join(reportsHome, name));
  }
  rmSync(next, { recursive: true, force: true });
}

/** A run that stopped before a verdict: the last run's reports stay as they were; its own go to stopped/. */
export function keepStoppedRun(reportsHome: string, next?: string): string {
  const stopped = join(reportsHome, STOPPED_RUN_DIR);
  rmSync(stopped, { recursive: true, force: true });
  if (next && existsSync(next)) renameSync(next, stopped);
  else mkdirSync(stopped, { recursive: true });
  return stopped;
}
