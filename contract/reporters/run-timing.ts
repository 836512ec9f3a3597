// Journals when the run's tests were loaded and each worker's stretch of tests (contract/core/run-timing.ts): when
// its first test started and its last ended, how many it ran and how long their fixtures and hooks took. Listed first,
// so its onBegin is Playwright's own moment. In an invocation of several runs, each run's in its own reports folder.
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { REPORTS_DIR, runSpecs } from '../core/env.ts';
import { markPart, PART } from '../core/run-timing.ts';

interface Lane {
  from: number;
  to: number;
  tests: number;
  busyMs: number;
  fixturesMs: number;
}

/** The run of a test in an invocation of several: the describe eachRun put it in, right under its file. */
export function runOf(test: TestCase): string {
  let suite = test.parent;
  while (suite.parent && suite.parent.type !== 'file') suite = suite.parent;
  return suite.title;
}

export default class RunTiming implements Reporter {
  private begun = Date.now();
  /** Each run's lanes (one run, ''), by parallel index. */
  private readonly lanes = new Map<string, Map<number, Lane>>();

  printsToStdio(): boolean {
    return false;
  }

  onBegin(): void {
    this.begun = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const run = runSpecs() ? runOf(test) : '';
    const lanes = this.lanes.get(run) ?? new Map<number, Lane>();
    this.lanes.set(run, lanes);
    const from = result.startTime.getTime();
    const to = from + result.duration;
    // Fixtures' set-up and teardown run inside the test's "Before Hooks" and "After Hooks" steps.
    const fixturesMs = result.steps.filter((s) => s.category === 'hook').reduce((sum, s) => sum + s.duration, 0);
    const lane = lanes.get(result.parallelIndex);
    lanes.set(
      result.parallelIndex,
      lane
        ? {
            from: Math.min(lane.from, from),
            to: Math.max(lane.to, to),
            tests: lane.tests + 1,
            busyMs: lane.busyMs + result.duration,
            fixturesMs: lane.fixturesMs + fixturesMs,
          }
        : { from, to, tests: 1, busyMs: result.duration, fixturesMs },
    );
  }

  onEnd(): void {
    const dirs = new Map((runSpecs() ?? []).map((run) => [run.name, run.env.REPORTS_DIR ?? REPORTS_DIR]));
    for (const [run, lanes] of this.lanes) {
      const dir = dirs.get(run) ?? REPORTS_DIR;
      markPart(dir, PART.begin, this.begun, this.begun);
      for (const [lane, { from, to, ...counts }] of lanes) markPart(dir, PART.lane, from, to, { lane, ...counts });
    }
  }
}
