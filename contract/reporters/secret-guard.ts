// Fails the run if a configured secret or an integration token seen in this run appears in any report file; warns
// at the start about a configured secret too short or too common to be guarded everywhere (http/secret-match.ts).
// Listed last among the reporters, so every other reporter has written its files when onEnd runs. It reads what this
// run wrote (files written since its process started), not what other commands keep under reports/.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { FullConfig, FullResult, Reporter, Suite } from '@playwright/test/reporter';
import { callbackSecrets } from '../target/callback-inbox.ts';
import { namedSecretsOf } from '../../config/suite-config.ts';
import { guardSecret, suiteText, weakSecretWarning, type GuardedSecret } from '../../http/secret-match.ts';
import { DOCUMENT_PATH } from '../../openapi/document.ts';
import { loadSuiteConfig, REPORTS_DIR } from '../core/env.ts';
import { findSecrets, leakLine } from './secret-scan.ts';
import { PART, timedSync } from '../core/run-timing.ts';

export default class SecretGuard implements Reporter {
  /** What the suite writes itself: its test titles and the document its reports quote. */
  private own = suiteText();
  /** Where this run's tests write their own files: each project's output folder (test-results/, or --output's). */
  private outputDirs: string[] = [];

  printsToStdio(): boolean {
    return false;
  }

  private configured(): GuardedSecret[] {
    return namedSecretsOf(loadSuiteConfig()).map((s) => guardSecret(s.name, s.value, this.own));
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
    this.own = suiteText(readFileSync(DOCUMENT_PATH, 'utf8'), ...suite.allTests().map((t) => t.titlePath().join(' ')));
    for (const secret of this.configured()) {
      const warning = weakSecretWarning(secret);
      if (warning) console.error(`secret-guard: ${warning}`);
    }
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const secrets = [...this.configured(), ...[...callbackSecrets].map((v) => guardSecret("a value of the custom block's call", v, this.own))];
    // Two seconds of margin for file systems that keep coarse write times.
    const leaks = timedSync(REPORTS_DIR, PART.guard, () => findSecrets([REPORTS_DIR, ...this.outputDirs], secrets, performance.timeOrigin - 2000));
    for (const leak of leaks) console.error(`secret-guard: ${leakLine(leak)}: remove it from what writes that file`);
    return leaks.length ? { status: 'failed' } : { status: result.status };
  }
}
