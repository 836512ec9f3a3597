// The README's layout table is the map a newcomer reads first: it must list every folder of the tree, no more, and
// every folder it lists must say what it holds in a README.md of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { PROJECT_ROOT } from '../contract/core/env.ts';

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

/** contract/'s rooms, bottom to top, as .dependency-cruiser.cjs orders its `contract-ROOM-imports-below` rules. */
function contractRooms(): string[] {
  const config = createRequire(import.meta.url)(join(PROJECT_ROOT, '.dependency-cruiser.cjs')) as { forbidden: Array<{ name: string }> };
  return config.forbidden.flatMap((r) => /^contract-(.+)-imports-below$/.exec(r.name)?.[1] ?? []);
}

/** The folders named in backticks in a README's "May import from contract/:" sentence. */
const mayImport = (readme: string): string[] =>
  [...(/May import from contract\/: ([^;.]*)/.exec(readme)?.[1] ?? '').matchAll(/`([a-z0-9-]+)\/`/g)].map((m) => m[1]!);

test('each room of contract/ says in its README which layer it is and what it may import, as the import rules do', () => {
  const rooms = contractRooms();
  assert.ok(rooms.length >= 5, `the import rules name the rooms of contract/: ${rooms.join(', ')}`);
  const wrong = rooms.flatMap((room, i) => {
    const file = join(PROJECT_ROOT, 'contract', room, 'README.md');
    if (!existsSync(file)) return [`contract/${room}/README.md is missing`];
    const readme = readFileSync(file, 'utf8');
    return [
      ...(readme.includes(`Layer ${i + 1} of contract/`) ? [] : [`contract/${room}/README.md does not say "Layer ${i + 1} of contract/"`]),
      ...(mayImport(readme).join() === rooms.slice(0, i).join()
        ? []
        : [`contract/${room}/README.md may import ${mayImport(readme).join(', ') || 'nothing'}, the rules ${rooms.slice(0, i).join(', ') || 'nothing'}`]),
    ];
  });
  assert.deepEqual(wrong, []);
});

test('contract/ keeps its modules in rooms: at most 12 at its root, and every folder a room with a README', () => {
  const entries = readdirSync(join(PROJECT_ROOT, 'contract'), { withFileTypes: true });
  const modules = entries.filter((e) => e.isFile() && e.name.endsWith('.ts'));
  assert.ok(modules.length <= 12, `contract/ holds ${modules.length} modules at its root: ${modules.map((m) => m.name).join(', ')}`);
  const bare = entries.filter((e) => e.isDirectory() && !existsSync(join(PROJECT_ROOT, 'contract', e.name, 'README.md')));
  assert.deepEqual(
    bare.map((e) => e.name),
    [],
  );
});
