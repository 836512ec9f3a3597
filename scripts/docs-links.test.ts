// The docs are read by following links: every relative link of a Markdown file of the repository leads to a file of
// it, and a link to a heading (file.md#heading) to a heading that file has, as GitHub names its anchors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { PROJECT_ROOT } from '../contract/core/env.ts';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchors = (markdown: string): Set<string> => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

/** The links of `file` (relative to the root) that lead nowhere. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, link]) => {
    if (/^[a-z]+:/.test(link!)) return [];
    const [path, anchor] = link!.split('#');
    const target = path ? join(PROJECT_ROOT, dirname(file), path) : join(PROJECT_ROOT, file);
    if (!existsSync(target)) return [`${file}: ${link} (no such file)`];
    if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
      return [`${file}: ${link} (${relative(PROJECT_ROOT, target)} has no such heading)`];
    return [];
  });
}

test('every relative link of the docs leads to a file of the repository, and to a heading it has', () => {
  const files = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    .stdout.split('\n')
    .filter((f) => f && !f.startsWith('node_modules/'));
  assert.deepEqual(files.flatMap(brokenLinks), []);
});

test('anchors as GitHub makes them', () => {
  assert.equal(anchorOf('The lifecycle as an Arazzo workflow'), 'the-lifecycle-as-an-arazzo-workflow');
  assert.equal(anchorOf('Against a real staging: the verdict and its exit code'), 'against-a-real-staging-the-verdict-and-its-exit-code');
  assert.equal(anchorOf('`npm test` and `test:all`'), 'npm-test-and-testall');
});
