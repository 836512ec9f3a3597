// `npm run bench:mutation`: wall time of the whole mutation run (goal: 150 s on 2 cores) and what it spends, from a
// fresh run: suite runs, seconds per run, and the CPU seconds of the run and all its children. It prints figures;
// it is not a timed test. BENCH_MUTATION_ONLY=a,b narrows it to some drifts (the conforming run always runs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { commandLineOrExit, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { benchFigures } from './record.ts';

const figure = benchFigures('mutation');

commandLineOrExit({
  script: 'bench:mutation',
  usage: [''],
  summary:
    'Prints the wall time of a fresh npm run mutation (goal: 150 s on 2 cores) and what it spends: suite runs, seconds\n' +
    'per run, and the CPU seconds of the run and every process it started. Figures only.',
  options: {},
  environment: [['BENCH_MUTATION_ONLY', 'a,b: only these drifts (the conforming run always runs)'], REPORTS_DIR_ENV],
  exit: '0 figures printed; 1 the mutation run failed or wrote no report; 2 bad input.',
  examples: ['BENCH_MUTATION_ONLY=meta-missing npm run bench:mutation'],
});

const only = process.env.BENCH_MUTATION_ONLY;
const reportFile = join(REPORTS_DIR, 'mutation.json');
// Figures only from this run: an earlier report must not stand in for a run that failed.
rmSync(reportFile, { force: true });
const started = performance.now();
// Through a shell's `times`: the CPU of the mutation run and every process it started (Playwright, workers).
const script = `node --import tsx scripts/mutation.ts ${only ? `--only ${only}` : ''} > /dev/null 2>&1; code=$?; times; exit $code`;
const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
const wall = (performance.now() - started) / 1000;
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
const perRun = report.rows.map((r) => r.seconds);
const mean = perRun.reduce((a, b) => a + b, 0) / perRun.length;
figure(
  `mutation: ${report.rows.length} suite runs in ${wall.toFixed(0)} s wall (goal ≤ 150 s), ${mean.toFixed(1)} s of tests per run, ${seconds(children).toFixed(0)} CPU s in all; exit ${result.status}`,
);
figure(report.scoreLine);
