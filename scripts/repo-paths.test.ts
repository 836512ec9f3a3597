// A user's clone holds the repository and nothing beside it: no file may name a path outside it (the vendor's
// specification is cited by section, a tool is found on PATH). A relative path is read from its file's folder, and a
// command's path (shell, package.json scripts, the docs' code spans, root-relative by convention) also from the root,
// where commands run. Code is left out: its imports resolve inside by construction (the type check sees to it), and
// its tests hold paths that lead out on purpose (a traversal the simulator must refuse, a tree cruised elsewhere).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { PROJECT_ROOT } from '../contract/core/env.ts';

const TEXT = /\.(json|ya?ml|md|sh)$|^\.ci\/run$|^\.env\.example$/;
const RELATIVE = /(?<![\w.])((?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*)/g;
/** Where commands are written: read from the root too. */
const COMMANDS = /\.(md|sh)$|^\.ci\/run$|^package\.json$/;

const escapes = (from: string, path: string) => relative(PROJECT_ROOT, resolve(from, path)).startsWith('..');

/** The places in `text` (of the file `file`, relative to the root) that name a path outside the repository. */
function outsidePaths(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) =>
    [...line.matchAll(RELATIVE)].flatMap((m) => {
      const link = line.slice(Math.max(0, m.index! - 2), m.index) === '](';
      const outside = escapes(join(PROJECT_ROOT, dirname(file)), m[1]!) || (COMMANDS.test(file) && !link && escapes(PROJECT_ROOT, m[1]!));
      return outside ? [`${file}:${i + 1}: ${m[1]}`] : [];
    }),
  );
}

test('no file of the repository names a path outside it', () => {
  const files = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    .stdout.split('\n')
    .filter((f) => TEXT.test(f) && f !== 'package-lock.json' && !f.startsWith('load/k8s/crd/'));
  assert.deepEqual(
    files.flatMap((f) => outsidePaths(f, readFileSync(join(PROJECT_ROOT, f), 'utf8'))),
    [],
  );
});

test('the paths it finds: a command or a link out of the tree, not an import or a link inside it', () => {
  assert.deepEqual(outsidePaths('.ci/run', 'PATH="../tools:$PATH"'), ['.ci/run:1: ../tools']);
  assert.deepEqual(outsidePaths('docs/a.md', '[spec](../../spec.txt) and `../shared/k6 run`'), ['docs/a.md:1: ../../spec.txt', 'docs/a.md:1: ../shared/k6']);
  assert.deepEqual(outsidePaths('docs/a.md', 'see [the README](../README.md)'), []);
  assert.deepEqual(outsidePaths('workflows/a.yaml', 'url: ../openapi/dialog-bot.openapi.yaml'), []);
});
