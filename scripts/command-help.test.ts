// Every command of package.json answers --help and -h: usage, options, environment, exit codes and an example, on
// stdout, exit 0, without running anything. A new script fails here until it has a help (config/command-line.ts)
// or is listed below as not being a command of ours.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { pool } from '../lib/pool.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const scripts = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Scripts that are not one command of ours, and why their --help is someone else's. */
const NOT_ENTRY_POINTS: Record<string, string> = {
  test: 'a chain of the checks below',
  typecheck: 'tsc, three times',
  format: 'npm run lint -- --write',
  'lint:deps': "dependency-cruiser's own command line",
  'lint:unused': "knip's own command line",
  'lint:openapi': 'redocly lint, then openapi/check.ts',
  'test:unit': 'node --test over the unit files',
  'test:drift-html': "playwright test with drift-ui/'s config: --help is Playwright's",
  bench: 'a chain of the bench:* commands, each with its help',
  'test:k6': 'node --test over load/real-k6.check.ts',
  'test:power': "profiles and mutation side by side (npm-run-all2's run-p), each with its help",
};

/**
 * `tsx FILE` → FILE: the form an entry point of ours takes; `node --import tsx FILE` for one that must get npm's
 * signals itself (no tsx process in between: the main command and the simulator).
 */
const entryOf = (command: string) => /^(?:tsx|node --import tsx) (\S+\.ts)$/.exec(command)?.[1];

function run(file: string, flag: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, flag], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('the list of scripts that are not commands names only scripts that exist', () => {
  assert.deepEqual(
    Object.keys(NOT_ENTRY_POINTS).filter((name) => !(name in scripts)),
    [],
  );
});

test('every command in package.json answers --help and -h with its usage, options, environment, exit codes and an example', async () => {
  const commands = Object.entries(scripts).filter(([name]) => !(name in NOT_ENTRY_POINTS));
  const notEntries = commands.filter(([, command]) => !entryOf(command)).map(([name, command]) => `${name}: ${command}`);
  assert.deepEqual(
    notEntries,
    [],
    'a script that is no `tsx FILE.ts` (or `node --import tsx FILE.ts`): give it one entry point, or list it in NOT_ENTRY_POINTS with why',
  );
  const problems = await pool(commands, 2, async ([name, command]) => {
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
