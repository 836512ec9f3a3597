// The README's layout table is the map a newcomer reads first: it must list every folder of the tree, no more, and
// every folder it lists must say what it holds in a README.md of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../contract/env.ts';

/** Top-level folders named in the first column of the table under "## Layout". */
function layoutFolders(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Layout\n'));
  assert.ok(section, 'README.md has no "## Layout" section');
  return [...section.matchAll(/^\| `([^`/]+)\/` \|/gm)].map((m) => m[1]!).sort();
}

/** Folders at the root that git does not ignore (node_modules, reports… are the run's, not the project's). */
function treeFolders(): string[] {
  const names = readdirSync(PROJECT_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== '.git')
    .map((d) => d.name);
  const ignored = new Set(spawnSync('git', ['check-ignore', ...names], { cwd: PROJECT_ROOT, encoding: 'utf8' }).stdout.split('\n'));
  return names.filter((n) => !ignored.has(n)).sort();
}

test('the layout table lists exactly the folders of the tree', () => {
  const listed = layoutFolders(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8'));
  const onDisk = treeFolders();
  assert.deepEqual(
    { missingFromTable: onDisk.filter((f) => !listed.includes(f)), notInTree: listed.filter((f) => !onDisk.includes(f)) },
    { missingFromTable: [], notInTree: [] },
  );
});

test('every folder of the table but the hidden ones has a README.md saying what it holds', () => {
  const listed = layoutFolders(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')).filter((f) => !f.startsWith('.'));
  assert.deepEqual(
    listed.filter((f) => !existsSync(join(PROJECT_ROOT, f, 'README.md'))),
    [],
  );
});

test('the table is read from its own section only', () => {
  const readme = '# x\n## Layout\n| `a/` | x |\n| `.b/` | y |\n## Other\n| `c/` | z |\n';
  assert.deepEqual(layoutFolders(readme), ['.b', 'a']);
});
