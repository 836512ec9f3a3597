// Stoplight Prism (npm @stoplight/prism-cli) started on a document: the validating proxy of the cross-check and the
// mock server of the learned document. Prism matches paths literally and ignores the servers' base path, so it gets
// the document with every path under /api, as the suite addresses them.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Document } from '../openapi/document.ts';
import { freePort } from './free-port.ts';

const PRISM = join(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'), '..', 'dist', 'index.js');

export interface RunningPrism {
  url: string;
  /** Everything Prism printed so far. */
  log(): string;
  stop(): void;
}

/** `prism mock FILE` or `prism proxy FILE UPSTREAM`, with the document written under `dir`; resolves once it listens. */
export async function startPrism(mode: 'mock' | 'proxy', document: Document, dir: string, upstream?: string): Promise<RunningPrism> {
  const port = await freePort();
  // A file per Prism: it reloads when its file changes, so two of them must not share one.
  const file = join(dir, `openapi-under-api.${mode}.${port}.yaml`);
  writeFileSync(file, stringify({ ...document, paths: Object.fromEntries(Object.entries(document.paths ?? {}).map(([p, item]) => [`/api${p}`, item])) }));
  const prism = spawn(process.execPath, [PRISM, mode, file, ...(upstream ? [upstream] : []), '-p', String(port), '-h', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  prism.stdout.on('data', (c: Buffer) => (log += c.toString()));
  prism.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const deadline = Date.now() + 60_000;
  while (!/Prism is listening/.test(log)) {
    if (prism.exitCode !== null || Date.now() > deadline) {
      prism.kill('SIGTERM');
      throw new Error(`Prism did not start: ${log.trim().split('\n').slice(-3).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, log: () => log, stop: () => prism.kill('SIGTERM') };
}
