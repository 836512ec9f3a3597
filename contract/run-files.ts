// Every file a contract run writes under reports/, and their removal before a run starts: nothing an earlier run
// left (a green junit.xml, an HTML report, tickets) may stand for a run that stopped before it wrote its own.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_REPORTS } from './reporters/run-report-files.ts';
import { RUN_END_FILES } from './run-end.ts';
import { EXCHANGES_DIR } from './run-records.ts';
import { HEALTH_DIR } from './run-health.ts';
import { SETTLE_DIR } from './settle.ts';
import { CREATED_DIALOGS_FILE } from './leftover-dialogs.ts';
import { PLAYWRIGHT_REPORTS } from './verdict-reports.ts';
import { TRANSITIONS_DIR } from './state-table.ts';

/** What one run records as it goes and the reports it writes, relative to the reports folder. */
export const RUN_FILES = [
  EXCHANGES_DIR,
  'probes',
  'throttle',
  'run',
  'preconditions',
  TRANSITIONS_DIR,
  HEALTH_DIR,
  SETTLE_DIR,
  CREATED_DIALOGS_FILE,
  ...RUN_END_FILES,
  ...RUN_REPORTS,
  ...Object.values(PLAYWRIGHT_REPORTS),
];

export function clearRunReports(reportsDir: string): void {
  for (const stale of RUN_FILES) rmSync(join(reportsDir, stale), { recursive: true, force: true });
}
