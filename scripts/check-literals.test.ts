// No file of contract/ spells out a verdict itself: what a check expects and whether it holds are the registry's
// (checks/), and a test only gathers evidence and calls a check by name. Any `expected:`, `holds:` or `equals:` in an
// object literal of contract/ fails here, with its file and line.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('..', import.meta.url).pathname;

/** An object literal's key that states a verdict (a parameter `(holds: boolean)` is no literal). */
const VERDICT_KEY = /(?:^|[{,])\s*(expected|holds|equals)\s*:/gm;

/** Line comments and block comments blanked, so a word in prose is no key. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');

/** The verdict keys of a module's text, as "line N: key". */
function verdictLiterals(text: string): string[] {
  const source = code(text);
  return [...source.matchAll(VERDICT_KEY)].map((m) => `line ${source.slice(0, m.index + m[0].length).split('\n').length}: ${m[1]}`);
}

const modules = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

test('the scan finds a verdict spelled out in a literal, and not a parameter or a comment', () => {
  const literal = "expect(res).toHold({\n  check: 'effect_of_start',\n  expected: 'in-process',\n  holds: (s) => s === 'in-process',\n});";
  assert.deepEqual(verdictLiterals(literal), ['line 3: expected', 'line 4: holds']);
  assert.deepEqual(verdictLiterals("judge(res, 'effect_of_start', { answered: 204, equals: 'x' });"), ['line 1: equals']);
  assert.deepEqual(verdictLiterals('const skip = (holds: boolean, reason: string) => {}; // expected: nothing'), []);
});

test('no module of contract/ spells out what a check expects or whether it holds: it calls the check by name', () => {
  const found = modules(join(ROOT, 'contract')).flatMap((file) => verdictLiterals(readFileSync(file, 'utf8')).map((hit) => `${relative(ROOT, file)} ${hit}`));
  assert.deepEqual(found, [], 'a verdict written in a test: make it a check of checks/ and call it by name (docs/checks.md)');
});
