// npm run graph: the module graph folder by folder (dependency-cruiser's dot output, drawn by Graphviz's dot) as
// reports/architecture.svg; the folders and what each may import are .dependency-cruiser.cjs's.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT, REPORTS_DIR } from '../contract/env.ts';

const fail = (line: string): never => {
  console.error(`graph: ${line}`);
  process.exit(1);
};

if (spawnSync('dot', ['-V']).error) fail('Graphviz\'s dot is not installed: apt-get install graphviz (bash .ci/run installs it)');
const depcruise = join(PROJECT_ROOT, 'node_modules', '.bin', 'depcruise');
const cruise = spawnSync(depcruise, ['.', '--output-type', 'dot'], { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
if (cruise.status !== 0) fail(`dependency-cruiser failed: ${(cruise.stderr || cruise.stdout).trim().split('\n')[0]}`);
mkdirSync(REPORTS_DIR, { recursive: true });
const out = join(REPORTS_DIR, 'architecture.svg');
const draw = spawnSync('dot', ['-Tsvg', '-o', out], { input: cruise.stdout, encoding: 'utf8' });
if (draw.status !== 0) fail(`dot failed: ${draw.stderr.trim().split('\n')[0]}`);
console.log(`graph: ${relative(process.cwd(), out)}`);
