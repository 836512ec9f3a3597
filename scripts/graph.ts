// npm run graph [-- --optional]: the module graph folder by folder (dependency-cruiser's dot output, drawn by Graphviz's dot) as
// reports/architecture.svg; the folders and what each may import are .dependency-cruiser.cjs's.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT, REPORTS_DIR } from '../contract/env.ts';

const fail = (line: string): never => {
  console.error(`graph: ${line}`);
  process.exit(1);
};

// --optional (npm test): without Graphviz the graph is skipped with a line, as the browser check is without chromium.
const optional = process.argv.includes('--optional');
if (process.argv.slice(2).some((a) => a !== '--optional')) fail(`unknown argument ${process.argv.slice(2).find((a) => a !== '--optional')}; usage: npm run graph [-- --optional]`);
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
