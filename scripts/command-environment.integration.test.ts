// Every command asks for no variable its --help leaves out: run with only the variables its help names under
// Environment (against a simulator started here where it reads a target), none is reported missing, and the command
// gets as far as its own work (an exit code and a line of its output, each command's own). Every other variable of
// .env.example is set empty, so a .env in the project cannot supply one. A command that cannot run here (a whole
// suite run, a benchmark, a write to a tracked file) says why; the suite runs such a command starts are checked to
// hold every variable the suite requires. A new command fails here until it has a row.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { freePort } from '../config/free-port.ts';
import { parseSuiteConfig } from '../config/suite-config.ts';
import { PROJECT_ROOT, SUITE_ENVIRONMENT } from '../contract/core/env.ts';
import type { RecordedFailure } from '../lib/failure.ts';
import { runFailures, testPasses } from '../checks/run.ts';
import { pool } from '../lib/pool.ts';
import { profileConfig, listProfiles } from '../simulator/profiles.ts';
import { LISTENING_LINE } from '../simulator/suite-env.ts';
import { commands, entryOf, runEntry } from './package-scripts.ts';
import { simulatorTargetVariables, startRunSimulator } from './suite-run.ts';

interface Run {
  /** Its arguments, given its own folder (its REPORTS_DIR). */
  args: (dir: string) => string[];
  /** Files the command reads, written into its folder first. */
  prepare?: (dir: string) => void;
  /** How the command ends once past its configuration: its exit code and a line of its own. */
  code: number;
  shows: RegExp;
  /** A command that runs until stopped: stopped once it shows that line. */
  untilShown?: true;
  /** A stand-in k6 first on PATH, which only says it ran. */
  k6?: true;
}

type Row = Run | { notRun: string };

/** A failures.json with one failure whose request reads the V2 list with the configured credentials. */
function oneFailure(dir: string): void {
  const failure: RecordedFailure = {
    ...runFailures(testPasses, { test: '[api] v2/lists.spec.ts › lists', error: 'failed' }, '[api] v2/lists.spec.ts › lists')[0]!,
    context: {
      exchanges: [
        {
          request: { method: 'GET', path: '/api/v2/conversations?PageCount=1', credentials: 'configured' },
          response: { status: 200, contentType: 'application/json', body: '{}', bodyLength: 2 },
        },
      ],
    },
  };
  writeFileSync(join(dir, 'failures.json'), JSON.stringify({ failures: [failure] }));
}

/** A recording of one V2 list read, as a proxy keeps it. */
function oneExchange(dir: string): void {
  const page = JSON.stringify({ meta: { pagination: { total: 0, count: 0, per_page: 40, current_page: 1, total_pages: 0, links: {} } } });
  const entry = {
    startedDateTime: new Date().toISOString(),
    time: 5,
    request: { method: 'GET', url: 'https://staging.example/api/v2/conversations?BotID=1', headers: [{ name: 'Authorization', value: 'Basic cWE6cGFzcw==' }] },
    response: {
      status: 200,
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: page.length, mimeType: 'application/json', text: page },
    },
  };
  writeFileSync(join(dir, 'run.har'), JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
}

const SUITE_RUNS = 'runs the whole suite against simulators it starts, each run with the variables it sets (the test below)';

const ROWS: Record<string, Row> = {
  contract: { args: () => ['contract/v1/errors.spec.ts'], code: 0, shows: /\d+ passed/ },
  respect: { args: () => [], code: 0, shows: /^respect: green/m },
  load: { args: () => ['list'], code: 0, shows: /^k6 stand-in ran$/m, k6: true },
  replay: { args: () => ['1', '--run'], prepare: oneFailure, code: 0, shows: /^compared the status \(200, as recorded\)/m },
  simulator: { args: () => [], code: 0, shows: new RegExp(`^${LISTENING_LINE}`, 'm'), untilShown: true },
  drift: { args: () => ['history'], code: 0, shows: /^drift: .*history\.html/m },
  judge: { args: (dir) => [join(dir, 'run.har')], prepare: oneExchange, code: 0, shows: /^dialog-contract: pass: /m },
  baseline: { args: () => ['ignored'], code: 2, shows: /^baseline: no fingerprint yet/m },
  acknowledge: {
    args: () => [
      'contract.status_code_conformance getV2Conversations 200 status',
      '--ticket',
      'https://tickets.example/1',
      '--until',
      '2099-12-31',
      '--reason',
      'why',
      // No report or baseline of this machine holds it: a failure CI saw first.
      '--unseen',
    ],
    code: 0,
    shows: /acknowledged\.yaml/,
  },
  'overlay:check': { args: (dir) => [dir], code: 1, shows: /observed\.overlay\.yaml is missing: run npm run contract first/ },
  'load:merge': { args: (dir) => ['--out', dir, join(dir, 'none.json')], code: 2, shows: /^load:merge: .*none\.json/m },
  'load:build': { args: () => [], code: 0, shows: /dist\/load\/list\.js/ },
  'bench:limits': { args: () => [], code: 0, shows: /requests/ },
  graph: { args: () => ['--optional'], code: 0, shows: /^graph: /m },
  lint: { notRun: 'Biome over the whole tree (seconds of CPU); it reads no variable, its help says none (npm test runs it)' },
  'generate:api': { notRun: 'it rewrites openapi/operations.generated.ts, which other unit tests import; it reads no variable' },
  mutation: { notRun: SUITE_RUNS },
  profiles: { notRun: SUITE_RUNS },
  crosscheck: { notRun: SUITE_RUNS },
  'bench:contract': { notRun: 'a benchmark of whole suite runs against the embedded simulator; it reads BENCH_RUNS and the ports only' },
  'bench:staging': { notRun: 'a benchmark of two main-command runs against a simulator and staging network it starts itself; it reads no variable' },
  'bench:mutation': { notRun: `a benchmark of npm run mutation, which ${SUITE_RUNS}` },
  'bench:simulator': { notRun: 'a benchmark of simulators it starts itself; it reads BENCH_SECONDS only' },
};

/** Every variable of .env.example: what a .env may hold. */
const DOTENV_NAMES = [...readFileSync(join(PROJECT_ROOT, '.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);

/** The names a --help lists under Environment ("LOAD_MAX_*" stands for every name it starts). */
function documented(help: string): string[] {
  const section = help.split('\nEnvironment')[1]?.split('\nExit:')[0] ?? '';
  return section.split('\n').flatMap((line) => /^ {2}([A-Z][A-Z0-9_*]*(?:, [A-Z][A-Z0-9_*]*)*)(?: {2,}|$)/.exec(line)?.[1]?.split(', ') ?? []);
}

const covers = (patterns: readonly string[], name: string) => patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : p === name));

/** A variable reported missing: the parser's "NAME is missing", a command's own "needs NAME". */
const MISSING = /\b([A-Z][A-Z0-9_]{2,}) is missing\b|\bneeds ([A-Z][A-Z0-9_]{2,})\b/;

test('every command of package.json has a row: run with only its documented variables, or why it is not', () => {
  const names = commands().map(([name]) => name);
  assert.deepEqual(
    names.filter((name) => !(name in ROWS)),
    [],
    'a command without a row',
  );
  assert.deepEqual(
    Object.keys(ROWS).filter((name) => !names.includes(name)),
    [],
    'a row of no command',
  );
});

test('each command, run with only the variables its --help names, reports none missing and gets to its own work', async () => {
  const { sim, callbackPort } = await startRunSimulator();
  const k6 = mkdtempSync(join(tmpdir(), 'k6-stand-in-'));
  writeFileSync(join(k6, 'k6'), '#!/bin/sh\necho k6 stand-in ran\n');
  chmodSync(join(k6, 'k6'), 0o755);
  try {
    const runs = Object.entries(ROWS).filter((row): row is [string, Run] => !('notRun' in row[1]));
    const problems = await pool(runs, 2, async ([name, run]) => {
      const entry = entryOf(commands().find(([n]) => n === name)![1])!;
      const help = await runEntry(entry, ['--help'], { ...process.env, FORCE_COLOR: '0' });
      const named = documented(help.stdout);
      const dir = mkdtempSync(join(tmpdir(), `command-env-${name.replace(':', '-')}-`));
      mkdirSync(join(dir, 'load'));
      run.prepare?.(dir);
      const values: Record<string, string> = {
        ...simulatorTargetVariables(sim.url, callbackPort, sim.config),
        SIMULATOR_PORT: String(await freePort()),
        REPORTS_DIR: dir,
        LOAD_REPORTS_DIR: join(dir, 'load'),
        ACKNOWLEDGED_FILE: join(dir, 'acknowledged.yaml'),
        LOAD_ALLOW_HOSTS: '127.0.0.1',
      };
      const env: NodeJS.ProcessEnv = {
        PATH: run.k6 ? `${k6}${delimiter}${process.env.PATH}` : process.env.PATH,
        HOME: process.env.HOME,
        FORCE_COLOR: '0',
        // Empty wins over .env (dotenv fills only what the environment lacks) and reads as unset.
        ...Object.fromEntries(DOTENV_NAMES.map((n) => [n, ''])),
        ...Object.fromEntries(Object.entries(values).filter(([n]) => covers(named, n))),
      };
      const ran = await runEntry(entry, run.args(dir), env, run.untilShown ? run.shows : undefined);
      rmSync(dir, { recursive: true, force: true });
      const output = `${ran.stdout}\n${ran.stderr}`;
      const wrong: string[] = [];
      const missing = MISSING.exec(output);
      if (missing) wrong.push(`reports ${missing[1] ?? missing[2]} missing, its help names ${named.join(', ') || 'none'}`);
      if (ran.code !== run.code || !run.shows.test(output)) wrong.push(`exit ${ran.code}, expected ${run.code} and ${run.shows}: ${output.trim().slice(-600)}`);
      return wrong.map((w) => `npm run ${name}: ${w}`);
    });
    assert.deepEqual(problems.flat(), []);
  } finally {
    await sim.close();
    rmSync(k6, { recursive: true, force: true });
  }
});

test('the suite runs a command starts hold every variable the suite requires, whatever the user set', () => {
  for (const profile of listProfiles()) {
    const variables = simulatorTargetVariables('http://127.0.0.1:9', 9, profileConfig(profile));
    const config = parseSuiteConfig(variables, SUITE_ENVIRONMENT);
    assert.equal(config.baseUrl, 'http://127.0.0.1:9', profile);
  }
});
