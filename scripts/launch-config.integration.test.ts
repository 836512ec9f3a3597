// The launchers (npm run contract, npm run respect) refuse a configuration that cannot mean what it says before
// anything runs: one line naming the variables, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/suite-config.ts';
import { withSimulatorDefaults } from '../simulator/suite-env.ts';

const TARGET = { API_BASE_URL: 'http://127.0.0.1:9', API_LOGIN: 'qa', API_PASSWORD: 'p4ss-w0rd-long', BOT_ID: '1', GOTO_BOT_ID: '2', CUSTOM_BLOCK_BOT_ID: '3' };

test('a simulator profile with a target is a configuration error, not silently ignored', () => {
  assert.throws(
    () => withSimulatorDefaults({ ...TARGET, SIMULATOR_PROFILE: 'bearer-ids' }),
    (err: Error) => err instanceof ConfigError && /^SIMULATOR_PROFILE=bearer-ids is set together with API_BASE_URL/.test(err.message),
  );
  // Either alone is fine; an empty profile is no profile.
  assert.equal(withSimulatorDefaults({ ...TARGET, SIMULATOR_PROFILE: ' ' }).API_LOGIN, 'qa');
  assert.equal(withSimulatorDefaults({ SIMULATOR_PROFILE: 'bearer-ids' }).BOT_ID !== undefined, true);
});

for (const script of ['contract', 'respect']) {
  test(`npm run ${script} with SIMULATOR_PROFILE and API_BASE_URL: one line, exit 2, nothing run`, () => {
    const reports = mkdtempSync(join(tmpdir(), `launch-${script}-`));
    const run = spawnSync(process.execPath, ['--import', 'tsx', new URL(`./${script}.ts`, import.meta.url).pathname], {
      encoding: 'utf8',
      env: { ...process.env, ...TARGET, SIMULATOR_PROFILE: 'bearer-ids', REPORTS_DIR: reports },
    });
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      new RegExp(`^${script}: SIMULATOR_PROFILE=bearer-ids is set together with API_BASE_URL: .*; unset one of them(; see npm run ${script} -- --help)?\\n$`),
    );
    assert.equal(run.stdout, '');
    // The job's JUnit says it, apart from the last run's reports (reports/stopped/), which stay as they were.
    if (script === 'contract')
      assert.match(readFileSync(join(reports, 'stopped', 'junit.xml'), 'utf8'), /<error message="contract: SIMULATOR_PROFILE=bearer-ids/);
    assert.equal(existsSync(join(reports, 'junit.xml')), false);
  });
}
