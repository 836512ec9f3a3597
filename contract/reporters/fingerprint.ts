// Turns a run into its API fingerprint and drift report. Collects the observations tests record (annotations of
// type "observation") and the contract failures of failed tests (their messages), merges the k6 runner's items
// (reports/load/fingerprint.json) when present, compares with the baseline BASELINE names, and writes
// reports/fingerprint.json, reports/drift.json, reports/drift.md and reports/drift.html. With STRICT_BASELINE a
// change since the baseline fails the run. Listed before secret-guard, which checks what this one wrote.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { fingerprintJson, mergeFingerprints, type FingerprintItem } from '../../lib/fingerprint.ts';
import { failureItem, failuresOf, type ContractFailure } from '../../lib/drift-failures.ts';
import { buildDriftReport, changeLines, kindOf, mergeObservations, type Baseline, type EntryDetail, type RecordedObservation } from '../../lib/drift-report.ts';
import { renderHtml, renderMarkdown } from '../../lib/drift-render.ts';
import { callbackSecrets } from '../callback-inbox.ts';
import { secretsOf } from '../../config/suite-config.ts';
import { loadSuiteConfig, REPORTS_DIR } from '../env.ts';
import { OBSERVATION, type Observation } from '../observation.ts';
import { documentedFor } from '../probes/catalog.ts';
import { PROBE_REQUESTS } from '../probes/budget.ts';
import { redactText } from '../redact.ts';
import { BaselineError, FINGERPRINT_FILE, readBaseline, readFingerprintIfPresent } from './baselines.ts';

const LOAD_FINGERPRINT = join(REPORTS_DIR, 'load', 'fingerprint.json');

export default class FingerprintReporter implements Reporter {
  private readonly observations: RecordedObservation[] = [];
  private readonly failures: ContractFailure[] = [];
  private readonly probes = { sent: 0, retries: 0, bound: 0 };
  private ran = 0;

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const [, project, ...rest] = test.titlePath();
    const title = `[${project}] ${rest.join(' › ')}`;
    if (result.status !== 'skipped') this.ran++;
    for (const { type, description = '{}' } of result.annotations) {
      if (type === OBSERVATION) this.observations.push({ ...(JSON.parse(description) as Observation), test: title });
      if (type === PROBE_REQUESTS) {
        const spent = JSON.parse(description) as typeof this.probes;
        this.probes.sent += spent.sent;
        this.probes.retries += spent.retries;
        this.probes.bound += spent.bound;
      }
    }
    if (result.status !== test.expectedStatus && result.status !== 'skipped') {
      this.failures.push(...failuresOf(title, result.errors.map((e) => e.message ?? e.value ?? '')));
    }
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    // A run that never got to its tests (target down, port busy) says nothing: keep the last fingerprint.
    if (this.ran === 0) {
      console.error('drift: no test ran: reports/fingerprint.json and the drift report are left as they were');
      return undefined;
    }
    const config = loadSuiteConfig();
    const secrets = [...secretsOf(config), ...callbackSecrets];
    const clean = (text: string | undefined) => (text === undefined ? undefined : redactText(text, secrets));

    const observed = mergeObservations(this.observations.map((o) => ({ ...o, evidence: clean(o.evidence) })));
    const failures = new Map<string, ContractFailure>();
    for (const f of [...this.failures].sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0))) {
      if (!failures.has(f.id)) failures.set(f.id, { ...f, observed: clean(f.observed)!, evidence: clean(f.evidence) });
    }
    let load: FingerprintItem[];
    let baseline: Baseline | undefined;
    try {
      load = readFingerprintIfPresent(LOAD_FINGERPRINT);
      baseline = config.baseline ? readBaseline(config.baseline) : undefined;
    } catch (err) {
      if (!(err instanceof BaselineError)) throw err;
      console.error(`drift: ${err.message}`);
      return { status: 'failed' };
    }
    const items = mergeFingerprints(load, observed.items, [...failures.values()].map(failureItem));

    const detail = (id: string): EntryDetail => {
      const failure = failures.get(id);
      if (failure) return { documented: `${failure.expected} (spec §${failure.section})`, observed: failure.observed, evidence: failure.evidence, test: failure.test };
      const seen = observed.details.get(id) ?? {};
      return { documented: kindOf(id) === 'additive' ? 'not declared by the document (its objects are open)' : documentedFor(id), ...seen };
    };
    const report = buildDriftReport(items, detail, baseline);

    mkdirSync(REPORTS_DIR, { recursive: true });
    writeFileSync(FINGERPRINT_FILE, fingerprintJson(items));
    writeFileSync(join(REPORTS_DIR, 'drift.json'), `${JSON.stringify({ ...report, probes: this.probes }, null, 2)}\n`);
    writeFileSync(join(REPORTS_DIR, 'drift.md'), renderMarkdown(report));
    writeFileSync(join(REPORTS_DIR, 'drift.html'), renderHtml(report));

    const counts = Object.entries(report.counts).map(([severity, n]) => `${n} ${severity}`).join(', ');
    console.log(`drift: ${items.length} items in reports/fingerprint.json; reports/drift.html: ${counts}`);
    if (this.probes.bound > 0) console.log(`probes: ${this.probes.sent} requests (${this.probes.retries} retries after 429/503), declared bound ${this.probes.bound}`);
    if (baseline) {
      console.log(`drift: compared with baseline ${baseline.name}: ${report.changes === 0 ? 'no changes' : `${report.changes} changes`}`);
      for (const line of changeLines(report)) console.log(line);
      if (config.strictBaseline && report.changes > 0) {
        console.error(`drift: STRICT_BASELINE: ${report.changes} changes since baseline ${baseline.name} fail the run`);
        return { status: 'failed' };
      }
    }
    return { status: result.status };
  }
}
