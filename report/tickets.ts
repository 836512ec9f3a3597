// Vendor tickets as files (reports/tickets/*.md), one per breaking or changed item (an acknowledgement past its date
// makes its drift one of those again): ready to paste into a tracker. Pure: the caller writes the files.
import { causeItem, causeOperations, hasTicket, type DriftEntry, type DriftReport } from './drift-report.ts';
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

/** A ticket of one root cause seen at several places: the first entry's, its headline and places naming them all. */
function causeMarkdown(members: readonly DriftEntry[], baseline: string | null, firstSeen: string): string {
  const [first] = members as [DriftEntry, ...DriftEntry[]];
  const lines = ticketMarkdown(first, baseline, firstSeen).split('\n');
  const at = lines.findIndex((l) => l.startsWith('- Reference: '));
  const places = members.map((m) => `  - ${m.operation || 'API'}: \`${m.item}\`${m.test ? `, found by ${m.test}` : ''} (\`${m.id}\`)`);
  return [
    `# ${causeHeadline(members)}`,
    ...lines.slice(1, at).filter((l) => !l.startsWith('- Operation: ') && !l.startsWith('- Found by: ')),
    `- Operations: ${causeOperations(members)}`,
    `- Seen at ${members.length} places (one cause, one ticket):`,
    ...places,
    ...lines.slice(at + 1),
  ].join('\n');
}

/** The headline of a cause's ticket: every operation it was seen at, and the field. */
const causeHeadline = (members: readonly DriftEntry[]): string =>
  members.length === 1 ? ticketHeadline(members[0]!) : `[Dialog Bot Service] ${causeOperations(members)}: ${causeItem(members[0]!)}`;

/**
 * Every ticket of a report: breaking and changed items, expired acknowledgements among them, one per root cause (the
 * entries of one cause share it); `ids`: the items it files, `headline` what a tracker and JUnit show of it.
 */
export function ticketFiles(
  report: DriftReport,
  firstSeen: (entry: DriftEntry) => string,
): Array<{ name: string; text: string; ids: string[]; headline: string }> {
  const filed = report.entries.filter(hasTicket);
  const byCause = new Map<string, DriftEntry[]>();
  for (const e of filed) {
    const key = e.cause?.join('\n') ?? e.id;
    byCause.set(key, [...(byCause.get(key) ?? []), e]);
  }
  return [...byCause.values()].map((members) => {
    const [first] = members as [DriftEntry, ...DriftEntry[]];
    const text = members.length === 1 ? ticketMarkdown(first, report.baseline, firstSeen(first)) : causeMarkdown(members, report.baseline, firstSeen(first));
    return { name: ticketFileName(first), text, ids: members.map((m) => m.id), headline: causeHeadline(members) };
  });
}
