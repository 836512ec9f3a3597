// `npm run bench:contract`: wall time of the main command (the whole contract suite against the simulator, every
// reporter) next to the floor, an empty Playwright run with the same configuration (goal: within 3.5× the floor),
// median of pairs run back to back; then where each one's time goes, part by part (bench/run-split.ts), from what
// the runs journalled (contract/core/run-timing.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineOrExit } from '../config/command-line.ts';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { readTiming } from '../contract/core/run-timing.ts';
import { benchFigures } from './record.ts';
import { medianSplit, runSplit, splitTable, splitTotal, type SplitPart } from './run-split.ts';

const figure = benchFigures('contract');

/** The goal of issue 49: the main command within this many times the empty run. */
const RATIO_GOAL = 3.5;

commandLineOrExit({
  script: 'bench:contract',
  usage: [''],
  summary:
    'Prints the wall time of the main command (the contract suite against the embedded simulator, every reporter)\n' +
    `next to the floor, an empty Playwright run of the same configuration (goal: the suite within ${RATIO_GOAL}x the floor),\n` +
    'median of BENCH_RUNS pairs run back to back, then where the time of each goes, part by part: process start,\n' +
    "global setup, worker start and fixtures, the tests, the run's end. Figures only: it fails only when a run fails.",
  options: {},
  environment: [
    ['BENCH_RUNS', 'pairs of runs to take the median of (default: 3)'],
    ['SIMULATOR_PORT, CALLBACK_PORT', "the embedded simulator's ports (default: 4010, 4011)"],
  ],
  exit: '0 figures printed; 1 a run failed; 2 bad input.',
  examples: ['BENCH_RUNS=5 npm run bench:contract'],
});

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const runs = Number(process.env.BENCH_RUNS ?? 3);

/** A command's split: `playwright test ARGS`, or the main command (scripts/contract.ts) with `main`, its journal under `reportsDir`. */
function splitOf(args: string[], reportsDir: string, main = false): SplitPart[] {
  const command = main ? ['--import', 'tsx', 'scripts/contract.ts', ...args] : [cli, 'test', ...args];
  const startedAt = Date.now();
  const result = spawnSync(process.execPath, command, { stdio: 'ignore', env: { ...process.env, FORCE_COLOR: '0', REPORTS_DIR: reportsDir } });
  const endedAt = Date.now();
  if (result.status !== 0) throw new Error(`${main ? 'npm run contract --' : 'playwright test'} ${args.join(' ')} exited with ${result.status}`);
  return runSplit(startedAt, endedAt, readTiming(reportsDir));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const empty: SplitPart[][] = [];
const suite: SplitPart[][] = [];
for (let i = 0; i < runs; i++) {
  empty.push(splitOf(['--config', 'bench/playwright.empty.config.ts'], mkdtempSync(join(tmpdir(), 'bench-empty-'))));
  suite.push(splitOf([], REPORTS_DIR, true));
}
const e = median(empty.map(splitTotal));
const m = median(suite.map(splitTotal));
figure(
  `main command ${m.toFixed(1)} s, empty Playwright run ${e.toFixed(1)} s: ratio ${(m / e).toFixed(2)} (goal ≤ ${RATIO_GOAL}); medians of ${runs} pairs run back to back`,
);
figure(`where the time goes, each part the median of its ${runs} (seconds; the parts of a run add up to its total):`);
for (const row of splitTable(['main', 'empty'], medianSplit(suite), medianSplit(empty))) figure(row);
