// Says why tests were skipped, once per reason: the list reporter only counts them ("3 skipped"), and a check that
// did not run must say what it needs (npm run test:drift-html without chromium).
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class SkipReasons implements Reporter {
  private readonly reasons = new Map<string, number>();

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return;
    const annotations = [...test.annotations, ...(result.annotations ?? [])];
    const reason = annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description || 'no reason given';
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
  }

  onEnd(_result: FullResult): void {
    for (const [reason, count] of this.reasons) console.log(`skipped ${count} test${count === 1 ? '' : 's'}: ${reason}`);
  }
}
