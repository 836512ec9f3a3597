// How a run ends, as exactly one verdict: pass, drift (contract failures the vendor owns: the only verdict that
// files tickets), or no verdict (the run could not judge the contract: the target unreachable or down, credentials
// rejected, a base URL that is not this API). A configuration error and a cancelled run are their own ends. Each has
// its exit code, one line that says which and what to fix, and the same reason in every report CI shows: a JUnit
// file with one error, the job summary, the drift report. Pure: the main command and the run reporter write them.

export type RunVerdict =
  | { kind: 'pass' }
  | { kind: 'drift' }
  | { kind: 'no-verdict'; reason: string }
  | { kind: 'config'; reason: string }
  | { kind: 'cancelled'; signal: 'SIGINT' | 'SIGTERM' };

/** 0 pass, 1 drift, 2 a setting or argument, 3 no verdict, 130/143 cancelled (128 + the signal, as shells do). */
export function exitCode(verdict: RunVerdict): number {
  switch (verdict.kind) {
    case 'pass':
      return 0;
    case 'drift':
      return 1;
    case 'config':
      return 2;
    case 'no-verdict':
      return 3;
    case 'cancelled':
      return verdict.signal === 'SIGINT' ? 130 : 143;
  }
}

/** What CI should do with each end, as the README and the example workflow say it. */
export const VERDICT_MEANING = {
  pass: 'the vendor honours the contract',
  drift: 'the vendor drifted: file the tickets in reports/tickets/',
  config: 'a setting or argument is wrong: fix it, nothing ran',
  'no-verdict': 'the run could not judge the contract: fix what the line says and run again; no tickets',
  cancelled: 'the run was cancelled: its created dialogs were stopped; no tickets',
} as const;

/** Where a drift's tickets and report are: a run's, or those a command writes elsewhere (the judge's). */
export interface DriftFiles {
  tickets: string;
  report: string;
}

const RUN_FILES: DriftFiles = { tickets: 'reports/tickets/', report: 'reports/drift.html' };

/** The one line that ends every run (and starts the output of one that could not judge). */
export function verdictLine(verdict: RunVerdict, files: DriftFiles = RUN_FILES): string {
  switch (verdict.kind) {
    case 'pass':
      return 'dialog-contract: pass: the vendor honours the contract';
    case 'drift':
      return `dialog-contract: drift: the vendor broke the contract; tickets in ${files.tickets}, the drift report in ${files.report}`;
    case 'config':
      return verdict.reason; // already "<command>: what is wrong and how to fix it"
    case 'no-verdict':
      return `dialog-contract: no verdict: ${verdict.reason}`;
    case 'cancelled':
      return `dialog-contract: cancelled (${verdict.signal}): no verdict, no tickets; the dialogs the run created were stopped (reports/created-dialogs.jsonl)`;
  }
}

/** Whether the run's reports may hold vendor tickets: only a run that judged the contract. */
export const judged = (verdict: RunVerdict) => verdict.kind === 'pass' || verdict.kind === 'drift';

export const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * JUnit for a run that did not judge the contract: one test case in error carrying the reason, so CI shows red with
 * the cause, and the tests that did not run as skipped.
 */
export function verdictJunit(verdict: Exclude<RunVerdict, { kind: 'pass' } | { kind: 'drift' }>, notRun: readonly string[] = []): string {
  const line = verdictLine(verdict);
  const cases = [
    `    <testcase classname="dialog-contract" name="the run">\n      <error message="${xml(line)}" type="${verdict.kind}">${xml(line)}</error>\n    </testcase>`,
    ...notRun.map(
      (t) =>
        `    <testcase classname="dialog-contract" name="${xml(t)}">\n      <skipped message="not run: ${xml(verdict.kind === 'cancelled' ? 'the run was cancelled' : 'the run could not judge the contract')}"/>\n    </testcase>`,
    ),
  ];
  return junitDocument('dialog-contract', 'dialog-contract run', cases, { failures: 0, errors: 1, skipped: notRun.length });
}

/** A JUnit file of one suite holding `cases` (each a rendered <testcase>), with its counts. */
export function junitDocument(name: string, suite: string, cases: readonly string[], counts: { failures: number; errors: number; skipped: number }): string {
  const tally = `tests="${cases.length}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" ${tally}>`,
    `  <testsuite name="${xml(suite)}" ${tally}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The reason as the head of a Markdown report (summary.md, drift.md), the tests that did not run, and the tests and
 * checks that ran but could not judge, each with why.
 */
export function verdictMarkdown(
  verdict: Exclude<RunVerdict, { kind: 'pass' } | { kind: 'drift' }>,
  notRun: readonly string[] = [],
  notJudged: readonly string[] = [],
): string {
  const title = { config: 'Configuration error', 'no-verdict': 'No verdict', cancelled: 'Cancelled' }[verdict.kind];
  return [
    `## ${title}`,
    '',
    `> ${verdictLine(verdict).replace(/^dialog-contract: /, '')}`,
    '',
    `${VERDICT_MEANING[verdict.kind]}.`,
    ...(notRun.length ? ['', `Not run (${notRun.length}):`, '', ...notRun.map((t) => `- ${t}`)] : []),
    ...(notJudged.length ? ['', `Not judged (${notJudged.length}):`, '', ...notJudged.map((t) => `- ${t}`)] : []),
    '',
  ].join('\n');
}
