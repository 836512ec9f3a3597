// `npm run bench:contract`: wall time of the main command (the whole contract suite against the simulator, every
// reporter) next to the floor, an empty Playwright run with the same configuration (goal: within 3.5× the floor),
// median of pairs run back to back; then where each one's time goes, part by part (bench/run-split.ts), from what
// the runs journalled (contract/core/run-timing.ts), and which of their processes spent their CPU (bench/process-cpu.ts);
// then the main command's CPU against the same run without its generated inputs, at one seed (goal: at most 25% more).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commandLineOrExit } from '../config/command-line.ts';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { readTiming } from '../contract/core/run-timing.ts';
import { benchFigures } from './record.ts';
import { medianSplit, runSplit, splitTable, splitTotal, type SplitPart } from './run-split.ts';
import { cpuByRole, PROCESS_ROLES, type ProcessCpu, type ProcessRole } from './process-cpu.ts';

const figure = benchFigures('contract');

/** The goal of issue 49: the main command within this many times the empty run. */
const RATIO_GOAL = 3.5;
/** The goal of issue 47: the generated inputs add at most this share of the main command's CPU. */
const GENERATED_GOAL = 0.25;

commandLineOrExit({
  script: 'bench:contract',
  usage: [''],
  summary:
    'Prints the wall time of the main command (the contract suite against the embedded simulator, every reporter)\n' +
    `next to the floor, an empty Playwright run of the same configuration (goal: the suite within ${RATIO_GOAL}x the floor),\n` +
    'median of BENCH_RUNS pairs run back to back, then where the time of each goes, part by part: process start,\n' +
    "global setup, worker start and fixtures, the tests, the run's end, and the CPU each of their processes spent; then\n" +
    `the main command's CPU against the same run without its generated inputs, at one seed (goal: at most\n` +
    `+${GENERATED_GOAL * 100}%). Figures only: it fails only when a run fails.`,
  options: {},
  environment: [
    ['BENCH_RUNS', 'pairs of runs to take the median of (default: 3)'],
    ['SEED', 'the seed of the generated inputs in every run (default: 1)'],
    ['SIMULATOR_PORT, CALLBACK_PORT', "the embedded simulator's ports (default: 4010, 4011)"],
  ],
  exit: '0 figures printed; 1 a run failed; 2 bad input.',
  examples: ['BENCH_RUNS=5 npm run bench:contract'],
});

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const runs = Number(process.env.BENCH_RUNS ?? 3);
// One seed for every run: its generated inputs (and their long texts) are the same in each.
const SEEDED = { SEED: process.env.SEED ?? '1' };

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, from /proc/self/stat
 * (cutime, cstime, in clock ticks of 1/100 s): the machine is shared, so what a run costs is its CPU, not its wall
 * time. Undefined where there is no /proc.
 */
function childrenCpu(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Every process of a measured run writes its CPU at its exit (bench/process-cpu-hook.ts), through NODE_OPTIONS. */
const HOOK = pathToFileURL(join(import.meta.dirname, 'process-cpu-hook.ts')).href;

/** What each process of a run wrote at its exit. */
const processesOf = (file: string): ProcessCpu[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ProcessCpu)
    : [];

/**
 * A command's split, CPU and its processes' CPU: `playwright test ARGS`, or the main command (scripts/contract.ts)
 * with `main`, its journal under `reportsDir`.
 */
function measured(args: string[], reportsDir: string, main = false): { split: SplitPart[]; cpu: number | undefined; processes: ProcessCpu[] } {
  const command = main ? ['--import', 'tsx', 'scripts/contract.ts', ...args] : [cli, 'test', ...args];
  const processCpu = join(mkdtempSync(join(tmpdir(), 'bench-cpu-')), 'processes.jsonl');
  const env = {
    ...process.env,
    ...SEEDED,
    FORCE_COLOR: '0',
    REPORTS_DIR: reportsDir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${HOOK}`.trim(),
    BENCH_PROCESS_CPU: processCpu,
  };
  const cpuBefore = childrenCpu();
  const startedAt = Date.now();
  const result = spawnSync(process.execPath, command, { stdio: 'ignore', env });
  const endedAt = Date.now();
  if (result.status !== 0) throw new Error(`${main ? 'npm run contract --' : 'playwright test'} ${args.join(' ')} exited with ${result.status}`);
  const cpuAfter = childrenCpu();
  return {
    split: runSplit(startedAt, endedAt, readTiming(reportsDir)),
    cpu: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined,
    processes: processesOf(processCpu),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const empty: Array<ReturnType<typeof measured>> = [];
const suite: Array<ReturnType<typeof measured>> = [];
// The same run without the generated inputs (contract/probes/generated-inputs.spec.ts), in turn with the whole one, so
// both meet the same load: what they add is issue 47's budget.
const without: Array<ReturnType<typeof measured>> = [];
for (let i = 0; i < runs; i++) {
  empty.push(measured(['--config', 'bench/playwright.empty.config.ts'], mkdtempSync(join(tmpdir(), 'bench-empty-'))));
  suite.push(measured([], REPORTS_DIR, true));
  without.push(measured(['--grep-invert', 'generated inputs'], mkdtempSync(join(tmpdir(), 'bench-without-')), true));
}
const e = median(empty.map((r) => splitTotal(r.split)));
const m = median(suite.map((r) => splitTotal(r.split)));
figure(
  `main command ${m.toFixed(1)} s, empty Playwright run ${e.toFixed(1)} s: ratio ${(m / e).toFixed(2)} (goal ≤ ${RATIO_GOAL}); medians of ${runs} pairs run back to back`,
);
figure(`where the time goes, each part the median of its ${runs} (seconds; the parts of a run add up to its total):`);
for (const row of splitTable(['main', 'empty'], medianSplit(suite.map((r) => r.split)), medianSplit(empty.map((r) => r.split)))) figure(row);
/** Each role's CPU in a run, and its processes, the median of the runs (a role a run did not have counts 0). */
const byRole = (of: typeof suite, role: ProcessRole) => {
  const rows = of.map((r) => cpuByRole(r.processes).find((x) => x.role === role) ?? { processes: 0, cpu: 0 });
  return { processes: median(rows.map((x) => x.processes)), cpu: median(rows.map((x) => x.cpu)) };
};
figure(`where the CPU goes, each process's own (user + sys) at its exit, the median of the ${runs} (seconds):`);
figure(`${'process'.padEnd(28)}${'main'.padStart(14)}${'empty'.padStart(14)}`);
for (const role of PROCESS_ROLES) {
  const [ofMain, ofEmpty] = [byRole(suite, role), byRole(empty, role)];
  if (ofMain.processes === 0 && ofEmpty.processes === 0) continue;
  const cell = (r: { processes: number; cpu: number }) => (r.processes ? `${r.cpu.toFixed(2)} (${r.processes})` : '-').padStart(14);
  figure(`${role.padEnd(28)}${cell(ofMain)}${cell(ofEmpty)}`);
}
const cpus = (of: typeof suite) => of.map((r) => r.cpu).filter((c): c is number => c !== undefined);
if (cpus(suite).length && cpus(without).length) {
  const [w, wo] = [median(cpus(suite)), median(cpus(without))];
  const ws = median(without.map((r) => splitTotal(r.split)));
  figure(
    `main command CPU (user + sys) ${w.toFixed(1)} s, without the generated inputs ${wo.toFixed(1)} s: +${(((w - wo) / wo) * 100).toFixed(0)}% ` +
      `(wall ${m.toFixed(1)} s against ${ws.toFixed(1)} s: +${(((m - ws) / ws) * 100).toFixed(0)}%; goal ≤ +${GENERATED_GOAL * 100}%), seed ${SEEDED.SEED}, median of ${runs}; load ${loadavg()[0]!.toFixed(2)}`,
  );
}
