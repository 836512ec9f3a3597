// `npm run bench:contract`: wall time of the whole contract suite against the simulator next to the floor, an
// empty Playwright run with the same configuration (goal: the suite within 3× the floor).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const runs = Number(process.env.BENCH_RUNS ?? 3);

function wall(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, 'test', ...args], { stdio: 'ignore', env: { ...process.env, FORCE_COLOR: '0' } });
  if (result.status !== 0) throw new Error(`playwright test ${args.join(' ')} exited with ${result.status}`);
  return (performance.now() - started) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor: number[] = [];
const suite: number[] = [];
for (let i = 0; i < runs; i++) {
  floor.push(wall(['--config', 'bench/playwright.empty.config.ts']));
  suite.push(wall(['--reporter=dot']));
}
const f = median(floor);
const s = median(suite);
console.log(`contract suite ${s.toFixed(1)} s, empty run ${f.toFixed(1)} s, ratio ${(s / f).toFixed(2)} (goal ≤ 3); median of ${runs}`);
