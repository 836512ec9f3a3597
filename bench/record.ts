// A benchmark's figures are written with the commit they measure: each line is printed and kept in
// reports/bench/NAME.txt under a heading naming the commit (and whether the tree had changes), the date, the cores and
// the load the machine carried, so a figure quoted anywhere can be traced to what and where it measured. The docs
// hold no figure: they point here.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT, REPORTS_DIR } from '../contract/core/env.ts';

const git = (...args: string[]) => spawnSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).stdout.trim();

/** The heading of a benchmark's figures: what was measured, when, and on what. */
export function benchHeading(name: string): string {
  const commit = git('rev-parse', '--short', 'HEAD') || 'no commit';
  const dirty = git('status', '--porcelain', '--untracked-files=no') ? ' with uncommitted changes' : '';
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  return `# ${name} at ${commit}${dirty}, ${new Date().toISOString()}, ${availableParallelism()} cores, load ${load}`;
}

/** Prints a benchmark's figure and keeps it under its heading in reports/bench/NAME.txt. */
export function benchFigures(name: string): (line: string) => void {
  const file = join(REPORTS_DIR, 'bench', `${name}.txt`);
  let headed = false;
  return (line) => {
    console.log(line);
    if (!headed) {
      mkdirSync(join(REPORTS_DIR, 'bench'), { recursive: true });
      appendFileSync(file, `\n${benchHeading(name)}\n`);
      headed = true;
    }
    appendFileSync(file, `${line}\n`);
  };
}
