// `npm run bench:contract`: wall time of the main command (the whole contract suite against the simulator, every
// reporter) next to the floor, an empty Playwright run with the same configuration (goal: within 3× the floor), its CPU
// against the same run without the generated inputs (goal: at most 25% more), then the profile of one more run: when
// each project's worker ran its tests, and the time before the first test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { commandLineOrExit } from '../config/command-line.ts';
import { benchFigures } from './record.ts';

const figure = benchFigures('contract');

commandLineOrExit({
  script: 'bench:contract',
  usage: [''],
  summary:
    'Prints the wall time of the main command (the contract suite against the embedded simulator, every reporter)\n' +
    'next to the floor, an empty\n' +
    'Playwright run of the same configuration (goal: the suite within 3x the floor), median of BENCH_RUNS pairs, then\n' +
    "when each project's worker ran its tests in one more run. Figures only: it fails only when a run fails.",
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

/** Seconds a command takes, wall and CPU: `playwright test ARGS`, or the main command (scripts/contract.ts) with `main`. */
function timed(args: string[], env: Record<string, string> = {}, main = false): { wall: number; cpu: number | undefined } {
  const started = performance.now();
  const cpuBefore = childrenCpu();
  const command = main ? ['--import', 'tsx', 'scripts/contract.ts', ...args] : [cli, 'test', ...args];
  const result = spawnSync(process.execPath, command, { stdio: 'ignore', env: { ...process.env, FORCE_COLOR: '0', ...env } });
  if (result.status !== 0) throw new Error(`${main ? 'npm run contract --' : 'playwright test'} ${args.join(' ')} exited with ${result.status}`);
  const cpuAfter = childrenCpu();
  return { wall: (performance.now() - started) / 1000, cpu: cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined };
}
const wall = (args: string[], env: Record<string, string> = {}, main = false): number => timed(args, env, main).wall;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// One seed for every run: its generated inputs (and their long texts) are the same in each.
const seeded = { SEED: process.env.SEED ?? '1' };
const floor: number[] = [];
const suite: Array<{ wall: number; cpu: number | undefined }> = [];
// The same run without the generated inputs (contract/probes/generated-inputs.spec.ts), in turn with the whole one, so
// both meet the same load: what they add is the budget (at most 25% of the main command).
const without: Array<{ wall: number; cpu: number | undefined }> = [];
for (let i = 0; i < runs; i++) {
  floor.push(wall(['--config', 'bench/playwright.empty.config.ts']));
  suite.push(timed([], seeded, true));
  without.push(timed(['--grep-invert', 'generated inputs'], seeded, true));
}
const f = median(floor);
const s = median(suite.map((r) => r.wall));
figure(`main command ${s.toFixed(1)} s, empty run ${f.toFixed(1)} s, ratio ${(s / f).toFixed(2)} (goal ≤ 3); median of ${runs}`);
const cpus = (of: typeof suite) => of.map((r) => r.cpu).filter((c): c is number => c !== undefined);
if (cpus(suite).length && cpus(without).length) {
  const [w, wo] = [median(cpus(suite)), median(cpus(without))];
  const ws = median(without.map((r) => r.wall));
  figure(
    `main command CPU (user + sys) ${w.toFixed(1)} s, without the generated inputs ${wo.toFixed(1)} s: +${(((w - wo) / wo) * 100).toFixed(0)}% ` +
      `(wall ${s.toFixed(1)} s against ${ws.toFixed(1)} s: +${(((s - ws) / ws) * 100).toFixed(0)}%; goal ≤ +25%), seed ${seeded.SEED}, median of ${runs}; load ${loadavg()[0]!.toFixed(2)}`,
  );
}

interface JsonSuite {
  specs?: Array<{ tests: Array<{ projectName: string; results: Array<{ startTime: string; duration: number }> }> }>;
  suites?: JsonSuite[];
}

// The profile: one span per project (its worker), from its first test's start to its last test's end.
const json = join(mkdtempSync(join(tmpdir(), 'bench-contract-')), 'results.json');
wall(['--reporter=json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: json });
const report = JSON.parse(readFileSync(json, 'utf8')) as { suites: JsonSuite[]; stats: { startTime: string; duration: number } };
const spans = new Map<string, { from: number; to: number; tests: number; busy: number }>();
const walk = (suite: JsonSuite) => {
  for (const t of (suite.specs ?? []).flatMap((spec) => spec.tests)) {
    for (const r of t.results) {
      const from = Date.parse(r.startTime) - Date.parse(report.stats.startTime);
      const span = spans.get(t.projectName) ?? { from, to: from, tests: 0, busy: 0 };
      spans.set(t.projectName, {
        from: Math.min(span.from, from),
        to: Math.max(span.to, from + r.duration),
        tests: span.tests + 1,
        busy: span.busy + r.duration,
      });
    }
  }
  suite.suites?.forEach(walk);
};
report.suites.forEach(walk);
const ordered = [...spans.entries()].sort((a, b) => a[1].from - b[1].from);
const gaps = ordered.slice(1).reduce((sum, [, span], i) => sum + Math.max(0, span.from - ordered[i]![1].to), 0);
const sec = (ms: number) => (ms / 1000).toFixed(1);
figure(
  `profile: ${sec(report.stats.duration)} s; before the first test ${sec(ordered[0]?.[1].from ?? 0)} s, between projects ${sec(gaps)} s; ` +
    ordered.map(([name, span]) => `${name} ${sec(span.to - span.from)} s (${span.tests} tests, ${sec(span.busy)} s in tests)`).join(', '),
);
