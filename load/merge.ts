// npm run load:merge -- [--out DIR] REPORT...: the reports of the runners of one split k6 test (k6-operator: one per
// pod) merged into the report of the whole test (discovery/merge-reports.ts), written as a single run's are:
// DIR/<script>.json, .txt, .html (with each runner's share) and .fingerprint.json (default reports/load, where the
// contract run finds them). Each
// REPORT is a runner's <script>.json, or a pod's log (`kubectl logs`), which carries the report as one line.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CommandLineError, helpPointer, helpText, readCommandLine } from '../config/command-line.ts';
import { fingerprintJson } from '../lib/fingerprint.ts';
import { stableStringify } from '../lib/json.ts';
import { suiteVersion } from '../config/suite-version.ts';
import { loadRunMeta, REPORT_LINE, type LoadReport } from '../discovery/load-summary.ts';
import { CHANCE_MARGINS, DISAGREEMENT, MergeError, mergedText, mergeReports, type MergedReport } from '../discovery/merge-reports.ts';
import { loadPageHtml } from '../report/load-page.ts';

const REPORTS_DIR = fileURLToPath(new URL('../reports/load/', import.meta.url));

const COMMAND = {
  script: 'load:merge',
  usage: ['[--out DIR] REPORT...'],
  summary:
    'Merges the reports of the runners of one split k6 test (k6-operator: one pod per runner; npm run load -- SCRIPT\n' +
    '--split N does it by itself) into the report of the whole test: counts and rates add up, p95/p99 are the highest\n' +
    "runner's, the rate ladder is analysed again on the added-up counts, the size searches come from the first runner.\n" +
    "Prints the merged summary with each runner's findings and where runners disagree (a rate finding more than\n" +
    `${DISAGREEMENT * 100}% off the merged one and more than ${CHANCE_MARGINS} times its own margin, different refusal statuses,\n` +
    'different limits, missing runners).',
  positionals: [
    [
      'REPORT',
      `a runner's SCRIPT.json (LOAD_REPORTS_DIR), or a pod's log (kubectl logs POD > pod.log): its line starting "${REPORT_LINE.trim()}" is the report`,
    ],
  ],
  options: {
    out: { type: 'string', value: 'DIR', description: 'where to write SCRIPT.json, .txt, .html and .fingerprint.json', default: 'reports/load' },
  },
  environment: [],
  exit: '0 merged; 2 a bad argument, a file that holds no report, or reports that are not parts of one test.',
  examples: [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell command, ${p#pod/} is the shell's
    'for p in $(kubectl get pods -l k6_cr=dialog-rate-limit,runner=true -o name); do kubectl logs $p > ${p#pod/}.log; done',
    'npm run load:merge -- dialog-rate-limit-*.log',
  ],
} as const;

/** The report in a file: the JSON report itself, or the report line of a runner's output. */
export function readReport(file: string): LoadReport {
  const text = readFileSync(file, 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(REPORT_LINE));
  try {
    return JSON.parse(line === undefined ? text : line.slice(REPORT_LINE.length)) as LoadReport;
  } catch {
    throw new MergeError(`${file} holds no load report: give a runner's <script>.json or its output (the line starting "${REPORT_LINE.trim()}")`);
  }
}

/**
 * Merges and writes DIR/<script>.json, .txt, .html and .fingerprint.json; the merged report for the caller to print.
 * The fingerprint names the run (target, start): a contract run about the same target takes its findings in. The
 * runners redacted their reports; the page is passed through the redaction of credentials once more, as they are.
 */
export function writeMergedReport(reports: readonly LoadReport[], dir: string): MergedReport {
  const merged = mergeReports(reports);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${merged.script}.json`), `${stableStringify(merged)}\n`);
  writeFileSync(join(dir, `${merged.script}.txt`), mergedText(merged));
  writeFileSync(join(dir, `${merged.script}.html`), loadPageHtml(merged, []));
  const run = loadRunMeta(merged, suiteVersion(), reports.length);
  if (merged.fingerprint.length > 0) writeFileSync(join(dir, `${merged.script}.fingerprint.json`), fingerprintJson(merged.fingerprint, run));
  return merged;
}

export function main(argv: string[]): number {
  let parsed: ReturnType<typeof readCommandLine<typeof COMMAND.options>>;
  try {
    parsed = readCommandLine(COMMAND, argv);
  } catch (err) {
    if (!(err instanceof CommandLineError)) throw err;
    console.error(`load:merge: ${err.message}`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(helpText(COMMAND));
    return 0;
  }
  if (parsed.positionals.length === 0) {
    console.error(`load:merge: give the runners' reports; ${helpPointer(COMMAND)}`);
    return 2;
  }
  try {
    const merged = writeMergedReport(parsed.positionals.map(readReport), parsed.values.out ?? REPORTS_DIR);
    process.stdout.write(mergedText(merged));
    return 0;
  } catch (err) {
    if (!(err instanceof MergeError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    console.error(`load:merge: ${(err as Error).message}`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
