// The run reporter of an invocation of several runs (contract/env.ts RUNS_ENV): one RunReports per project, each fed
// its own tests and ending in its own run (its reports folder, configuration and environment), one after the other
// in the order of the runs. Each run's reports are what the run alone would have written.
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { enterRun } from '../env.ts';
import RunReports from './run-reports.ts';

export default class RunsReports implements Reporter {
  private readonly runs = new Map<string, RunReports>();

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    for (const project of suite.suites) {
      const reports = new RunReports();
      reports.onBegin(config, project);
      this.runs.set(project.title, reports);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.runs.get(test.parent.project()!.name)!.onTestEnd(test, result);
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
