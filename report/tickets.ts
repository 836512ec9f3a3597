// Vendor tickets as files (reports/tickets/*.md), one per breaking or changed item (an acknowledgement past its date
// makes its drift one of those again): ready to paste into a tracker. Pure: the caller writes the files.
import { hasTicket, type DriftEntry, type DriftReport } from './drift-report.ts';
import { fenced } from './markdown.ts';
import { REPLAY_VARIABLES } from './replay.ts';

/** A file name from an id: readable, and unique through a short hash of the whole id. */
export function ticketFileName(entry: Pick<DriftEntry, 'id' | 'severity'>): string {
  let hash = 2166136261;
  for (let i = 0; i < entry.id.length; i++) hash = Math.imul(hash ^ entry.id.charCodeAt(i), 16777619);
  const slug = entry.id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 70);
  return `${entry.severity}-${slug}-${(hash >>> 0).toString(16).padStart(8, '0')}.md`;
}

/** A ticket's headline: what a tracker shows, and what JUnit says of a test that met the drift. */
export const ticketHeadline = (entry: Pick<DriftEntry, 'operation' | 'item'>): string => `[Dialog Bot Service] ${entry.operation || 'API'}: ${entry.item}`;

export function ticketMarkdown(entry: DriftEntry, baseline: string | null, firstSeen: string): string {
  const title = ticketHeadline(entry);
  return [
    `# ${title}`,
    '',
    `- Severity: ${entry.severity}${entry.change ? ` (${entry.change} since baseline ${baseline})` : ''}`,
    `- Operation: ${entry.operation || 'API'}`,
    `- Specification: §${entry.section}`,
    `- Expected: ${entry.documented}`,
    `- Observed: ${entry.observed}`,
    ...(entry.before !== undefined ? [`- Baseline ${baseline}: ${entry.before}`] : []),
    `- First seen: ${firstSeen}`,
    ...(entry.acknowledgement
      ? [
          `- Acknowledged until ${entry.acknowledgement.until}${entry.acknowledgement.expired ? ' (EXPIRED)' : ''}: ${entry.acknowledgement.ticket} (${entry.acknowledgement.reason})`,
        ]
      : []),
    ...(entry.test ? [`- Found by: ${entry.test}`] : []),
    `- Reference: ${entry.id}`,
    '',
    '## Request and response (secrets removed)',
    '',
    fenced(entry.evidence ?? 'No single request shows it; see the test named above in the Playwright HTML report.'),
    '',
    ...(entry.replay ? ['## Reproduce', '', `With ${REPLAY_VARIABLES} set in the shell:`, '', fenced(entry.replay, 'sh'), ''] : []),
  ].join('\n');
}

/** Every ticket of a report: breaking and changed items, expired acknowledgements among them; `ids`: the items it files. */
export function ticketFiles(report: DriftReport, firstSeen: (entry: DriftEntry) => string): Array<{ name: string; text: string; ids: string[] }> {
  return report.entries
    .filter(hasTicket)
    .map((e) => ({ name: ticketFileName(e), text: ticketMarkdown(e, report.baseline, firstSeen(e)), ids: [e.id] }));
}
