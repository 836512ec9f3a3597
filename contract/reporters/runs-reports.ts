// The run reporter of an invocation of several runs (contract/core/env.ts RUNS_ENV): one RunReports per run, each fed
// its own tests (those contract/fixtures/api-test.ts eachRun registered under its name) and ending in its own run (its reports
// folder, configuration and environment), one at a time. Each run's reports are what the run alone would have written.
// A run ends as soon as its last test has: a lane's workers take each file's tests of all its runs, so every run's
// last test comes near the invocation's end, and ended there one after the other, its runs' ends (a third of a second
// each: fold, judging, reports) were a tail of one core alone, 20 s of the mutation run's 2.5 minutes.
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { enterRun, runSpecs } from '../core/env.ts';
import RunReports from './run-reports.ts';
import { runOf } from './run-timing.ts';

export default class RunsReports implements Reporter {
  private readonly runs = new Map<string, RunReports>();
  /** Each run not ended yet: its tests not ended yet. */
  private readonly left = new Map<string, Set<string>>();
  /** The runs' ends, one after the other (each enters its run's environment): whether any failed. */
  private ending: Promise<boolean> = Promise.resolve(false);
  private begun = new Date();

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.begun = new Date();
    const planned = new Map((runSpecs() ?? []).map(({ name }) => [name, [] as TestCase[]]));
    for (const test of suite.allTests()) planned.get(runOf(test))?.push(test);
    for (const [name, tests] of planned) {
      const reports = new RunReports();
      reports.plan(tests);
      this.runs.set(name, reports);
      this.left.set(name, new Set(tests.map((t) => t.id)));
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const name = runOf(test);
    this.runs.get(name)!.onTestEnd(test, result);
    // A result is the test's last unless it is retried.
    if (result.status !== test.expectedStatus && result.retry < test.retries) return;
    const left = this.left.get(name);
    if (!left) return;
    left.delete(test.id);
    // Every test of the run ended: what the invocation does next is no part of it.
    if (left.size === 0) this.end(name, { status: 'passed', startTime: this.begun, duration: Date.now() - this.begun.getTime() });
  }

  private end(name: string, result: FullResult): void {
    if (!this.left.delete(name)) return;
    const reports = this.runs.get(name)!;
    this.ending = this.ending.then(async (failed) => {
      enterRun(name);
      const ended = await reports.onEnd(result);
      return failed || ended?.status === 'failed';
    });
    // Awaited in onEnd; meanwhile a run's end that threw is no unhandled rejection.
    this.ending.catch(() => {});
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    // The runs not ended yet end with the invocation, as it ended (interrupted, a worker lost...).
    for (const name of [...this.left.keys()]) this.end(name, result);
    return (await this.ending) ? { status: 'failed' } : undefined;
  }
}
