// The reports of the runners of one split k6 test (k6-operator: one per pod) as the report of the whole test. Counts
// add up, rates too; a percentile cannot be added, so the merged p95 is the highest runner's (an upper bound, and said
// so). The rate ladder is analysed again on the added-up counts: the merged finding is the one to trust, each
// runner's own (its share scaled up) is a check on it, and where a runner's finding strays from the merged one by
// more than DISAGREEMENT and more than its own counting allows (disagreesBy) the report says so. The size searches
// ran on the first runner only. Pure.
import { mergeFingerprints, type FingerprintItem } from '../lib/fingerprint.ts';
import { analyseLadder, ladderFinding, mergeLadders, type LadderResult } from './ladder-analysis.ts';
import { segmentLabel, type Segment } from './execution-segment.ts';
import { reportText, type LoadReport, type SummaryCheck } from './load-summary.ts';

/** How far a runner's rate finding may lie from the merged one before the report calls it a disagreement. */
export const DISAGREEMENT = 0.15;
/** How many of a runner's own margins its finding may stray by chance (disagreesBy). */
export const CHANCE_MARGINS = 1.5;

/**
 * Whether a runner's finding strays from the merged one by more than chance. A runner counts only its share of the
 * bucket's tokens, and its margin says how far that count can carry it (twice its counting error): past one and a half
 * margins, three errors, a runner of four strays by chance about once in a thousand runs, and a runner under a limiter
 * of its own (a pod behind another gateway) strays further than that.
 */
export function disagreesBy(own: number, merged: number, margin: number | null): boolean {
  return Math.abs(own - merged) > Math.max(DISAGREEMENT, CHANCE_MARGINS * (margin ?? 0)) * merged;
}

export class MergeError extends Error {
  override name = 'MergeError';
}

export interface MergedReport extends LoadReport {
  /** The runners merged, by segment: each one's part of the test and of its requests, its own limits and lines. */
  runners: MergedRunner[];
  /** Where runners' findings differ from each other or from the merged one, one line each. */
  disagreements: string[];
}

export interface MergedRunner {
  runner: string;
  segment: Segment;
  /** The requests this runner sent (the merged report's requests.count adds them up). */
  requests: number;
  /** Its own rate limit per ladder, scaled to the whole test as it reported it. */
  limits: Array<{ operation: string; estimatedLimit: number | null }>;
  lines: string[];
}

interface LadderFindings {
  ladders: LadderResult[];
}

const laddersOf = (report: LoadReport): LadderResult[] => ((report.findings ?? {}) as Partial<LadderFindings>).ladders ?? [];

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/** The segments must be parts of one test: no overlap; the part they cover is reported when it is not all of it. */
function coverage(reports: readonly LoadReport[]): { segment: Segment; notes: string[] } {
  const ordered = [...reports].sort((a, b) => a.segment.from - b.segment.from);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i]!.segment.from < ordered[i - 1]!.segment.to - 1e-9) {
      throw new MergeError(`segments ${ordered[i - 1]!.segment.text} and ${ordered[i]!.segment.text} overlap: give each runner's report once`);
    }
  }
  const share = ordered.reduce((n, r) => n + r.segment.share, 0);
  const from = ordered[0]!.segment.from;
  const to = ordered[ordered.length - 1]!.segment.to;
  const whole = share > 1 - 1e-9;
  const notes = whole ? [] : [`the reports cover ${percent(share)} of the test: the rates are scaled to the runners present, the counts are not`];
  return { segment: { from, to, share, text: whole ? '0:1' : ordered.map((r) => r.segment.text).join(',') }, notes };
}

function mergeChecks(reports: readonly LoadReport[]): SummaryCheck[] {
  const byName = new Map<string, SummaryCheck>();
  for (const check of reports.flatMap((r) => r.checks)) {
    const seen = byName.get(check.name);
    byName.set(check.name, seen ? { name: check.name, passes: seen.passes + check.passes, fails: seen.fails + check.fails } : { ...check });
  }
  return [...byName.values()];
}

const maxOf = (values: Array<number | null>): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? Math.max(...known) : null;
};

function mergeOperations(reports: readonly LoadReport[]): LoadReport['operations'] {
  const names = [...new Set(reports.flatMap((r) => r.operations.map((o) => o.operation)))].sort();
  return names.map((operation) => {
    const parts = reports.flatMap((r) => r.operations.filter((o) => o.operation === operation));
    return {
      operation,
      count: parts.every((p) => p.count === null) ? null : parts.reduce((n, p) => n + (p.count ?? 0), 0),
      p95Ms: maxOf(parts.map((p) => p.p95Ms)),
      p99Ms: maxOf(parts.map((p) => p.p99Ms)),
    };
  });
}

/** One operation's ladder over every runner: analysed on the added-up counts, each runner held against it. */
function mergeLadder(operationId: LadderResult['operationId'], runners: ReadonlyArray<{ label: string; result: LadderResult }>) {
  const first = runners[0]!.result;
  const stages = mergeLadders(runners.map((r) => r.result.stages));
  const analysis = { ...analyseLadder(stages, []), rejection: runners.map((r) => r.result.analysis.rejection).find((x) => x !== null) ?? null };
  const { line, item } = ladderFinding(operationId, first.operation, analysis);
  const disagreements: string[] = [];
  const merged = analysis.estimatedLimit;
  for (const { label, result } of runners) {
    const own = result.analysis.estimatedLimit;
    if (merged !== null && own !== null && disagreesBy(own, merged, result.analysis.confidence?.margin ?? null)) {
      disagreements.push(`${first.operation}: ${label} found ≈ ${own}/s, ${percent(Math.abs(own - merged) / merged)} off the merged ≈ ${merged}/s`);
    } else if ((merged === null) !== (own === null)) {
      disagreements.push(
        `${first.operation}: ${label} found ${own === null ? 'no rate limit' : `≈ ${own}/s`}, the merged counts ${merged === null ? 'no rate limit' : `≈ ${merged}/s`}`,
      );
    }
  }
  const statuses = [...new Set(runners.map((r) => r.result.analysis.rejection?.status).filter((s): s is number => s !== undefined))];
  if (statuses.length > 1) disagreements.push(`${first.operation}: runners were refused with different statuses: ${statuses.join(', ')}`);
  return { result: { operationId, operation: first.operation, stages, analysis } satisfies LadderResult, line, item, disagreements };
}

/** The findings a script reports besides its ladders, taken from the runners that have them (the first one's first). */
function otherFindings(reports: readonly LoadReport[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const report of reports) {
    for (const [key, value] of Object.entries((report.findings ?? {}) as Record<string, unknown>)) {
      const empty = value === null || (Array.isArray(value) && value.length === 0);
      if (key !== 'ladders' && !empty && !(key in out)) out[key] = value;
    }
  }
  return out;
}

/** Fingerprint items that runners report alike are the test's; one that differs between runners is a disagreement. */
function mergeItems(reports: readonly LoadReport[], ladderItems: readonly FingerprintItem[]): { items: FingerprintItem[]; disagreements: string[] } {
  const ladderIds = new Set(ladderItems.map((i) => i.id));
  const byId = new Map<string, FingerprintItem[]>();
  for (const item of reports.flatMap((r) => r.fingerprint)) if (!ladderIds.has(item.id)) byId.set(item.id, [...(byId.get(item.id) ?? []), item]);
  const disagreements: string[] = [];
  for (const [id, items] of byId) {
    if (new Set(items.map((i) => JSON.stringify(i.observed))).size > 1)
      disagreements.push(`${id}: runners observed ${items.map((i) => JSON.stringify(i.observed)).join(' and ')}`);
  }
  return {
    items: mergeFingerprints(
      [...byId.values()].map((items) => items[0]!),
      ladderItems,
    ),
    disagreements,
  };
}

export function mergeReports(reports: readonly LoadReport[]): MergedReport {
  if (reports.length === 0) throw new MergeError('no runner reports to merge');
  const scripts = [...new Set(reports.map((r) => r.script))];
  if (scripts.length > 1) throw new MergeError(`the reports are of different scripts (${scripts.join(', ')}): merge one test at a time`);
  const targets = [...new Set(reports.map((r) => r.target))];
  if (targets.length > 1) throw new MergeError(`the reports are about different targets (${targets.join(', ')}): merge one test at a time`);
  const ordered = [...reports].sort((a, b) => a.segment.from - b.segment.from);
  const { segment, notes } = coverage(ordered);
  const labelled = ordered.map((report) => ({ report, label: segmentLabel(report.segment) || `segment ${report.segment.text}` }));

  const operationIds = [...new Set(ordered.flatMap((r) => laddersOf(r).map((l) => l.operationId)))];
  const ladders = operationIds.map((id) =>
    mergeLadder(
      id,
      labelled.flatMap(({ report, label }) =>
        laddersOf(report)
          .filter((l) => l.operationId === id)
          .map((result) => ({ label, result })),
      ),
    ),
  );
  const items = mergeItems(
    ordered,
    ladders.map((l) => l.item),
  );
  const count = ordered.reduce((n, r) => n + r.requests.count, 0);
  const requests = {
    count,
    perSecond: Math.round(ordered.reduce((n, r) => n + r.requests.perSecond, 0) * 100) / 100,
    failedRatio: count === 0 ? 0 : ordered.reduce((n, r) => n + r.requests.failedRatio * r.requests.count, 0) / count,
    p95Ms: maxOf(ordered.map((r) => r.requests.p95Ms)),
  };
  const thresholdKeys = [...new Set(ordered.flatMap((r) => r.thresholds.map((t) => `${t.metric}\u0000${t.expression}`)))];
  const thresholds = thresholdKeys.map((key) => {
    const [metric, expression] = key.split('\u0000') as [string, string];
    return { metric, expression, ok: ordered.every((r) => r.thresholds.every((t) => t.metric !== metric || t.expression !== expression || t.ok)) };
  });
  const ladderFindings = ladders.length > 0 ? { ladders: ladders.map((l) => l.result) } : {};
  return {
    script: scripts[0]!,
    target: targets[0]!,
    segment,
    startedAt: ordered.map((r) => r.startedAt).sort()[0]!,
    durationSeconds: Math.max(...ordered.map((r) => r.durationSeconds)),
    thresholds,
    checks: mergeChecks(ordered),
    requests,
    operations: mergeOperations(ordered),
    findings: { ...otherFindings(ordered), ...ladderFindings },
    lines: [
      `merged from ${ordered.length} runner report${ordered.length === 1 ? '' : 's'}; p95 and p99 are the highest runner's (an upper bound)`,
      ...notes,
      ...ladders.map((l) => l.line),
      // Each runner's other lines, once; its ladder lines and the lines about itself stay with the runner.
      ...labelled
        .flatMap(({ report, label }) =>
          report.lines.filter((line) => !line.startsWith(`${label}:`) && !laddersOf(report).some((l) => line.startsWith(`${l.operation}:`))),
        )
        .filter((line, i, all) => all.indexOf(line) === i),
    ],
    fingerprint: items.items,
    runners: labelled.map(({ report, label }) => ({
      runner: label,
      segment: report.segment,
      requests: report.requests.count,
      limits: laddersOf(report).map((l) => ({ operation: l.operation, estimatedLimit: l.analysis.estimatedLimit })),
      lines: report.lines,
    })),
    disagreements: [...ladders.flatMap((l) => l.disagreements), ...items.disagreements],
  };
}

/** The merged report's text: the usual summary, then each runner's own findings and the disagreements. */
export function mergedText(merged: MergedReport): string {
  const out = [reportText(merged).trimEnd(), 'runners:'];
  for (const { runner, lines } of merged.runners) out.push(`  ${runner}`, ...lines.map((line) => `    ${line}`));
  out.push(merged.disagreements.length === 0 ? 'disagreements: none' : 'disagreements:', ...merged.disagreements.map((d) => `  ${d}`));
  return `${out.join('\n')}\n`;
}
