// The import rules can fail: a small tree with one violation of each rule, cruised with the project's own
// .dependency-cruiser.cjs, must be refused by every rule, and a tree that keeps them must pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../contract/core/env.ts';

const DEPCRUISE = join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise');

/** The rule names depcruise reports for a tree of files (path -> source). */
function violations(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'dc-rules-'));
  try {
    for (const [path, text] of Object.entries({ 'tsconfig.json': '{}', ...files })) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(DEPCRUISE, ['--config', join(PROJECT_ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', '.'], { cwd: dir, encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as { summary: { violations: Array<{ rule: { name: string } }> } };
    return [...new Set(report.summary.violations.map((v) => v.rule.name))].sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const LEAVES = {
  'contract/core/env.ts': 'export const e = 1;\n',
  'config/suite-version.ts': 'export const v = 1;\n',
  'lib/shape.ts': 'export const s = 1;\n',
  'lib/shape.test.ts': 'export const t = 1;\n',
  'simulator/config.ts': 'export const c = 1;\n',
  'scripts/drift.ts': 'export const d = 1;\n',
  'load/run.ts': 'export const r = 1;\n',
  'openapi/operations.generated.ts': 'export const o = 1;\n',
};

test('each rule refuses its violation', () => {
  const found = violations({
    ...LEAVES,
    'report/a.ts': "import 'node:fs';\nimport '../contract/core/env.ts';\nimport '../config/suite-version.ts';\n",
    'load/scripts/a.ts': "import 'node:fs';\nimport '../../contract/core/env.ts';\nimport '../run.ts';\n",
    'simulator/a.ts': "import '../scripts/drift.ts';\n",
    'openapi/a.ts': "import '../report/a.ts';\n",
    'contract/a.ts': "import '../simulator/config.ts';\nimport '../lib/shape.test.ts';\n",
    'http/b.ts': "import './c.ts';\nexport const b = 1;\n",
    'http/c.ts': "import './b.ts';\nexport const c = 1;\n",
    'lib/a.ts': "import '../http/b.ts';\nimport '../openapi/a.ts';\n",
  });
  assert.deepEqual(found, [
    'contract-imports-no-load-or-simulator',
    'k6-scripts-import-no-builtin',
    'k6-scripts-import-no-node',
    'lib-imports-only-lib',
    'load-and-contract-apart',
    'no-circular',
    'not-to-test',
    'only-scripts-wire',
    'openapi-imports-only-lib',
    'pure-imports-no-builtin',
    'pure-imports-no-io-layer',
    'simulator-stands-alone',
  ]);
});

test('a tree that keeps the rules passes', () => {
  const found = violations({
    ...LEAVES,
    'report/a.ts': "import '../lib/shape.ts';\nexport const a = 1;\n",
    'openapi/a.ts': "import '../lib/shape.ts';\n",
    'lib/a.ts': "import './shape.ts';\nimport '../openapi/operations.generated.ts';\n",
    'load/scripts/a.ts': "import '../../lib/shape.ts';\n",
    'scripts/a.ts': "import '../contract/core/env.ts';\nimport '../simulator/config.ts';\nimport '../load/run.ts';\n",
    'contract/a.test.ts': "import '../scripts/drift.ts';\n",
  });
  assert.deepEqual(found, []);
});

test("contract/'s rooms: each refuses an import from a room above it, and the specs stay apart", () => {
  const rooms = ['core', 'clock', 'judging', 'target', 'api', 'fixtures', 'run', 'reporters', 'v1'];
  const files: Record<string, string> = { 'contract/v2/j.ts': 'export const j = 1;\n' };
  rooms.forEach((room, i) => {
    const next = rooms[i + 1];
    files[`contract/${room}/m.ts`] = next ? `import '../${next}/m.ts';\n` : "import '../run/m.ts';\nimport '../v2/j.ts';\n";
  });
  assert.deepEqual(
    violations(files),
    [
      ...rooms.slice(0, -1).map((room) => `contract-${room}-imports-below`),
      'contract-specs-apart',
      'contract-specs-import-no-run-machinery',
      'no-circular',
    ].sort(),
  );
});

test("contract/'s rooms: imports downward, within a room and into shared/ pass", () => {
  assert.deepEqual(
    violations({
      'contract/core/a.ts': 'export const a = 1;\n',
      'contract/target/b.ts': "import '../core/a.ts';\nexport const b = 1;\n",
      'contract/target/c.ts': "import './b.ts';\n",
      'contract/shared/d.ts': "import '../target/b.ts';\nexport const d = 1;\n",
      'contract/v1/e.ts': "import '../shared/d.ts';\nimport '../core/a.ts';\n",
    }),
    [],
  );
});
