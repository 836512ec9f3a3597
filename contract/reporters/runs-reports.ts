// The run reporter of an invocation of several runs (contract/core/env.ts RUNS_ENV): one RunReports per run, each fed
// its own tests (those contract/fixtures/api-test.ts eachRun registered under its name) and ending in its own run (its reports
// folder, configuration and environment), one after the other in the order of the runs. Each run's reports are what
// the run alone would have written.
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { enterRun, runSpecs } from '../core/env.ts';
import RunReports from './run-reports.ts';
import { runOf } from './run-timing.ts';

export default class RunsReports implements Reporter {
  private readonly runs = new Map<string, RunReports>();

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    const planned = new Map((runSpecs() ?? []).map(({ name }) => [name, [] as TestCase[]]));
    for (const test of suite.allTests()) planned.get(runOf(test))?.push(test);
    for (const [name, tests] of planned) {
      const reports = new RunReports();
      reports.plan(tests);
      this.runs.set(name, reports);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.runs.get(runOf(test))!.onTestEnd(test, result);
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    let failed = false;
    for (const [name, reports] of this.runs) {
      enterRun(name);
      const ended = await reports.onEnd(result);
      failed ||= ended?.status === 'failed';
    }
    return failed ? { status: 'failed' } : undefined;
  }
}
