// npm run test:drift-html without a Chromium says why its tests are skipped, and passes: the rest of npm test runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('without a Chromium the browser check is skipped with the reason and what to install, exit 0', () => {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  // Its own output folder: the suite's runs in other tests empty test-results/, where drift-ui's lies, as they start.
  const run = spawnSync(process.execPath, [cli, 'test', '-c', 'drift-ui/playwright.config.ts', '--output', mkdtempSync(join(tmpdir(), 'drift-ui-'))], {
    cwd: new URL('..', import.meta.url).pathname,
    encoding: 'utf8',
    env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', FORCE_COLOR: '0' },
  });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  // One line per reason, for each page's check, and together they name every test skipped.
  const reasons = [
    ...run.stdout.matchAll(
      /^skipped (\d+) tests: the (.+?) check needs a Chromium: none at \/nonexistent\/chromium \(apt-get install chromium, or set CHROMIUM_PATH\)$/gm,
    ),
  ];
  assert.deepEqual(
    reasons.map((m) => m[2]),
    ['drift.html', 'load page'],
    run.stdout,
  );
  const skipped = Number(/\n {2}(\d+) skipped\n/.exec(run.stdout)?.[1]);
  assert.equal(
    reasons.reduce((n, m) => n + Number(m[1]), 0),
    skipped,
    run.stdout,
  );
});
