// Fails the run if a configured secret or an integration token seen in this run appears in any report file.
// Listed last among the reporters, so every other reporter has written its files when onEnd runs.
import type { FullResult, Reporter } from '@playwright/test/reporter';
import { callbackSecrets } from '../callback-inbox.ts';
import { secretsOf } from '../../config/suite-config.ts';
import { loadSuiteConfig, REPORTS_DIR } from '../env.ts';
import { findSecrets } from '../secret-scan.ts';

export default class SecretGuard implements Reporter {
  printsToStdio(): boolean {
    return false;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const secrets = [...secretsOf(loadSuiteConfig()), ...callbackSecrets];
    const leaks = findSecrets([REPORTS_DIR, 'test-results'], secrets);
    for (const leak of leaks) console.error(`secret-guard: ${leak.file} contains a ${leak.kind}: remove it from what writes that file`);
    return leaks.length ? { status: 'failed' } : { status: result.status };
  }
}
