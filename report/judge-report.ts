// The reports of a recording judged (npm run judge): the same failure model and files as a run of the suite —
// failures.json with each failure's replay, a ticket per breaking item, summary.md, drift.json and a JUnit file — from
// what checks/recording.ts found, plus the checks the recording could not feed, each with why. Pure: the command
// writes the files.
import type { RecordedFailure } from '../lib/failure.ts';
import type { RunMeta } from '../lib/fingerprint.ts';
import type { RecordingVerdict } from '../checks/recording.ts';
import { failureDetail, failureItem } from './drift-failures.ts';
import { buildDriftReport } from './drift-report.ts';
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

/** The files of a judged recording, by name under the reports folder. */
export function judgeReportFiles(verdict: RecordingVerdict, run: RunMeta, source: string): Record<string, string> {
  const firstOf = new Map<string, RecordedFailure>();
  for (const f of verdict.failures) if (!firstOf.has(f.id)) firstOf.set(f.id, f);
  const items = [...firstOf.values()].map(failureItem).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const report = buildDriftReport(items, (id) => failureDetail(firstOf.get(id)!));
  const notJudged = verdict.notJudged.map((n) => `- not judged: ${n.check}: ${n.why}`);
  const summary = [
    jobSummary(report, run, (e) => `tickets/#${encodeURIComponent(e.id)}`),
    `\nJudged ${verdict.exchanges} recorded exchanges of ${source}: ${Object.values(verdict.judged).reduce((n, c) => n + c.judged, 0)} judgements by ${Object.keys(verdict.judged).length} checks.\n`,
    ...(notJudged.length ? ['\n### Checks the recording could not feed\n\n', `${notJudged.join('\n')}\n`] : []),
  ].join('');
  const failures = verdict.failures.map((f) => ({ ...f, ...(replayOf(f) ? { replay: replayOf(f) } : {}) }));
  return {
    'failures.json': `${JSON.stringify({ run, failures }, null, 2)}\n`,
    'drift.json': `${JSON.stringify({ run, ...report, judged: verdict.judged, notJudged: verdict.notJudged }, null, 2)}\n`,
    'summary.md': summary,
    'junit.xml': junit(verdict, verdict.failures),
    ...Object.fromEntries(ticketFiles(report, () => `${run.startedAt} (recording ${source})`).map((t) => [`tickets/${t.name}`, t.text])),
  };
}
