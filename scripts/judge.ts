// `npm run judge -- FILE.har [--checks A,B] [--exclude-checks C]`: recorded traffic judged by the suite's checks,
// sending no request. A plain HAR 1.2 log from any client is read (checks/recording.ts); every check that can judge
// from a recording is applied, a team's too (CHECKS_MODULE); the reports are a run's (failures.json, tickets/,
// summary.md, drift.json, junit.xml), in a folder of the judge's own (reports/judge/, or --out DIR): a run's reports
// are never touched. Known drifts (baselines/acknowledged.yaml) are acknowledged as the main command does; the exit
// codes are its. The recording's credentials and tokens never reach the reports.
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
import { JUDGE_FILES, judgeReportFiles } from '../report/judge-report.ts';
import { acknowledgedOnly } from '../report/drift-report.ts';
import { expiredLine, utcDay, type Acknowledgement } from '../report/acknowledged.ts';
import { adoptLegacyIds } from '../report/legacy-ids.ts';
import { FAILURE_NAMES, Pseudonyms, stringsOf } from '../report/personal-data.ts';
import { AcknowledgementsError, readAcknowledgements } from '../contract/fixtures/acknowledgements.ts';
import { exitCode, verdictLine } from '../report/verdict.ts';
import { loadDotenvOnce, REPORTS_DIR } from '../contract/core/env.ts';
import { writeVerdictReports } from '../contract/core/verdict-reports.ts';
import { registryOf } from '../contract/judging/run-checks.ts';
import { NEXT_RUN_DIR, STOPPED_RUN_DIR } from '../contract/run/run-files.ts';

const ENVIRONMENT = [
  ['CHECKS_MODULE', "a module of the team's own checks (docs/checks.md): its checks of one exchange and of the whole recording judge too"],
  ['CHECKS, EXCLUDE_CHECKS', 'the checks made, or left out, by name or family (as --checks, --exclude-checks)'],
  ['LIST_SETTLE_S', 'how long a list may trail a write (default 10): a list read sooner after it says nothing of its absence'],
  ['KEEP_PERSONAL_DATA', "1: tickets and failures.json quote end users' IP addresses and cities as recorded (default: ip-1, city-1)"],
  REPORTS_DIR_ENV,
] as const;

const COMMAND = {
  script: 'judge',
  usage: ['FILE.har [--out DIR] [--checks A,B] [--exclude-checks C]'],
  summary:
    "Judges recorded traffic by the suite's checks and sends no request: a plain HAR 1.2 file from any client (a\n" +
    "browser's DevTools export, a recording proxy in front of staging, the vendor's reproduction). Each exchange is held\n" +
    'to the document and to what §2 says of a list page, a record, a sent message and a file; the reads of one dialog over\n' +
    'time, a write and the read after it, the pages of one query and series of creates, messages and downloads, as far\n' +
    'as the recording holds them. Checks a recording cannot feed are listed as not judged, with why. Writes the reports\n' +
    'a run writes (failures.json, tickets/, summary.md, drift.json, junit.xml) into reports/judge/ (or --out DIR), never\n' +
    "over a run's reports; no credential or token of the recording reaches them. Drifts in baselines/acknowledged.yaml\n" +
    'are acknowledged as a run acknowledges them: a recording whose every failure is one passes.',
  positionals: [['FILE.har', 'the recording (HAR 1.2: method, URL, headers, bodies, base64 content)']],
  options: {
    out: { type: 'string', value: 'DIR', description: "the folder of the judge's reports (not a run's reports folder)", default: 'reports/judge' },
    checks: { type: 'string', value: 'A,B', description: 'make only these checks, by name or family', env: 'CHECKS' },
    'exclude-checks': { type: 'string', value: 'C,D', description: 'leave these checks out, listed as not judged', env: 'EXCLUDE_CHECKS' },
  },
  environment: ENVIRONMENT,
  exit:
    '0 the recording honours the contract (or every failure is acknowledged); 1 drift (failures and tickets in\n' +
    'reports/judge/); 2 a bad argument, setting, team module, acknowledgements file or file (nothing judged); 3 no\n' +
    'verdict: the recording holds no exchange of this API.',
  examples: ['npm run judge -- ~/Downloads/staging.har', 'npm run judge -- proxy.har --out reports/judge-proxy --exclude-checks sent_at_conformance'],
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

// A folder of the judge's own: never the one a run writes its reports into.
const out = resolve(values.out ?? join(REPORTS_DIR, 'judge'));
if (out === resolve(REPORTS_DIR) || out === resolve(REPORTS_DIR, NEXT_RUN_DIR) || out === resolve(REPORTS_DIR, STOPPED_RUN_DIR))
  exitWithUsage(COMMAND, `--out ${values.out} is where runs write their reports: give the judge a folder of its own (default reports/judge/)`);
const shownOut = relative(process.cwd(), out) || '.';

let registry: Awaited<ReturnType<typeof registryOf>>;
let settleMs: number;
let acknowledgements: Acknowledgement[];
let keepPersonalData = false;
try {
  loadDotenvOnce();
  const config = parseSuiteConfig(process.env, ENVIRONMENT);
  keepPersonalData = config.keepPersonalData;
  registry = await registryOf({
    checksModule: config.checksModule,
    checks: names(values.checks) ?? config.checks,
    excludeChecks: names(values['exclude-checks']) ?? config.excludeChecks,
  });
  settleMs = config.listSettleSeconds * 1000;
  acknowledgements = readAcknowledgements();
} catch (err) {
  if (!(err instanceof ConfigError || err instanceof CheckRegistryError || err instanceof AcknowledgementsError)) throw err;
  exitWithUsage(COMMAND, err.message);
}

const started = Date.now();
const source = basename(file);
const judgedAs = judgeRecording(har, contractValidators(), registry, source, settleMs);
// End users' IPs and cities of the recording out of the tickets (report/personal-data.ts), unless kept on purpose.
const pseudonyms = keepPersonalData ? undefined : new Pseudonyms().learn(stringsOf(judgedAs.failures.map((f) => [f.context, f.observed])));
const verdict = pseudonyms ? { ...judgedAs, failures: judgedAs.failures.map((f) => pseudonyms.value(f, FAILURE_NAMES)) } : judgedAs;
// Nothing of an earlier judge stands for this one; the recording itself may lie in its folder.
for (const stale of JUDGE_FILES) if (resolve(out, stale) !== resolve(file)) rmSync(join(out, stale), { recursive: true, force: true });
const files = { tickets: `${shownOut}/tickets/`, report: `${shownOut}/summary.md` };
if (verdict.exchanges === 0) {
  const end = { kind: 'no-verdict', reason: `${source} holds no exchange of this API (addresses {base_url}/api/v1/…, /v2/…, /vertex/v1/…)` } as const;
  writeVerdictReports(out, end);
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
const adopted = adoptLegacyIds(acknowledgements, verdict.failures);
for (const [from, to] of adopted.renamed)
  console.log(`judge: baselines/acknowledged.yaml names "${from}" by an id of before failures named their check: it is "${to}" now, write that`);
const judged = judgeReportFiles(verdict, run, source, adopted.entries, utcDay(started));
for (const [name, text] of Object.entries(judged.files)) {
  mkdirSync(dirname(join(out, name)), { recursive: true });
  writeFileSync(join(out, name), text);
}
for (const f of verdict.failures) console.error(renderHeadline(f));
for (const n of verdict.notJudged) console.log(`not judged: ${n.check}: ${n.why}`);
for (const entry of judged.report.expired) console.error(`judge: ${expiredLine(entry)}`);
const judgements = Object.values(verdict.judged).reduce((n, c) => n + c.judged, 0);
console.log(
  `judge: ${verdict.exchanges} exchanges, ${judgements} judgements by ${Object.keys(verdict.judged).length} checks, ${verdict.failures.length} failures; ${files.report}`,
);
const passes =
  verdict.failures.length === 0 ||
  acknowledgedOnly(
    judged.report,
    verdict.failures.map((f) => f.id),
  );
if (verdict.failures.length > 0 && passes)
  console.log(`judge: every failure of the recording is an acknowledged drift (${judged.report.counts.acknowledged}, baselines/acknowledged.yaml): it passes`);
const end = passes ? ({ kind: 'pass' } as const) : ({ kind: 'drift' } as const);
console.log(verdictLine(end, files));
process.exit(exitCode(end));
