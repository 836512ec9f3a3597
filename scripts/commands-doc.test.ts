// docs/commands.md lists every script of package.json, and says which do not answer --help: the commands of ours do
// (scripts/command-help.integration.test.ts), the chains of other commands and other tools' command lines do not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { NOT_ENTRY_POINTS, packageScripts } from './package-scripts.ts';

const DOC = readFileSync(new URL('../docs/commands.md', import.meta.url), 'utf8');

test('docs/commands.md names every script of package.json', () => {
  const named = (name: string) =>
    name === 'test' ? DOC.includes('`npm test') : new RegExp(`\`(npm run )?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\` ]`).test(DOC);
  assert.deepEqual(
    Object.keys(packageScripts()).filter((name) => !named(name)),
    [],
  );
});

test('docs/commands.md says which scripts do not answer --help: exactly those that are no command of ours', () => {
  const sentence = /do not answer `--help` themselves: ([^.]*)\./.exec(DOC.replace(/\n/g, ' '))?.[1] ?? '';
  const listed = [...sentence.matchAll(/`(?:npm )?([\w:-]+)`/g)].map((m) => m[1]!).sort();
  assert.deepEqual(listed, Object.keys(NOT_ENTRY_POINTS).sort());
});
