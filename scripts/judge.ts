// `npm run judge -- FILE.har [--checks A,B] [--exclude-checks C]`: recorded traffic judged by the suite's checks,
// sending no request. A plain HAR 1.2 log from any client is read (checks/recording.ts); every check that can judge
// from a recording is applied, a team's too (CHECKS_MODULE); the reports are a run's (failures.json, tickets/,
// summary.md, drift.json, junit.xml in reports/, nothing of an earlier run left), the exit codes the main command's.
// The recording's credentials and tokens never reach them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { commandLineOrExit, exitWithUsage, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { ConfigError, parseSuiteConfig } from '../config/suite-config.ts';
import { suiteVersion } from '../config/suite-version.ts';
import { CheckRegistryError } from '../checks/check.ts';
import { judgeRecording, type HarLog } from '../checks/recording.ts';
import { renderHeadline } from '../lib/failure.ts';
import { contractValidators } from '../openapi/validators.ts';
import { judgeReportFiles } from '../report/judge-report.ts';
import { exitCode, verdictLine } from '../report/verdict.ts';
import { loadDotenvOnce, REPORTS_DIR } from '../contract/core/env.ts';
import { writeVerdictReports } from '../contract/core/verdict-reports.ts';
import { registryOf } from '../contract/judging/run-checks.ts';
import { RUN_FILES } from '../contract/run/run-files.ts';

const ENVIRONMENT = [
  ['CHECKS_MODULE', "a module of the team's own checks (docs/checks.md): its checks of one exchange and of the whole recording judge too"],
  ['CHECKS, EXCLUDE_CHECKS', 'the checks made, or left out, by name or family (as --checks, --exclude-checks)'],
  ['LIST_SETTLE_S', 'how long a list may trail a write (default 10): a list read sooner after it says nothing of its absence'],
  REPORTS_DIR_ENV,
] as const;

const COMMAND = {
  script: 'judge',
  usage: ['FILE.har [--checks A,B] [--exclude-checks C]'],
  summary:
    "Judges recorded traffic by the suite's checks and sends no request: a plain HAR 1.2 file from any client (a\n" +
    "browser's DevTools export, a recording proxy in front of staging, the vendor's reproduction). Each exchange is held\n" +
    'to the document and to what §2 says of a list page, a record, a sent message and a file; the reads of one dialog over\n' +
    'time, a write and the read after it, the pages of one query and series of creates, messages and downloads, as far\n' +
    'as the recording holds them. Checks a recording cannot feed are listed as not judged, with why. Writes the reports\n' +
    'a run writes (reports/failures.json, tickets/, summary.md, drift.json, junit.xml); no credential or token of the\n' +
    'recording reaches them.',
  positionals: [['FILE.har', 'the recording (HAR 1.2: method, URL, headers, bodies, base64 content)']],
  options: {
    checks: { type: 'string', value: 'A,B', description: 'make only these checks, by name or family', env: 'CHECKS' },
    'exclude-checks': { type: 'string', value: 'C,D', description: 'leave these checks out, listed as not judged', env: 'EXCLUDE_CHECKS' },
  },
  environment: ENVIRONMENT,
  exit:
    '0 the recording honours the contract; 1 drift (failures and tickets in reports/); 2 a bad argument, setting, team\n' +
    'module or file (nothing judged); 3 no verdict: the recording holds no exchange of this API.',
  examples: ['npm run judge -- ~/Downloads/staging.har', 'npm run judge -- proxy.har --exclude-checks sent_at_conformance'],
} as const;

const { values, positionals } = commandLineOrExit(COMMAND);
if (positionals.length !== 1) exitWithUsage(COMMAND, 'give one HAR file to judge');
const file = positionals[0]!;
const names = (list: string | undefined) => list?.split(',').map((n) => n.trim());

let har: HarLog;
try {
  har = JSON.parse(readFileSync(file, 'utf8')) as HarLog;
  if (!Array.isArray(har?.log?.entries)) throw new Error('it has no log.entries: not a HAR 1.2 file');
} catch (err) {
  exitWithUsage(COMMAND, `${file}: ${String((err as Error).message).split('\n')[0]}`);
}

let registry: Awaited<ReturnType<typeof registryOf>>;
let settleMs: number;
try {
  loadDotenvOnce();
  const config = parseSuiteConfig(process.env, ENVIRONMENT);
  registry = await registryOf({
    checksModule: config.checksModule,
    checks: names(values.checks) ?? config.checks,
    excludeChecks: names(values['exclude-checks']) ?? config.excludeChecks,
  });
  settleMs = config.listSettleSeconds * 1000;
} catch (err) {
  if (!(err instanceof ConfigError || err instanceof CheckRegistryError)) throw err;
  exitWithUsage(COMMAND, err.message);
}

const started = Date.now();
const source = basename(file);
const verdict = judgeRecording(har, contractValidators(), registry, source, settleMs);
// Nothing of an earlier run or judge stands for this one; the recording itself may lie in reports/ (a run's HAR).
for (const stale of RUN_FILES) if (resolve(REPORTS_DIR, stale) !== resolve(file)) rmSync(join(REPORTS_DIR, stale), { recursive: true, force: true });
if (verdict.exchanges === 0) {
  const end = { kind: 'no-verdict', reason: `${source} holds no exchange of this API (addresses {base_url}/api/v1/…, /v2/…, /vertex/v1/…)` } as const;
  writeVerdictReports(REPORTS_DIR, end);
  console.error(verdictLine(end));
  process.exit(exitCode(end));
}
const run = {
  runId: randomUUID(),
  startedAt: new Date(started).toISOString(),
  target: `recording ${source}`,
  suiteVersion: suiteVersion(),
  vendorVersion: null,
};
for (const [name, text] of Object.entries(judgeReportFiles(verdict, run, source))) {
  mkdirSync(dirname(join(REPORTS_DIR, name)), { recursive: true });
  writeFileSync(join(REPORTS_DIR, name), text);
}
for (const f of verdict.failures) console.error(renderHeadline(f));
for (const n of verdict.notJudged) console.log(`not judged: ${n.check}: ${n.why}`);
const judgements = Object.values(verdict.judged).reduce((n, c) => n + c.judged, 0);
console.log(
  `judge: ${verdict.exchanges} exchanges, ${judgements} judgements by ${Object.keys(verdict.judged).length} checks, ${verdict.failures.length} failures; ${relative(process.cwd(), join(REPORTS_DIR, 'summary.md'))}`,
);
const end = verdict.failures.length > 0 ? ({ kind: 'drift' } as const) : ({ kind: 'pass' } as const);
console.log(verdictLine(end));
process.exit(exitCode(end));
