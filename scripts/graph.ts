// npm run graph [-- --optional]: the module graph folder by folder (dependency-cruiser's dot output, drawn by Graphviz's dot) as
// reports/architecture.svg; the folders and what each may import are .dependency-cruiser.cjs's.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commandLineOrExit, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { PROJECT_ROOT, REPORTS_DIR } from '../contract/core/env.ts';

const fail = (line: string): never => {
  console.error(`graph: ${line}`);
  process.exit(1);
};

const { values } = commandLineOrExit({
  script: 'graph',
  usage: ['[--optional]'],
  summary:
    "The module graph, folder by folder, as reports/architecture.svg: dependency-cruiser's dot output of the import rules\n" +
    "in .dependency-cruiser.cjs, drawn by Graphviz's dot (apt-get install graphviz).",
  options: {
    // npm test: without Graphviz the graph is skipped with a line, as the browser check is without chromium.
    optional: { type: 'boolean', description: 'without Graphviz, skip with a line and exit 0 (npm test uses it)' },
  },
  environment: [REPORTS_DIR_ENV],
  exit: '0 drawn (or skipped with --optional); 1 Graphviz missing, or dependency-cruiser or dot failed; 2 bad input.',
  examples: ['npm run graph && xdg-open reports/architecture.svg'],
});
const optional = values.optional === true;
if (spawnSync('dot', ['-V']).error) {
  const line = "Graphviz's dot is not installed: apt-get install graphviz (bash .ci/run installs it)";
  if (!optional) fail(line);
  console.log(`graph: skipped: ${line}`);
  process.exit(0);
}
const depcruise = join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise');
const cruise = spawnSync(depcruise, ['.', '--output-type', 'dot'], { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
if (cruise.status !== 0) fail(`dependency-cruiser failed: ${(cruise.stderr || cruise.stdout).trim().split('\n')[0]}`);
mkdirSync(REPORTS_DIR, { recursive: true });
const out = join(REPORTS_DIR, 'architecture.svg');
const draw = spawnSync('dot', ['-Tsvg', '-o', out], { input: cruise.stdout, encoding: 'utf8' });
if (draw.status !== 0) fail(`dot failed: ${draw.stderr.trim().split('\n')[0]}`);
console.log(`graph: ${relative(process.cwd(), out)}`);
