// `npm run drift -- summary [--link URL]`: the CI job summary of the last run (counts by severity, the first
// breaking, changed and acknowledged items), each item linked to URL (the uploaded report artifact) or drift.html.
// `npm run drift -- history [NAME...]`: reports/history.html, every item's value in each baseline (all of them when
// none is named), in the order they were taken, and where it changed.
// `npm run drift -- overlay --baseline NAME`: the learned document of a saved baseline, reports/baseline-NAME.overlay.yaml
// and reports/baseline-NAME.openapi.yaml, as a run writes its own. Bad input: one line, exit 2.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commandLineOrExit, exitWithUsage, helpPointer, REPORTS_DIR_ENV } from '../config/command-line.ts';
import type { DriftReport } from '../report/drift-report.ts';
import type { RunMeta } from '../lib/fingerprint.ts';
import { buildHistory, renderHistoryHtml } from '../report/history.ts';
import { jobSummary } from '../report/job-summary.ts';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { readRunJson } from '../contract/core/run-records.ts';
import { learnedDocumentFiles } from '../report/learned-document.ts';
import { BaselineError, readAllBaselines, readBaseline } from '../contract/core/baselines.ts';
import { loadDocument } from '../openapi/document.ts';

const COMMAND = {
  script: 'drift',
  usage: ['summary [--link URL]', 'history [NAME...]', 'overlay --baseline NAME'],
  summary:
    "Reads the last run's drift report and the saved baselines (npm run contract writes the reports):\n" +
    '  summary   the CI job summary in Markdown on stdout: counts by severity, the first 20 breaking, changed and\n' +
    '            acknowledged items, each linked (to --link, else to drift.html#ID)\n' +
    "  history   reports/history.html: every item's value in each baseline, in the order they were taken, and where it\n" +
    '            changed (the baselines named, else all of baselines/)\n' +
    '  overlay   what a saved baseline observed as an OpenAPI Overlay and the document with it applied:\n' +
    '            reports/baseline-NAME.overlay.yaml and reports/baseline-NAME.openapi.yaml',
  positionals: [
    ['summary | history | overlay', 'what to write (one of them)'],
    ['NAME...', 'history: baselines to compare (baselines/NAME.json), in this order'],
  ],
  options: {
    link: { type: 'string', value: 'URL', description: "summary: where each item links (the uploaded report artifact's address)", default: 'drift.html#ID' },
    baseline: { type: 'string', value: 'NAME', description: 'overlay: the saved baseline (baselines/NAME.json) to write the learned document of' },
  },
  environment: [REPORTS_DIR_ENV],
  exit: '0 written; 2 bad input, no drift report yet, or a baseline missing or unreadable.',
  examples: [
    'npm run drift -- summary --link "$RUN_URL" >> "$GITHUB_STEP_SUMMARY"',
    'npm run drift -- history vendor-4.1 vendor-4.2',
    'npm run drift -- overlay --baseline vendor-4.2',
  ],
} as const;

function fail(message: string): never {
  return exitWithUsage(COMMAND, message);
}

const parsed = commandLineOrExit(COMMAND);
const [command, ...names] = parsed.positionals;

if (command === 'summary') {
  const file = join(REPORTS_DIR, 'drift.json');
  if (!existsSync(file)) fail(`no drift report yet (${relative(process.cwd(), file)}): run npm run contract first`);
  let report: DriftReport & { run: RunMeta | null };
  try {
    report = readRunJson(file);
  } catch (err) {
    fail((err as Error).message);
  }
  const link = parsed.values.link;
  process.stdout.write(jobSummary(report, report.run, (e) => (link ? link : `drift.html#${encodeURIComponent(e.id)}`)));
} else if (command === 'history') {
  try {
    const baselines = names.length > 0 ? names.map(readBaseline) : readAllBaselines();
    if (baselines.length === 0) fail('no baselines to show: save some with npm run baseline -- NAME');
    mkdirSync(REPORTS_DIR, { recursive: true });
    const out = join(REPORTS_DIR, 'history.html');
    const history = buildHistory(baselines);
    writeFileSync(out, renderHistoryHtml(history));
    const changed = history.rows.filter((r) => r.changedAt.length > 0).length;
    console.log(
      `drift: ${relative(process.cwd(), out)}: ${history.rows.length} items over ${history.columns.length} baselines (${history.columns.map((c) => c.name).join(' → ')}), ${changed} changed`,
    );
  } catch (err) {
    if (!(err instanceof BaselineError)) throw err;
    fail(err.message);
  }
} else if (command === 'overlay') {
  const name = parsed.values.baseline ?? fail(`overlay needs --baseline NAME; ${helpPointer(COMMAND)}`);
  let baseline: ReturnType<typeof readBaseline>;
  try {
    baseline = readBaseline(name);
  } catch (err) {
    if (!(err instanceof BaselineError)) throw err;
    fail(err.message);
  }
  mkdirSync(REPORTS_DIR, { recursive: true });
  const files = await learnedDocumentFiles(`baseline-${name.replace(/[^\w.-]/g, '_')}`, baseline.items, baseline.run ?? null, loadDocument());
  for (const [file, text] of Object.entries(files.texts)) writeFileSync(join(REPORTS_DIR, file), text);
  console.log(
    `drift: ${relative(process.cwd(), join(REPORTS_DIR, files.overlay))} and ${files.document}: what baseline ${name} observed, as an overlay and applied`,
  );
} else {
  fail(`${command ? `unknown command "${command}"` : 'no command'}: give summary, history or overlay; ${helpPointer(COMMAND)}`);
}
