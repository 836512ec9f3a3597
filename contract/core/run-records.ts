// The run's identity (its id and start, inherited from global setup) and the helpers for its JSON files; what the
// run's processes record for each other goes through the run's journal (journal.ts).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { suiteVersion } from '../../config/suite-version.ts';
import type { RunMeta } from '../../lib/fingerprint.ts';
import { runMeta } from '../../report/run-meta.ts';

/** A JSON report of a run; one that cannot be read is an Error with one line naming the file and the fix. */
export function readRunJson<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (err) {
    throw new Error(`${relative(process.cwd(), file)} cannot be read (${(err as Error).message.split('\n')[0]}): run npm run contract again`);
  }
}

/** One JSON line appended to a run record (its folder made when missing): workers and setup each write their own file. */
export function appendJsonl(file: string, row: unknown): void {
  const line = `${JSON.stringify(row)}\n`;
  try {
    appendFileSync(file, line);
  } catch (err) {
    // The folder is made once, on the first row, not asked for again on each of a run's hundreds.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, line);
  }
}

/**
 * When the run started (ms): global setup sets it once, workers and reporters inherit it. The one reader of
 * RUN_STARTED_AT; outside a run (a unit test, a script) it is now.
 */
export const runStartedAt = (): number => Number(process.env.RUN_STARTED_AT ?? Date.now());

/** The run this process belongs to (global setup set its id and start; workers and reporters inherit them). */
export function currentRun(config: Pick<SuiteConfig, 'baseUrl'>, vendorVersion: string | null = null): RunMeta {
  return runMeta(process.env.RUN_ID ?? 'unknown', runStartedAt(), config.baseUrl, suiteVersion(), vendorVersion);
}
