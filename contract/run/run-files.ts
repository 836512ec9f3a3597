// Every file a contract run writes under reports/, and their removal before a run starts: nothing an earlier run
// left (a green junit.xml, an HTML report, tickets) may stand for a run that stopped before it wrote its own.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_END_FILES, RUN_REPORTS } from '../core/run-report-files.ts';
import { CREATED_DIALOGS_FILE } from '../target/leftover-dialogs.ts';
import { PLAYWRIGHT_REPORTS } from '../core/verdict-reports.ts';

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
