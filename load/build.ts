// npm run load:build: bundles each k6 script into dist/load/<script>.js: an ES module for target es2017 (older k6
// runtimes reject newer syntax), k6 and k6/* left external, nothing from Node. The generated:* modules are filled
// here, in Node: the OpenAPI document's operations and envelopes, the faker-made test data and the suite's version.
import { build, type Plugin } from 'esbuild';
import { commandLineOrExit } from '../config/command-line.ts';
import { renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suiteVersion } from '../config/suite-version.ts';
import { envelopeShapes, operationsTable } from './openapi-data.ts';
import { makeTestData } from './test-data.ts';

export const SCRIPTS = ['list', 'send', 'rate-limit', 'size-limits'] as const;
export type ScriptName = (typeof SCRIPTS)[number];

export const DIST_DIR = fileURLToPath(new URL('../dist/load/', import.meta.url));
const SCRIPTS_DIR = fileURLToPath(new URL('./scripts/', import.meta.url));

function generatedModules(): Plugin {
  const modules: Record<string, unknown> = {
    'generated:api': { operations: operationsTable(), envelopes: envelopeShapes() },
    'generated:data': makeTestData(),
    // The suite's version, for the run block of a bundle's findings: k6 reads no package.json.
    'generated:suite': { version: suiteVersion() },
  };
  return {
    name: 'generated-modules',
    setup(b) {
      b.onResolve({ filter: /^generated:/ }, (args) => ({ path: args.path, namespace: 'generated' }));
      b.onLoad({ filter: /.*/, namespace: 'generated' }, (args) =>
        args.path in modules
          ? { contents: JSON.stringify(modules[args.path]), loader: 'json' }
          : { errors: [{ text: `no generated module ${args.path} (known: ${Object.keys(modules).join(', ')})` }] },
      );
    },
  };
}

/** Builds every bundle; returns each bundle's path and size in bytes. */
export async function buildBundles(outdir = DIST_DIR): Promise<Record<ScriptName, { file: string; bytes: number }>> {
  // Built aside and renamed into place: a k6 started by another load run (runs go side by side) never reads a
  // bundle half written.
  const aside = join(outdir, `.build-${process.pid}`);
  try {
    return await buildAside(aside, outdir);
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

async function buildAside(aside: string, outdir: string): Promise<Record<ScriptName, { file: string; bytes: number }>> {
  await build({
    entryPoints: SCRIPTS.map((name) => ({ in: join(SCRIPTS_DIR, `${name}.ts`), out: name })),
    outdir: aside,
    bundle: true,
    format: 'esm',
    target: 'es2017',
    platform: 'neutral',
    external: ['k6', 'k6/*'],
    plugins: [generatedModules()],
    legalComments: 'none',
    logLevel: 'error',
  });
  const out = {} as Record<ScriptName, { file: string; bytes: number }>;
  for (const name of SCRIPTS) {
    const file = join(outdir, `${name}.js`);
    renameSync(join(aside, `${name}.js`), file);
    out[name] = { file, bytes: statSync(file).size };
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  commandLineOrExit({
    script: 'load:build',
    usage: [''],
    summary: 'Bundles each k6 script into dist/load/SCRIPT.js (what `npm run load` runs and a k6-operator ConfigMap serves) and prints their sizes.',
    options: {},
    environment: [],
    exit: '0 built; 1 a bundle failed to build (esbuild says why).',
    examples: ['npm run load:build && kubectl create configmap dialog-load --from-file=dist/load/'],
  });
  const bundles = await buildBundles();
  for (const [name, { file, bytes }] of Object.entries(bundles)) console.log(`${name.padEnd(12)} ${(bytes / 1024).toFixed(1).padStart(6)} KiB  ${file}`);
}
