// Every command of package.json answers --help and -h: usage, options, environment, exit codes and an example, on
// stdout, exit 0, without running anything. A new script fails here until it has a help (config/command-line.ts)
// or is listed as not being a command of ours (scripts/package-scripts.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pool } from '../lib/pool.ts';
import { commands, entryOf, NOT_ENTRY_POINTS, packageScripts, runEntry } from './package-scripts.ts';

const run = (file: string, flag: string) => runEntry(file, [flag], { ...process.env, FORCE_COLOR: '0' });

test('the list of scripts that are not commands names only scripts that exist', () => {
  assert.deepEqual(
    Object.keys(NOT_ENTRY_POINTS).filter((name) => !(name in packageScripts())),
    [],
  );
});

test('every command in package.json answers --help and -h with its usage, options, environment, exit codes and an example', async () => {
  const notEntries = commands()
    .filter(([, command]) => !entryOf(command))
    .map(([name, command]) => `${name}: ${command}`);
  assert.deepEqual(
    notEntries,
    [],
    'a script that is no `tsx FILE.ts` (or `node --import tsx FILE.ts`): give it one entry point, or list it in NOT_ENTRY_POINTS with why',
  );
  const problems = await pool(commands(), 2, async ([name, command]) => {
    const [long, short] = [await run(entryOf(command)!, '--help'), await run(entryOf(command)!, '-h')];
    const wrong: string[] = [];
    if (long.code !== 0) wrong.push(`exit ${long.code}: ${long.stderr.trim().split('\n')[0]}`);
    if (!long.stdout.startsWith(`usage: npm run ${name}`)) wrong.push(`starts "${long.stdout.split('\n')[0]}"`);
    for (const part of ['\nOptions:\n', '\nEnvironment', '\nExit: ', '\nExample']) if (!long.stdout.includes(part)) wrong.push(`no "${part.trim()}"`);
    if (long.stderr !== '') wrong.push(`stderr: ${long.stderr.trim().split('\n')[0]}`);
    if (short.code !== 0 || short.stdout !== long.stdout) wrong.push('-h does not print the same help');
    return wrong.map((w) => `npm run ${name} -- --help: ${w}`);
  });
  assert.deepEqual(problems.flat(), []);
});
