// `npm run bench:mutation`: wall time of the whole mutation run (goal: 150 s on 2 cores), what it spends (suite runs,
// CPU seconds of the run and every process it started), and where one suite run's share of the wall time goes, part by
// part (bench/run-split.ts), beside an empty Playwright run measured in the same call. It prints figures; it is not a
// timed test. BENCH_MUTATION_ONLY=a,b narrows it to some drifts (the conforming run always runs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { readTiming } from '../contract/core/run-timing.ts';
import { commandLineOrExit, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { benchFigures } from './record.ts';
import { perRunSplit, runSplit, splitTable, splitTotal } from './run-split.ts';

const figure = benchFigures('mutation');
const GOAL_SECONDS = 150;

commandLineOrExit({
  script: 'bench:mutation',
  usage: [''],
  summary:
    `Prints the wall time of a fresh npm run mutation (goal: ${GOAL_SECONDS} s on 2 cores) and what it spends: suite runs, the CPU\n` +
    "seconds of the run and every process it started, and where one suite run's share of the wall time goes, part by\n" +
    'part, beside an empty Playwright run measured in the same call. Figures only.',
  options: {},
  environment: [['BENCH_MUTATION_ONLY', 'a,b: only these drifts (the conforming run always runs)'], REPORTS_DIR_ENV],
  exit: '0 figures printed; 1 the mutation run failed or wrote no report; 2 bad input.',
  examples: ['BENCH_MUTATION_ONLY=meta-missing npm run bench:mutation'],
});

const only = process.env.BENCH_MUTATION_ONLY;
const reportFile = join(REPORTS_DIR, 'mutation.json');
// Figures only from this run: an earlier report must not stand in for a run that failed.
rmSync(reportFile, { force: true });

// The floor: an empty Playwright run of the suite's configuration, its split journalled in a folder of its own.
const emptyDir = mkdtempSync(join(tmpdir(), 'bench-empty-'));
const emptyFrom = Date.now();
const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const emptyRun = spawnSync(process.execPath, [cli, 'test', '--config', 'bench/playwright.empty.config.ts'], {
  stdio: 'ignore',
  env: { ...process.env, FORCE_COLOR: '0', REPORTS_DIR: emptyDir },
});
if (emptyRun.status !== 0) throw new Error(`the empty Playwright run exited with ${emptyRun.status}`);
const empty = runSplit(emptyFrom, Date.now(), readTiming(emptyDir));

const started = Date.now();
// Through a shell's `times`: the CPU of the mutation run and every process it started (Playwright, workers).
const script = `node --import tsx scripts/mutation.ts ${only ? `--only ${only}` : ''} > /dev/null 2>&1; code=$?; times; exit $code`;
const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
const ended = Date.now();
const wall = (ended - started) / 1000;
const [, children = ''] = result.stdout.trim().split('\n');
const seconds = (text: string) =>
  text
    .split(/\s+/)
    .map((t) => /(\d+)m([\d.]+)s/.exec(t))
    .reduce((sum, m) => sum + (m ? Number(m[1]) * 60 + Number(m[2]) : 0), 0);
if (!existsSync(reportFile)) {
  console.error(`bench:mutation: the mutation run wrote no report (exit ${result.status}): run npm run mutation${only ? ` -- --only ${only}` : ''} to see why`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { rows: Array<{ seconds: number }>; scoreLine: string };
const runsDir = join(REPORTS_DIR, 'mutation');
// This invocation's runs: folders of runs not in it may be left from an earlier one.
const journals = readdirSync(runsDir)
  .map((run) => readTiming(join(runsDir, run)))
  .filter((records) => records.some((r) => r.from >= started));
const n = report.rows.length;
figure(
  `mutation: ${n} suite runs in ${wall.toFixed(0)} s wall (goal ≤ ${GOAL_SECONDS} s), ${(wall / n).toFixed(2)} s per run, ${seconds(children).toFixed(0)} CPU s in all (${(seconds(children) / n).toFixed(2)} per run); exit ${result.status}`,
);
figure(report.scoreLine);
const perRun = perRunSplit(started, ended, journals);
figure(
  `where one suite run's share of the wall time goes (seconds: each part of the invocation's wall time over its ${n} runs), beside an empty Playwright run's whole parts:`,
);
for (const row of splitTable(['per run', 'empty'], perRun, empty)) figure(row);
figure(`(per-run parts add up to ${splitTotal(perRun).toFixed(2)} s, the wall time over the runs)`);
