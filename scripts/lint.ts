// `npm run lint [-- --write]`: Biome's linter and formatter over every TypeScript file of the project, configured once
// in biome.json. Biome runs as WebAssembly through its JS API (@biomejs/js-api, @biomejs/wasm-nodejs): its command
// line ships as per-platform binaries, and a registry that lacks one platform's makes `npm ci` fail everywhere.
// ESLint with typescript-eslint is not used: it needs the TypeScript compiler's JS API, which TypeScript 7 has not.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Biome } from '@biomejs/js-api/nodejs';
import type { Configuration, Diagnostic } from '@biomejs/wasm-nodejs';
import { commandLineOrExit } from '../config/command-line.ts';
import { PROJECT_ROOT } from '../contract/core/env.ts';

const { values } = commandLineOrExit(
  {
    script: 'lint',
    usage: ['[--write]'],
    summary:
      "Biome's recommended lint rules and its formatting over every TypeScript file git knows (tracked, or new and not\n" +
      'ignored), as biome.json configures them; one line per finding: FILE:LINE:COLUMN rule: what.',
    options: { write: { type: 'boolean', description: 'format the files that are not (lint findings stay for a person to fix)', env: 'npm run format' } },
    environment: [],
    exit: '0 clean; 1 a lint finding or a file not formatted (npm run format writes it); 2 bad input.',
    examples: ['npm run lint', 'npm run format'],
  },
  process.argv.slice(2),
);

const biome = new Biome();
const { projectKey } = biome.openProject(PROJECT_ROOT);
biome.applyConfiguration(projectKey, JSON.parse(readFileSync(join(PROJECT_ROOT, 'biome.json'), 'utf8')) as Configuration);

// The files git knows, so reports, builds and dependencies are never read: the same list on a fresh clone.
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.cjs'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

let findings = 0;
let written = 0;
/** One line per finding: FILE:LINE:COLUMN category: what. Biome's information-level hints (assists) are not findings. */
const show = (file: string, source: string, diagnostics: readonly Diagnostic[]) => {
  for (const d of diagnostics) {
    if (d.severity === 'information' || d.severity === 'hint') continue;
    findings++;
    const before = source.slice(0, d.location.span?.[0] ?? 0).split('\n');
    console.log(`${file}:${before.length}:${(before.at(-1)?.length ?? 0) + 1} ${d.category ?? 'biome'}: ${d.description}`);
  }
};
for (const file of files) {
  const path = join(PROJECT_ROOT, file);
  const source = readFileSync(path, 'utf8');
  const formatted = biome.formatContent(projectKey, source, { filePath: file });
  show(file, source, [...biome.lintContent(projectKey, source, { filePath: file }).diagnostics, ...formatted.diagnostics]);
  if (formatted.content === source) continue;
  if (values.write) {
    writeFileSync(path, formatted.content);
    written++;
  } else {
    findings++;
    console.log(`${file}: not formatted (npm run format writes it)`);
  }
}
console.log(`lint: ${files.length} files, ${findings} finding${findings === 1 ? '' : 's'}${values.write ? `, ${written} written` : ''}`);
process.exit(findings > 0 ? 1 : 0);
