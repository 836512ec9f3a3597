// The reports of a run that did not judge the contract (a setting wrong, the target unreachable or down, the run
// cancelled): the files CI shows carry the one reason, and no ticket, fingerprint or drift entry is written, so a
// baseline or a vendor ticket can never come from such a run. Written by the main command, global setup or the
// run reporter, whichever learns it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunScope } from '../../lib/fingerprint.ts';
import { verdictJunit, verdictLine, verdictMarkdown, type RunVerdict } from '../../report/verdict.ts';

/** The Playwright reporters' own outputs (playwright.config.ts): CI publishes them. */
export const PLAYWRIGHT_REPORTS = { junit: 'junit.xml', html: 'html' } as const;

export type UnjudgedVerdict = Exclude<RunVerdict, { kind: 'pass' } | { kind: 'drift' }>;

/**
 * junit.xml with one error, summary.md and drift.md headed by the reason, drift.json and failures.json saying it; the
 * tests not run, and the tests and checks that could not judge ("TEST: why").
 */
export function writeVerdictReports(
  reportsDir: string,
  verdict: UnjudgedVerdict,
  notRun: readonly string[] = [],
  notJudged: readonly string[] = [],
  /** What the run selected and ran before it ended (lib/fingerprint.ts RunScope), when it got as far as its tests. */
  scope?: RunScope,
): void {
  mkdirSync(reportsDir, { recursive: true });
  const markdown = verdictMarkdown(verdict, notRun, notJudged);
  const json = `${JSON.stringify({ verdict: { ...verdict, line: verdictLine(verdict) }, ...(scope ? { scope } : {}), notRun, notJudged, failures: [] }, null, 2)}\n`;
  writeFileSync(join(reportsDir, PLAYWRIGHT_REPORTS.junit), verdictJunit(verdict, notRun));
  writeFileSync(join(reportsDir, 'summary.md'), markdown);
  writeFileSync(join(reportsDir, 'drift.md'), `# Contract drift report\n\n${markdown}`);
  writeFileSync(join(reportsDir, 'drift.json'), json);
  writeFileSync(join(reportsDir, 'failures.json'), json);
}

/** The verdict a run that did not judge wrote (drift.json), if it wrote one. */
export function readVerdict(reportsDir: string): UnjudgedVerdict | undefined {
  const file = join(reportsDir, 'drift.json');
  if (!existsSync(file)) return undefined;
  try {
    const { verdict } = JSON.parse(readFileSync(file, 'utf8')) as { verdict?: UnjudgedVerdict & { line?: string } };
    if (!verdict || verdict.kind === undefined) return undefined;
    const { line: _line, ...read } = verdict;
    return read as UnjudgedVerdict;
  } catch {
    return undefined;
  }
}
