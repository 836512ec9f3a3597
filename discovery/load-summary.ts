// Turns k6's end-of-test data into the suite's load report: reports/load/<script>.json, a readable text summary,
// and the fingerprint items of what the run discovered. Pure, so every script shares one handleSummary and tests
// feed it recorded summary data.
//
// Evidence channel: handleSummary sees aggregated metrics only, not values a VU computed (a size search result, a
// sample 429). A VU hands such a value over as the name of a passing check ("evidence:<kind>:<json>"); the report
// reads it back and keeps it out of the check list.
import { fingerprintJson, type FingerprintItem, type RunMeta } from '../lib/fingerprint.ts';
import { stableStringify } from '../lib/json.ts';
import { redactIn, redactText } from '../http/redact.ts';
import { segmentFileSuffix, segmentLabel, type Segment } from './execution-segment.ts';

export interface SummaryMetric {
  type?: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryCheck {
  name: string;
  passes: number;
  fails: number;
}

/** k6 has listed checks and groups both as arrays and as objects keyed by name, depending on the version. */
export interface SummaryGroup {
  name?: string;
  checks?: SummaryCheck[] | Record<string, SummaryCheck>;
  groups?: SummaryGroup[] | Record<string, SummaryGroup>;
}

export interface SummaryData {
  metrics: Record<string, SummaryMetric>;
  root_group: SummaryGroup;
  state?: { testRunDurationMs?: number };
}

/** What a script's analysis adds to the generic report. */
export interface ScriptAnalysis {
  findings: unknown;
  /** One line per finding for the text summary. */
  lines: string[];
  fingerprint: FingerprintItem[];
}

export interface LoadReport {
  script: string;
  target: string;
  /** The part of a split test this report covers (the whole test unless k6 ran an execution segment). */
  segment: Segment;
  /** When the test started (ISO): its end, when handleSummary ran, less its duration. */
  startedAt: string;
  durationSeconds: number;
  thresholds: Array<{ metric: string; expression: string; ok: boolean }>;
  checks: SummaryCheck[];
  requests: { count: number; perSecond: number; failedRatio: number; p95Ms: number | null };
  operations: Array<{ operation: string; count: number | null; p95Ms: number | null; p99Ms: number | null }>;
  findings: unknown;
  lines: string[];
  fingerprint: FingerprintItem[];
}

const EVIDENCE = 'evidence:';

/** The check name that carries `value` to handleSummary. */
export function evidenceCheckName(kind: string, value: unknown): string {
  return `${EVIDENCE}${kind}:${JSON.stringify(value)}`;
}

function allChecks(group: SummaryGroup): SummaryCheck[] {
  const own = Object.values(group.checks ?? {});
  return [...own, ...Object.values(group.groups ?? {}).flatMap(allChecks)];
}

/** Values handed over with evidenceCheckName(kind, …), in the order k6 lists them. */
export function evidenceOf<T>(data: SummaryData, kind: string): T[] {
  const prefix = `${EVIDENCE}${kind}:`;
  return allChecks(data.root_group)
    .filter((c) => c.name.startsWith(prefix))
    .map((c) => JSON.parse(c.name.slice(prefix.length)) as T);
}

/** A statistic of a metric or submetric ("http_req_duration{operation:x}", "p(95)"), undefined when absent. */
export function metricStat(data: SummaryData, metric: string, stat: string): number | undefined {
  return data.metrics[metric]?.values[stat];
}

export function buildReport(script: string, target: string, segment: Segment, endedAtMs: number, data: SummaryData, analysis: ScriptAnalysis): LoadReport {
  const thresholds = Object.entries(data.metrics).flatMap(([metric, m]) =>
    Object.entries(m.thresholds ?? {}).map(([expression, t]) => ({ metric, expression, ok: t.ok })),
  );
  const operations = Object.keys(data.metrics)
    .map((name) => /^http_req_duration\{operation:([^,}]+)\}$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      operation: m[1]!,
      count: metricStat(data, m[0], 'count') ?? null,
      p95Ms: metricStat(data, m[0], 'p(95)') ?? null,
      p99Ms: metricStat(data, m[0], 'p(99)') ?? null,
    }))
    .sort((a, b) => a.operation.localeCompare(b.operation));
  return {
    script,
    target,
    segment,
    startedAt: new Date(endedAtMs - (data.state?.testRunDurationMs ?? 0)).toISOString(),
    durationSeconds: round((data.state?.testRunDurationMs ?? 0) / 1000),
    thresholds,
    checks: allChecks(data.root_group).filter((c) => !c.name.startsWith(EVIDENCE)),
    requests: {
      count: metricStat(data, 'http_reqs', 'count') ?? 0,
      perSecond: round(metricStat(data, 'http_reqs', 'rate') ?? 0),
      failedRatio: metricStat(data, 'http_req_failed', 'rate') ?? 0,
      p95Ms: metricStat(data, 'http_req_duration', 'p(95)') ?? null,
    },
    operations,
    findings: analysis.findings,
    lines: analysis.lines,
    fingerprint: analysis.fingerprint,
  };
}

export function reportText(report: LoadReport): string {
  const runner = segmentLabel(report.segment);
  const out: string[] = [`k6 load: ${report.script} against ${report.target}${runner ? `, ${runner}` : ''}, ${report.durationSeconds} s`];
  const failed = report.thresholds.filter((t) => !t.ok);
  out.push(`thresholds: ${report.thresholds.length - failed.length} passed, ${failed.length} failed`);
  for (const t of failed) out.push(`  FAILED ${t.metric} ${t.expression}`);
  const passes = report.checks.reduce((n, c) => n + c.passes, 0);
  const total = passes + report.checks.reduce((n, c) => n + c.fails, 0);
  out.push(`checks: ${total === 0 ? 'none ran' : `${percent(passes / total)} of ${total} passed`}`);
  for (const c of report.checks.filter((c) => c.fails > 0)) out.push(`  FAILED ${c.name}: ${c.fails} of ${c.passes + c.fails}`);
  const r = report.requests;
  out.push(`requests: ${r.count} (${r.perSecond}/s), failed ${percent(r.failedRatio)}, p95 ${ms(r.p95Ms)}`);
  for (const o of report.operations) out.push(`  ${o.operation}: ${o.count ?? '?'} requests, p95 ${ms(o.p95Ms)}, p99 ${ms(o.p99Ms)}`);
  if (report.lines.length > 0) out.push('findings:', ...report.lines.map((line) => `  ${line}`));
  return `${out.join('\n')}\n`;
}

/**
 * Starts the line that carries a whole report on stdout, as one line of JSON: a pod's log keeps it when no volume
 * does, and `npm run load:merge` reads it from there.
 */
export const REPORT_LINE = 'dialog-contract-load-report ';

/**
 * The run a load report's findings come from (target, start, script, segment), for the fingerprint's run block: what
 * lets the next contract run take them in, however k6 was run (npm run load, k6 alone, a k6-operator runner).
 * `runners`: the merge of that many runners' reports.
 */
export function loadRunMeta(report: Pick<LoadReport, 'script' | 'target' | 'startedAt' | 'segment'>, suiteVersion: string, runners?: number): RunMeta {
  const runner = segmentLabel(report.segment);
  const part = runners ? ` (${runners} runners)` : runner ? `, ${runner}` : '';
  return {
    runId: `k6 ${report.script} ${report.startedAt}${part}`,
    startedAt: report.startedAt,
    target: report.target,
    suiteVersion,
    vendorVersion: null,
    load: { script: report.script, segment: report.segment.text },
  };
}

/**
 * handleSummary's answer: the text and the report as one JSON line on stdout, and files in `dir` (k6 creates no
 * directory: a missing one loses only the files, never the stdout copy): report JSON, text and, when the run
 * discovered any, fingerprint items under the run they come from (`suiteVersion`: the bundle's).
 */
export function summaryFiles(unsafe: LoadReport, secrets: ReadonlyArray<string | undefined>, dir: string, suiteVersion: string): Record<string, string> {
  // Redacted per string first: a secret holding a quote or a backslash is escaped in the JSON, past a search of it.
  const report = redactIn(unsafe, secrets);
  const text = redactText(reportText(report), secrets);
  const base = `${dir}/${reportName(report.script, report.segment)}`;
  const files: Record<string, string> = {
    stdout: `${text}${REPORT_LINE}${redactText(stableStringify(report, 0), secrets)}\n`,
    [`${base}.json`]: `${redactText(stableStringify(report), secrets)}\n`,
    [`${base}.txt`]: text,
  };
  if (report.fingerprint.length > 0)
    files[`${base}.fingerprint.json`] = redactText(fingerprintJson(report.fingerprint, loadRunMeta(report, suiteVersion)), secrets);
  return files;
}

/** "rate-limit", or "rate-limit.runner-2-of-4" for a runner of a split test: runners can share a directory. */
export function reportName(script: string, segment: Segment): string {
  const suffix = segmentFileSuffix(segment);
  return suffix ? `${script}.${suffix}` : script;
}

const round = (n: number) => Math.round(n * 100) / 100;
const percent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;
const ms = (value: number | null) => (value === null ? '?' : `${round(value)} ms`);
