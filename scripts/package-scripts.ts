// The commands of package.json, for the tests that hold every command to something (scripts/command-help.integration.test.ts: it
// answers --help; scripts/command-environment.integration.test.ts: it asks for no variable its help leaves out). A new script is
// a command of ours until it is listed here as not being one, with why.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SCRIPTS = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Scripts that are not one command of ours, and why their --help is someone else's. */
export const NOT_ENTRY_POINTS: Record<string, string> = {
  test: "a chain of the contributor's checks below",
  'test:all': 'npm test, then everything else CI runs: a chain of the commands below',
  'test:integration': 'node --test over the integration files (whole suites, commands, servers)',
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

/** Every script of package.json, by name: the command npm runs. */
export const packageScripts = (): Readonly<Record<string, string>> => SCRIPTS;

/** The commands of ours: each script not in NOT_ENTRY_POINTS, with what npm runs. */
export const commands = (): Array<[name: string, command: string]> => Object.entries(SCRIPTS).filter(([name]) => !(name in NOT_ENTRY_POINTS));

/**
 * `tsx FILE` → FILE: the form an entry point of ours takes; `node --import tsx FILE` for one that must get npm's
 * signals itself (no tsx process in between: the main command and the simulator).
 */
export const entryOf = (command: string) => /^(?:tsx|node --import tsx) (\S+\.ts)$/.exec(command)?.[1];

export interface EntryRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * An entry point run as npm runs it (`node --import tsx FILE ARGS...` from the project root) with exactly `env`;
 * `until`: a command that runs until stopped gets SIGTERM once its output matches.
 */
export function runEntry(file: string, args: readonly string[], env: NodeJS.ProcessEnv, until?: RegExp): Promise<EntryRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: new URL('..', import.meta.url).pathname, env });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    // Once: a second signal would find the command's handler spent and kill it.
    const read = () => {
      if (!stopped && until?.test(stdout + stderr)) stopped = child.kill('SIGTERM');
    };
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      read();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      read();
    });
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
