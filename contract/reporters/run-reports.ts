// Turns a run into its reports: the API fingerprint, the drift report compared with a baseline, the contract
// failures as recorded, vendor tickets and the CI job summary. Collects the observations tests record and the
// contract failures matchers record (both test annotations: nothing is read back from a message), merges the k6
// findings about the same target when they are recent, applies baselines/acknowledged.yaml, and decides the run:
// an expired acknowledgement or a strict baseline change fails it; failures that are all acknowledged pass it (they
// stay failed in every report). A run that could not judge (the target went down, the run was cancelled) writes only
// its verdict's reports (contract/core/verdict-reports.ts): no fingerprint, no drift entry, no ticket. Listed after the
// junit reporter, whose file it then replaces, and before secret-guard, which checks what this one wrote.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { secretsOf } from '../../config/suite-config.ts';
import { expiredLine, resolvedLine, utcDay } from '../../report/acknowledged.ts';
import {
  CONTRACT_FAILURE,
  failureId,
  NOT_JUDGED,
  renderFailure,
  unjudgedLine,
  type Failure,
  type RecordedFailure,
  type UnjudgedCheck,
} from '../../lib/failure.ts';
import { stripVTControlCharacters as stripAnsi } from 'node:util';
import { CheckRegistryError, type CheckRegistry } from '../../checks/check.ts';
import { bodyShapeEstablished, runFailures, testPasses } from '../../checks/run.ts';
import { CHECKS_JUDGED, type JudgedCounts } from '../judging/matchers.ts';
import { runChecks } from '../judging/run-checks.ts';
import { replayOf } from '../../report/replay.ts';
import { failureDetail, failureItem, withJournal } from '../../report/drift-failures.ts';
import { adoptLegacyIds, adoptLegacyItems } from '../../report/legacy-ids.ts';
import { ObservedItems } from '../../lib/observations.ts';
import {
  acknowledgedOnly,
  ADDITIVE_PREFIX,
  buildDriftReport,
  changeLines,
  mergeObservations,
  showValue,
  type DriftEntry,
  type DriftReport,
  type EntryDetail,
  type RecordedObservation,
} from '../../report/drift-report.ts';
import { renderHtml, renderMarkdown } from '../../report/drift-render.ts';
import { fingerprintJson, mergeFingerprints, readFingerprintFile, type RunMeta, type RunScope } from '../../lib/fingerprint.ts';
import { jobSummary } from '../../report/job-summary.ts';
import { learnedDocumentFiles } from '../../report/learned-document.ts';
import { loadDocument } from '../../openapi/document.ts';
import { contractValidators } from '../../openapi/validators.ts';
import { RUN_END, runEnd, type RunEnd } from '../run/run-end.ts';
import { mergeObservers, observerKey, observersOf, reachOf, type RunReachInput, type TestOutcome } from '../../report/run-reach.ts';
import { narrowedBy } from '../core/run-scope.ts';
import { SETUP_OBSERVATIONS, SETUP_TITLE } from '../run/run-setup.ts';
import { freshLoadFindings, type LoadFile } from '../../report/load-findings.ts';
import { vendorVersion } from '../../report/run-meta.ts';
import { ticketFiles, ticketHeadline } from '../../report/tickets.ts';
import { runJunit, type JunitCase } from '../../report/junit.ts';
import { FAILURE_NAMES, Pseudonyms, stringsOf } from '../../report/personal-data.ts';
import { AcknowledgementsError, readAcknowledgements } from '../fixtures/acknowledgements.ts';
import { callbackSecrets } from '../target/callback-inbox.ts';
import { loadSuiteConfig, REPORTS_DIR, reportsHome, runSpecs } from '../core/env.ts';
import { OBSERVATION, type Observation } from '../core/observation.ts';
import { documentedFor } from '../core/unknowns-catalog.ts';
import { PROBE_REQUESTS } from '../core/probe-budget.ts';
import { redactKnownIn, rememberSecrets } from '../../http/redact.ts';
import { currentRun } from '../core/run-records.ts';
import { readPace, rememberLimit } from '../target/rate-memory.ts';
import { FROM_MAX_RPS } from '../../http/run-pace.ts';
import { BaselineError, fingerprintFile, readAllBaselines, readBaseline } from '../core/baselines.ts';
import { errorHeadline } from './error-headline.ts';
import { shapeSkips } from '../fixtures/preconditions.ts';
import { INCONCLUSIVE, readCancelled, readNoVerdict, readTransients, stopRun, transientSummary } from '../target/run-health.ts';
import { PLAYWRIGHT_REPORTS, writeVerdictReports, type UnjudgedVerdict } from '../core/verdict-reports.ts';
import { verdictLine } from '../../report/verdict.ts';
import { MAIN_COMMAND_ENV, OBSERVED } from '../core/run-report-files.ts';
import { markPart, PART } from '../core/run-timing.ts';

function loadFiles(): LoadFile[] {
  const dir = join(reportsHome(), 'load');
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.fingerprint.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const content = readFingerprintFile(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    return content ? [{ name, content }] : [];
  });
}

/** A test's project (or run of several, contract/fixtures/api-test.ts eachRun), spec file and title path below it. */
const partsOf = (test: TestCase) => {
  const [, project, file, ...rest] = test.titlePath();
  const [label, path] = runSpecs() ? [rest[0], rest.slice(1)] : [project, rest];
  return { label: label ?? '', file: file ?? '', path };
};

/** A test as QA names it: `[project] title path`; in a several-run invocation `[run] title path`. */
const titleOf = (test: TestCase) => {
  const { label, file, path } = partsOf(test);
  return `[${label}] ${[file, ...path].join(' › ')}`;
};

/** What JUnit says of a test, before the run's tickets name its failures. */
interface TestRecord {
  file: string;
  name: string;
  project: string;
  seconds: number;
  /** Its contract failures' ids; none when it passed, was skipped or crashed. */
  ids: string[];
  /** Why it did not run, could not judge, or crashed (its error). */
  skipped?: string;
  crashed?: { message: string; text: string };
  /** Its failures as the test printed them. */
  text: string;
}

export default class RunReports implements Reporter {
  private readonly observations: RecordedObservation[] = [];
  private readonly failures: RecordedFailure[] = [];
  /** Each failed test and the ids of what failed in it, to tell a run failed only by acknowledged drifts. */
  private readonly failedTests = new Map<string, string[]>();
  private readonly probes = { sent: 0, retries: 0, bound: 0 };
  private ran = 0;
  private planned: TestCase[] = [];
  /** Tests that ran to a judgement (passed or failed), by id; the others did not run or could not judge. */
  private readonly judged = new Set<string>();
  /** Tests that could not judge, each with why (a write lost its answer): never a contract failure. */
  private readonly inconclusive: { test: string; reason: string }[] = [];
  /** Checks a test could not judge, each with why (a lookup found nothing to judge by): never a contract failure. */
  private readonly unjudgedChecks: { test: string; reason: string }[] = [];
  /** How often the run's tests judged each check, and how often it failed. */
  private readonly checksJudged: JudgedCounts = {};
  /** How often the engine judged each check over the run's journal (contract/run/run-end.ts). */
  private readonly checksFromJournal: JudgedCounts = {};
  /** Said last, after every report line: what the run could not do (tests a missing body shape kept from running). */
  private readonly lastLines: string[] = [];
  /** How each test of the run ended, by key: what tells an item the run never set out to observe (report/run-reach.ts). */
  private readonly outcomes = new Map<string, TestOutcome>();
  /** What only the whole run tells, once it ran a test. */
  private end: RunEnd | undefined;
  /** Every test's case in the run's JUnit file. */
  private readonly cases: TestRecord[] = [];

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.plan(suite.allTests());
  }

  /** The run's tests: the invocation's, or one run's of several (contract/reporters/runs-reports.ts). */
  plan(tests: TestCase[]): void {
    this.planned = tests;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const title = titleOf(test);
    const recorded = result.annotations.filter((a) => a.type === CONTRACT_FAILURE).map((a) => JSON.parse(a.description ?? '{}') as Failure);
    // Out of time with nothing found wrong: the target was too slow to judge, which is no contract item.
    const outOfTime =
      result.status === 'timedOut' && recorded.length === 0
        ? `the test ran out of its ${test.timeout / 1000} s: the target answered too slowly to judge (npm run contract -- --timeout MS gives tests longer)`
        : undefined;
    const inconclusive = result.annotations.find((a) => a.type === INCONCLUSIVE)?.description ?? outOfTime;
    const key = observerKey(title);
    const { label, file, path } = partsOf(test);
    const junitCase: TestRecord = { file, name: path.join(' › '), project: label, seconds: result.duration / 1000, ids: [], text: '' };
    this.cases.push(junitCase);
    if (inconclusive !== undefined) {
      this.inconclusive.push({ test: title, reason: inconclusive });
      this.outcomes.set(key, 'not judged');
      junitCase.skipped = `not judged: ${inconclusive}`;
      return;
    }
    if (result.status === 'skipped') junitCase.skipped = result.annotations.find((a) => a.type === 'skip')?.description ?? 'skipped';
    else if (result.status === 'interrupted') junitCase.skipped = 'not run: the run was cancelled';
    if (result.status === 'skipped') this.outcomes.set(key, 'skipped');
    else if (result.status === 'passed' && recorded.length === 0) this.outcomes.set(key, 'passed');
    else if (result.status !== 'interrupted') this.outcomes.set(key, 'failed');
    if (result.status === 'passed' || result.status === 'failed' || result.status === 'timedOut') this.judged.add(test.id);
    const ended = (this.checksJudged[testPasses.name] ??= { judged: 0, failed: 0 });
    if (result.status !== 'skipped') ended.judged++;
    for (const { type, description = '{}' } of result.annotations)
      if (type === NOT_JUDGED) this.unjudgedChecks.push({ test: title, reason: unjudgedLine(JSON.parse(description) as UnjudgedCheck) });
    if (result.status !== 'skipped') this.ran++;
    for (const { type, description = '{}' } of result.annotations) {
      if (type === OBSERVATION) this.observations.push({ ...(JSON.parse(description) as Observation), test: title });
      if (type === CHECKS_JUDGED) {
        for (const [name, seen] of Object.entries(JSON.parse(description) as JudgedCounts)) {
          const total = (this.checksJudged[name] ??= { judged: 0, failed: 0 });
          total.judged += seen.judged;
          total.failed += seen.failed;
        }
      }
      if (type === PROBE_REQUESTS) {
        const spent = JSON.parse(description) as typeof this.probes;
        this.probes.sent += spent.sent;
        this.probes.retries += spent.retries;
        this.probes.bound += spent.bound;
      }
    }
    // A test of a record-only run (CONTRACT_FAILURES=record) is expected to fail when it recorded failures: they count the same.
    if ((result.status !== test.expectedStatus && result.status !== 'skipped') || recorded.length > 0) {
      const firstLine = errorHeadline(result.errors[0]?.message ?? result.errors[0]?.value) ?? '';
      if (recorded.length === 0) {
        // A test that failed naming no contract failure (a fixture that could not be set up, a bug of the suite): the
        // fault is on this side, never the vendor's. Not judged, with why and what to do (test_passes), no ticket.
        ended.failed++;
        const [finding] = testPasses.judge({ test: title, error: firstLine });
        this.inconclusive.push({ test: title, reason: `failed naming no contract failure (${finding!.observed}): ${finding!.expected}` });
        this.outcomes.set(key, 'not judged');
        junitCase.crashed = { message: firstLine, text: stripAnsi(result.errors.map((e) => e.stack ?? e.message ?? e.value ?? '').join('\n\n')) };
        return;
      }
      const failed = recorded.map((f) => ({ ...f, id: failureId(f), test: title }));
      this.failures.push(...failed);
      this.failedTests.set(
        title,
        failed.map((f) => f.id),
      );
      junitCase.ids = failed.map((f) => f.id);
      junitCase.text = stripAnsi(result.errors.map((e) => e.message ?? e.value ?? '').join('\n\n'));
    }
  }

  /** What the run's setup observed, and what only the whole run tells (contract/run/run-end.ts), as the tests' own. */
  private endOfRun(config: ReturnType<typeof loadSuiteConfig>, checks: CheckRegistry): void {
    const setup = join(REPORTS_DIR, SETUP_OBSERVATIONS);
    if (existsSync(setup)) this.observations.push(...(JSON.parse(readFileSync(setup, 'utf8')) as Observation[]).map((o) => ({ ...o, test: SETUP_TITLE })));
    // One cause, one ticket: with tests failed, what they did not record is theirs, not a second failure of the run.
    const failed =
      this.failedTests.size > 0
        ? `${this.failedTests.size} test${this.failedTests.size === 1 ? '' : 's'} failed (first: ${[...this.failedTests.keys()][0]})`
        : undefined;
    const end = runEnd(
      config,
      contractValidators(),
      { registry: checks, judged: this.checksJudged, fromJournal: this.checksFromJournal },
      this.observations.map((o) => o.id),
      process.env.RUN_PARTIAL || (failed && `${failed}: the whole-run checks wait for a run where every test passes`),
    );
    this.end = end;
    console.log(end.coverageLine);
    this.observations.push(...end.observations.map((o) => ({ ...o, test: RUN_END })));
    for (const failure of end.failed) {
      console.error(`run end: ${failure.check}: ${failure.observed}`);
      this.failures.push(failure);
      this.failedTests.set(failure.test, [...(this.failedTests.get(failure.test) ?? []), failure.id]);
    }
    for (const failure of withJournal(this.failures, end.journal)) {
      this.failures.push(failure);
      this.failedTests.set(failure.test, [...(this.failedTests.get(failure.test) ?? []), failure.id]);
    }
  }

  /**
   * The run's JUnit file: a test that met contract failures a <failure> with its first ticket's headline, one that
   * crashed an <error>, the run's own checks that failed a case of their own (report/junit.ts).
   */
  private junit(report: DriftReport, failures: readonly RecordedFailure[], tickets: ReadonlyArray<{ ids: string[]; headline: string }>): string {
    const entries = new Map(report.entries.map((e) => [e.id, e]));
    const filed = new Map(tickets.flatMap((t) => t.ids.map((id) => [id, t.headline] as const)));
    const headline = (id: string) => {
      const entry = entries.get(id);
      const head = filed.get(id) ?? (entry ? ticketHeadline(entry) : id);
      return entry?.severity === 'acknowledged' ? `${head} (acknowledged: ${entry.acknowledgement?.ticket})` : head;
    };
    const ofTests = new Set(this.cases.flatMap((c) => c.ids));
    const runEnd = failures.filter((f) => !ofTests.has(f.id));
    const cases: JunitCase[] = [
      ...this.cases.map(
        (c): JunitCase => ({
          file: c.file,
          name: c.name,
          project: c.project,
          seconds: c.seconds,
          outcome: c.ids.length
            ? { kind: 'failure', message: headline(c.ids[0]!), text: `${c.ids.map((id) => `${headline(id)}\n  ${id}`).join('\n')}\n\n${c.text}`, ids: c.ids }
            : c.crashed
              ? { kind: 'error', ...c.crashed }
              : c.skipped !== undefined
                ? { kind: 'skipped', message: c.skipped }
                : { kind: 'passed' },
        }),
      ),
      ...runEnd.map(
        (f): JunitCase => ({
          file: RUN_END,
          name: f.test,
          project: 'run',
          seconds: 0,
          outcome: { kind: 'failure', message: headline(f.id), text: renderFailure(f), ids: [f.id] },
        }),
      ),
    ];
    return runJunit('dialog-contract', cases);
  }

  /** What the run selected and whether it ran it all (lib/fingerprint.ts RunScope). */
  private scope(checks: CheckRegistry | undefined, ended: RunScope['ended'] = 'complete'): RunScope {
    const planned = this.planned.map((t) => observerKey(titleOf(t)));
    const narrowed = narrowedBy(process.argv);
    const leftOut = checks?.notRun().map((c) => c.name) ?? [];
    const unobserved = this.end?.unobserved ?? [];
    const partial = [
      ...narrowed.map((n) => `narrowed by ${n}`),
      ...(leftOut.length ? [`checks left out: ${leftOut.join(', ')}`] : []),
      ...(ended === 'cancelled' ? ['cancelled before its end'] : []),
      ...(this.ran === 0 ? ['no test ran'] : []),
      ...(narrowed.length === 0 && unobserved.length
        ? [
            `${unobserved.length} catalogued "not shown" item${unobserved.length === 1 ? '' : 's'} observed nowhere (a test failed or was skipped before recording): ${unobserved.map((u) => u.split(' ')[0]).join(', ')}`,
          ]
        : []),
    ];
    const files = new Set(this.planned.map((t) => t.titlePath()[2] ?? ''));
    return {
      partial,
      ended,
      tests: {
        selected: planned.length,
        ran: [...this.outcomes.values()].filter((o) => o !== 'skipped').length,
        specs: [...files].sort(),
        projects: [...new Set(this.planned.map((t) => t.parent.project()?.name ?? ''))].sort(),
      },
      ...(narrowed.length ? { selected: [...new Set(planned)].sort() } : {}),
      checks: { made: (checks?.all().length ?? 0) - leftOut.length, leftOut },
      operations: this.end?.exercised ?? [],
    };
  }

  /** The run's verdict when it could not judge: the target went down (a worker saw it), or it was cancelled. */
  private unjudged(result: FullResult): UnjudgedVerdict | undefined {
    const stopped = readNoVerdict(REPORTS_DIR);
    if (stopped) return { kind: 'no-verdict', reason: stopped.reason };
    if (result.status === 'interrupted') return { kind: 'cancelled', signal: readCancelled(REPORTS_DIR) ?? 'SIGINT' };
    // Tests or checks that could not judge and no failure: the run cannot say the vendor passes (with a failure it is
    // drift, and those are listed as not judged).
    const [first] = this.notJudged();
    if (first && this.failures.length === 0) {
      const counted = (
        [
          [this.inconclusive.length, 'test'],
          [this.unjudgedChecks.length, 'check'],
        ] as const
      )
        .filter(([n]) => n > 0)
        .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`)
        .join(' and ');
      return {
        kind: 'no-verdict',
        reason: stopRun(REPORTS_DIR, `${counted} could not judge (first: ${first.test}: ${first.reason}): run again`, Date.now(), true).reason,
      };
    }
    return undefined;
  }

  /** Whole tests that could not judge (an answer lost), then single checks (a lookup that found nothing), each with why. */
  private notJudged(): { test: string; reason: string }[] {
    return [...this.inconclusive, ...this.unjudgedChecks];
  }

  /** A body shape the run could not establish: the tests it skipped, said last; a failure with REQUIRE_SHAPES. */
  private shapesNotEstablished(config: ReturnType<typeof loadSuiteConfig>, checks: CheckRegistry): void {
    for (const [reason, tests] of shapeSkips(REPORTS_DIR)) {
      this.lastLines.push(`dialog-contract: ${tests.length} test${tests.length === 1 ? '' : 's'} did not run: ${reason}`);
      if (!config.requireShapes || !checks.runs(bodyShapeEstablished.name)) continue;
      const title = 'REQUIRE_SHAPES: the run establishes its body shapes';
      const failed = runFailures(bodyShapeEstablished, { title, missing: [reason] }, title);
      this.failures.push(...failed);
      this.failedTests.set(
        title,
        failed.map((f) => f.id),
      );
    }
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const from = Date.now();
    try {
      return await this.report(result);
    } finally {
      markPart(REPORTS_DIR, PART.end, from);
    }
  }

  /** The run's reports and its status: onEnd's work. */
  private async report(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const unjudged = this.unjudged(result);
    if (unjudged) {
      const notRun = this.planned.filter((t) => !this.judged.has(t.id)).map(titleOf);
      writeVerdictReports(
        REPORTS_DIR,
        unjudged,
        notRun,
        this.notJudged().map(({ test, reason }) => `${test}: ${reason}`),
        this.scope(undefined, unjudged.kind === 'cancelled' ? 'cancelled' : 'complete'),
      );
      // The main command prints it first and last itself; run alone, Playwright's output ends with it.
      if (!process.env[MAIN_COMMAND_ENV]) console.error(verdictLine(unjudged));
      return { status: 'failed' };
    }
    const config = loadSuiteConfig();
    // Everything written below passes through the secrets this process knows: the configured ones, the tokens seen.
    rememberSecrets([...secretsOf(config), ...callbackSecrets]);
    let checks: CheckRegistry;
    try {
      checks = await runChecks(config);
    } catch (err) {
      if (!(err instanceof CheckRegistryError)) throw err;
      console.error(`dialog-contract: ${err.message}`);
      return { status: 'failed' };
    }
    if (this.ran > 0) this.endOfRun(config, checks);
    this.shapesNotEstablished(config, checks);
    // A check left out of the run is said, never silently absent: first among the last lines.
    const left = checks.notRun().map((c) => c.name);
    if (left.length)
      this.lastLines.unshift(
        `dialog-contract: ${left.length} check${left.length === 1 ? '' : 's'} not run (left out by --checks/--exclude-checks): ${left.join(', ')}`,
      );
    // End users' IPs and cities out of what leaves the company: one set of pseudonyms for every report of the run.
    const sorted = [...this.failures].sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0)).map((f) => redactKnownIn(f));
    const evidence = (o: RecordedObservation) => (o.evidence ? redactKnownIn(o.evidence) : undefined);
    const names = config.keepPersonalData
      ? undefined
      : new Pseudonyms().learn([...stringsOf(sorted.map((f) => [f.context, f.observed])), ...this.observations.flatMap((o) => evidence(o) ?? [])]);
    const observed = mergeObservations(
      this.observations.map((o) => {
        const text = evidence(o);
        return { ...o, ...(text ? { evidence: names ? names.text(text) : text } : {}) };
      }),
    );
    const observedItems = new ObservedItems(observed.items);
    const signals = observedItems.get('versioning.deprecation-signals');
    // The target's limit as the run ended with it, for the next run against it (MAX_RPS alone is no vendor's).
    const pace = readPace(REPORTS_DIR);
    const rateLimit = pace?.limit && pace.limit.from !== FROM_MAX_RPS ? pace.limit : undefined;
    const scope = this.scope(checks);
    const run: RunMeta = {
      ...currentRun(config, vendorVersion(Object.assign({}, ...Object.values(signals ?? {})))),
      ...(rateLimit ? { rateLimit } : {}),
      scope,
    };
    const refusal = observedItems.get('rate.limit');
    if (pace && refusal) rememberLimit(reportsHome(), run, pace, refusal);
    const failures = names ? sorted.map((f) => names.value(f, FAILURE_NAMES)) : sorted;
    const firstOf = new Map<string, RecordedFailure>();
    for (const f of failures) if (!firstOf.has(f.id)) firstOf.set(f.id, f);

    let baseline: ReturnType<typeof readBaseline> | undefined;
    let saved: ReturnType<typeof readBaseline> | undefined;
    let acknowledgements: ReturnType<typeof readAcknowledgements>;
    let history: ReturnType<typeof readAllBaselines>;
    try {
      saved = config.baseline ? readBaseline(config.baseline) : undefined;
      baseline = saved && { ...saved, items: adoptLegacyItems(saved.items, failures) };
      const adopted = adoptLegacyIds(readAcknowledgements(), failures);
      for (const [from, to] of adopted.renamed) {
        console.log(`drift: baselines/acknowledged.yaml names "${from}" by an id of before failures named their check: it is "${to}" now, write that`);
      }
      acknowledgements = adopted.entries;
      history = readAllBaselines();
    } catch (err) {
      if (!(err instanceof BaselineError || err instanceof AcknowledgementsError)) throw err;
      console.error(`drift: ${err.message}`);
      return { status: 'failed' };
    }
    const load = freshLoadFindings(loadFiles(), run.target, config.loadFindingsMaxAgeHours, Date.now());
    for (const skipped of load.skipped) console.log(`drift: load findings left out: ${skipped}`);
    const items = mergeFingerprints(load.items, observed.items, [...firstOf.values()].map(failureItem));

    const detail = (id: string): EntryDetail => {
      const failure = firstOf.get(id);
      if (failure) return failureDetail(failure);
      const seen = observed.details.get(id) ?? {};
      const origin = load.origin.get(id);
      const documented = id.startsWith(ADDITIVE_PREFIX) ? 'not declared by the document (its objects are open)' : documentedFor(id);
      return { documented, ...seen, ...(origin ? { evidence: origin } : {}) };
    };
    const failedFirst = [...this.failedTests.keys()][0];
    const failedBefore =
      failedFirst === undefined ? undefined : `${failedFirst} failed${this.failedTests.size > 1 ? ` (and ${this.failedTests.size - 1} more tests)` : ''}`;
    // Who observed each item, in this run and in the baseline: what a later run (and this one) reads to tell an item it
    // never set out to observe from one it looked for.
    const observedBy = observersOf(observed.observers, failures);
    const known = mergeObservers(observedBy, saved?.observedBy);
    const reachInput: RunReachInput = {
      scope,
      outcomes: this.outcomes,
      exercised: new Set((this.end?.exercised ?? []).map((pair) => pair.split(' ')[0]!)),
      judged: new Set(Object.entries(this.checksJudged).flatMap(([name, seen]) => (seen.judged > 0 ? [name] : []))),
      ...(failedBefore ? { failedBefore } : {}),
    };
    const report = buildDriftReport(items, detail, baseline, acknowledgements, utcDay(Date.now()), (id) => reachOf(id, known[id], reachInput));
    // First seen: the oldest baseline holding the item with the value seen now, else this run.
    const firstSeen = (entry: DriftEntry) => {
      const holding = history
        .filter((b) => b.items.some((i) => i.id === entry.id && showValue(i.observed) === entry.observed))
        .sort((a, b) => (a.run?.startedAt ?? '').localeCompare(b.run?.startedAt ?? ''));
      return holding[0] ? `${holding[0].run?.startedAt ?? 'an undated baseline'} (baseline ${holding[0].name})` : `${run.startedAt} (this run)`;
    };

    mkdirSync(join(REPORTS_DIR, 'tickets'), { recursive: true });
    writeFileSync(fingerprintFile(), fingerprintJson(items, run, observedBy));
    // Resent blips and tests that could not judge: said where CI shows the run, never filed as drift.
    const transients = readTransients(REPORTS_DIR);
    const network = transientSummary(transients);
    const notJudged = this.notJudged();
    writeFileSync(
      join(REPORTS_DIR, 'drift.json'),
      `${JSON.stringify({ run, ...report, probes: this.probes, noTestRan: this.ran === 0, network: { summary: network ?? null, transients, notJudged } }, null, 2)}\n`,
    );
    // The learned document: what this run observed, as an overlay over the project's document, and applied to it.
    const learned = await learnedDocumentFiles(OBSERVED, items, run, loadDocument());
    for (const [file, text] of Object.entries(learned.texts)) writeFileSync(join(REPORTS_DIR, file), text);
    writeFileSync(join(REPORTS_DIR, 'drift.md'), renderMarkdown(report, learned));
    writeFileSync(join(REPORTS_DIR, 'drift.html'), renderHtml(report, learned));
    // Each failure with the request that shows it as a curl command (credentials as references only): QA pastes it.
    const replayable = failures.map((f) => ({ ...f, ...(replayOf(f) ? { replay: replayOf(f) } : {}) }));
    // The seed of the run's generated inputs beside its failures, never in its fingerprint: SEED=n replays them.
    const generated = { seed: process.env.SEED ? Number(process.env.SEED) : null, casesPerOperation: config.generatedCases };
    writeFileSync(join(REPORTS_DIR, 'failures.json'), `${JSON.stringify({ run, generated, failures: replayable }, null, 2)}\n`);
    const notJudgedLines = notJudged.map(({ test, reason }) => `- not judged: ${test}: ${reason}\n`);
    // Tests a missing body shape kept from running: the summary's first and last lines, as the run's output's.
    const notRun = this.lastLines.map((line) => `> ${line.replace(/^dialog-contract: /, '')}\n`);
    writeFileSync(
      join(REPORTS_DIR, 'summary.md'),
      [
        ...(notRun.length ? [...notRun, '\n'] : []),
        jobSummary(report, run, (e) => `drift.html#${encodeURIComponent(e.id)}`),
        ...(generated.seed === null
          ? []
          : [`\nGenerated inputs: seed ${generated.seed} (\`SEED=${generated.seed}\` replays them), ${generated.casesPerOperation} cases per operation.\n`]),
        ...(network ? [`\nNetwork: ${network}.\n`] : []),
        ...notJudgedLines,
        ...(notRun.length ? ['\n', ...notRun] : []),
      ].join(''),
    );
    const tickets = ticketFiles(report, firstSeen);
    for (const ticket of tickets) writeFileSync(join(REPORTS_DIR, 'tickets', ticket.name), ticket.text);
    writeFileSync(join(REPORTS_DIR, PLAYWRIGHT_REPORTS.junit), this.junit(report, failures, tickets));

    const counts = Object.entries(report.counts)
      .map(([severity, n]) => `${n} ${severity}`)
      .join(', ');
    if (network) console.log(`network: ${network}`);
    for (const { test, reason } of notJudged) console.error(`not judged: ${test}: ${reason}`);
    if (this.ran === 0) console.error('drift: no test ran: the reports say so and hold no observation of this run');
    console.log(`drift: ${items.length} items in reports/fingerprint.json; reports/drift.html: ${counts}`);
    if (this.probes.bound > 0)
      console.log(`probes: ${this.probes.sent} requests (${this.probes.retries} resends after 429/503), declared bound ${this.probes.bound}`);
    if (generated.seed !== null) console.log(`generated inputs: seed ${generated.seed} (SEED=${generated.seed} replays them)`);
    for (const entry of report.resolved) console.log(`drift: ${resolvedLine(entry)}`);
    let status = result.status;
    if (status === 'passed' && failures.length > 0) status = 'failed';
    if (baseline) {
      console.log(`drift: compared with baseline ${baseline.name}: ${report.changes === 0 ? 'no changes' : `${report.changes} changes`}`);
      for (const line of changeLines(report)) console.log(line);
      if (report.counts.unreached > 0)
        console.log(
          `drift: ${report.counts.unreached} items of baseline ${baseline.name} not reached by this run (${scope.partial.length ? scope.partial[0] : 'tests failed before recording them'}): no change, no ticket; listed as unreached in reports/drift.md`,
        );
      if (config.strictBaseline && report.changes > 0) {
        console.error(`drift: STRICT_BASELINE: ${report.changes} changes since baseline ${baseline.name} fail the run`);
        status = 'failed';
      }
    }
    for (const entry of report.expired) console.error(`drift: ${expiredLine(entry)}`);
    if (report.expired.length > 0) status = 'failed';
    // Failed tests whose every failure is an acknowledged drift do not fail the run; they stay failed in the reports.
    const failedTests = [...this.failedTests.values()];
    if (
      status === 'failed' &&
      result.status === 'failed' &&
      failedTests.length > 0 &&
      report.expired.length === 0 &&
      !(config.strictBaseline && report.changes > 0)
    ) {
      if (acknowledgedOnly(report, failedTests.flat())) {
        console.log(`drift: every failure of this run is an acknowledged drift (${report.counts.acknowledged}, baselines/acknowledged.yaml): the run passes`);
        status = 'passed';
      }
    }
    for (const line of this.lastLines) console.error(line);
    return { status };
  }
}
