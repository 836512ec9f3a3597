// The CI job summary of a run (GitHub's $GITHUB_STEP_SUMMARY): counts by severity and the first items of each kind
// that needs a look, each linked to the report. Pure Markdown from the drift report.
import { expiredLine, resolvedLine } from './acknowledged.ts';
import type { DriftEntry, DriftReport, Severity } from './drift-report.ts';
import { inline } from './markdown.ts';
import type { RunMeta } from '../lib/fingerprint.ts';

const LISTED: Severity[] = ['breaking', 'learned', 'changed', 'acknowledged'];
const FIRST = 20;

/** `link`: where an entry's details are (a ticket, the drift report's row); none, and it is listed unlinked. */
export function jobSummary(report: DriftReport, run: RunMeta | null, link: (entry: DriftEntry) => string | undefined): string {
  const text = (value: string) => inline(value.slice(0, 160));
  const out = [
    `## Contract drift${run ? ` — ${run.target}${run.vendorVersion ? ` (${run.vendorVersion})` : ''}, run ${run.startedAt}` : ''}`,
    '',
    report.baseline === null
      ? 'No baseline compared.'
      : `Compared with baseline \`${report.baseline}\`: ${report.changes} change${report.changes === 1 ? '' : 's'}.`,
    '',
    `| ${Object.keys(report.counts).join(' | ')} |`,
    `|${Object.keys(report.counts)
      .map(() => '---:')
      .join('|')}|`,
    `| ${Object.values(report.counts).join(' | ')} |`,
    ...[...report.expired.map(expiredLine), ...report.resolved.map(resolvedLine)].map((line) => `\n- ${line}`),
  ];
  for (const severity of LISTED) {
    const entries = report.entries.filter((e) => e.severity === severity);
    if (entries.length === 0) continue;
    out.push('', `### ${severity} (${entries.length})`, '');
    for (const e of entries.slice(0, FIRST)) {
      const to = link(e);
      out.push(`- ${to ? `[${text(e.id)}](${to})` : text(e.id)} — ${text(e.operation || 'API')}: ${text(e.observed)}`);
    }
    if (entries.length > FIRST) out.push(`- … and ${entries.length - FIRST} more in the report`);
  }
  return `${out.join('\n')}\n`;
}
