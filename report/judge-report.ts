// The reports of a recording judged (npm run judge): the same failure model and files as a run of the suite —
// failures.json with each failure's replay, a ticket per breaking item, summary.md, drift.json and a JUnit file — from
// what checks/recording.ts found, plus the checks the recording could not feed, each with why. Pure: the command
// writes the files.
import type { RecordedFailure } from '../lib/failure.ts';
import type { RunMeta } from '../lib/fingerprint.ts';
import type { RecordingVerdict } from '../checks/recording.ts';
import { failureDetail, failureItem } from './drift-failures.ts';
import { buildDriftReport, type DriftReport } from './drift-report.ts';
import type { Acknowledgement } from './acknowledged.ts';
import { jobSummary } from './job-summary.ts';
import { replayOf } from './replay.ts';
import { ticketFiles } from './tickets.ts';
import { junitDocument, xml } from './verdict.ts';

/** One test case per check judged (failed when any of its findings did), one skipped per check not judged. */
function junit(verdict: RecordingVerdict, failures: readonly RecordedFailure[]): string {
  const cases = [
    ...Object.entries(verdict.judged).map(([check, seen]) => {
      const mine = failures.filter((f) => f.check === check);
      const failure = mine.length
        ? `\n      <failure message="${xml(`${mine.length} failure${mine.length === 1 ? '' : 's'}`)}">${xml(mine.map((f) => `${f.id}: expected ${f.expected}, observed ${f.observed}`).join('\n'))}</failure>\n    `
        : '';
      return `    <testcase classname="dialog-contract judge" name="${xml(`${check} (${seen.judged} judged)`)}">${failure}</testcase>`;
    }),
    ...verdict.notJudged.map(
      (n) =>
        `    <testcase classname="dialog-contract judge" name="${xml(n.check)}">\n      <skipped message="${xml(`not judged: ${n.why}`)}"/>\n    </testcase>`,
    ),
  ];
  const failed = Object.keys(verdict.judged).filter((check) => failures.some((f) => f.check === check)).length;
  return junitDocument('dialog-contract judge', 'recording', cases, { failures: failed, errors: 0, skipped: verdict.notJudged.length });
}

/** The files a judged recording writes into its folder: the only ones the judge removes there first. */
export const JUDGE_FILES = ['failures.json', 'drift.json', 'drift.md', 'summary.md', 'junit.xml', 'tickets'] as const;

/**
 * The files of a judged recording, by name under the judge's folder, and its report. Known drifts
 * (baselines/acknowledged.yaml) are acknowledged as a run acknowledges them (report/drift-report.ts acknowledgedOnly).
 */
export function judgeReportFiles(
  verdict: RecordingVerdict,
  run: RunMeta,
  source: string,
  acknowledgements: readonly Acknowledgement[] = [],
  today?: string,
): { files: Record<string, string>; report: DriftReport } {
  const firstOf = new Map<string, RecordedFailure>();
  for (const f of verdict.failures) if (!firstOf.has(f.id)) firstOf.set(f.id, f);
  const items = [...firstOf.values()].map(failureItem).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const report = buildDriftReport(items, (id) => failureDetail(firstOf.get(id)!), undefined, acknowledgements, today);
  const tickets = ticketFiles(report, () => `${run.startedAt} (recording ${source})`);
  const ticketOf = new Map(tickets.flatMap((t) => t.ids.map((id) => [id, `tickets/${t.name}`] as const)));
  const notJudged = verdict.notJudged.map((n) => `- not judged: ${n.check}: ${n.why}`);
  const summary = [
    // Each item links to what this command wrote of it (its ticket), an acknowledged one to its vendor ticket.
    jobSummary(report, run, (e) => ticketOf.get(e.id) ?? e.acknowledgement?.ticket),
    `\nJudged ${verdict.exchanges} recorded exchanges of ${source}: ${Object.values(verdict.judged).reduce((n, c) => n + c.judged, 0)} judgements by ${Object.keys(verdict.judged).length} checks.\n`,
    ...(notJudged.length ? ['\n### Checks the recording could not feed\n\n', `${notJudged.join('\n')}\n`] : []),
  ].join('');
  const failures = verdict.failures.map((f) => ({ ...f, ...(replayOf(f) ? { replay: replayOf(f) } : {}) }));
  return {
    report,
    files: {
      'failures.json': `${JSON.stringify({ run, failures }, null, 2)}\n`,
      'drift.json': `${JSON.stringify({ run, ...report, judged: verdict.judged, notJudged: verdict.notJudged }, null, 2)}\n`,
      'summary.md': summary,
      'junit.xml': junit(verdict, verdict.failures),
      ...Object.fromEntries(tickets.map((t) => [`tickets/${t.name}`, t.text])),
    },
  };
}
