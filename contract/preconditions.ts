// Preconditions a run could not set up (no completed dialog to act on, no body shape, no token in the custom
// block's call): each skipped test leaves a row, and the coverage matrix lists its pairs with the reason.
import { join } from 'node:path';
import { readJsonLines } from './run-records.ts';

export const PRECONDITIONS_DIR = 'preconditions';

export interface PreconditionRow {
  test: string;
  reason: string;
  /** "operationId status" pairs the test would have exercised. */
  pairs: string[];
  /** Observation ids it would have recorded. */
  observations: string[];
  /** (state × trigger) pairs of spec §3 it would have walked (contract/state-table.ts). */
  transitions?: string[];
}

/** Why this run could not cover each pair or observation id: key → reason, from every skipped test's row. */
export function preconditionReasons(reportsDir: string, what: 'pairs' | 'observations' | 'transitions'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of readJsonLines<PreconditionRow>(join(reportsDir, PRECONDITIONS_DIR)))
    for (const key of row[what] ?? []) out[key] ??= `not in this run: ${row.reason} (${row.test})`;
  return out;
}

/** Skips for want of a body shape (RequestBodies.missing: "no send body shape: …"): each reason with its tests. */
export function shapeSkips(reportsDir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of readJsonLines<PreconditionRow>(join(reportsDir, PRECONDITIONS_DIR))) {
    if (/^no (send|command) body shape: /.test(row.reason)) out.set(row.reason, [...(out.get(row.reason) ?? []), row.test]);
  }
  return out;
}
