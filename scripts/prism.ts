// Stoplight Prism (npm @stoplight/prism-cli) started on a document: the validating proxy of the cross-check and the
// mock server of the learned document. Prism matches paths literally and ignores the servers' base path, so it gets
// the document with every path under /api, as the suite addresses them.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Document } from '../openapi/document.ts';
import { freePort } from '../config/free-port.ts';

const PRISM = join(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'), '..', 'dist', 'index.js');

export interface RunningPrism {
  url: string;
  /** Everything Prism printed so far. */
  log(): string;
  /**
   * Resolves once its output matches `pattern` (a line it prints after the answer it belongs to, whose chunk may
   * arrive later); rejects with the output's last lines when it does not within `timeoutMs`, or Prism exits first.
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Stops Prism; resolves with everything it printed, its output read to the end. */
  stop(): Promise<string>;
}

/** `prism mock FILE` or `prism proxy FILE UPSTREAM`, with the document written under `dir`; resolves once it listens. */
export async function startPrism(mode: 'mock' | 'proxy', document: Document, dir: string, upstream?: string): Promise<RunningPrism> {
  const port = await freePort();
  // A file per Prism: it reloads when its file changes, so two of them must not share one.
  const file = join(dir, `openapi-under-api.${mode}.${port}.yaml`);
  writeFileSync(file, stringify({ ...document, paths: Object.fromEntries(Object.entries(document.paths ?? {}).map(([p, item]) => [`/api${p}`, item])) }));
  const prism = spawn(process.execPath, [PRISM, mode, file, ...(upstream ? [upstream] : []), '-p', String(port), '-h', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const output = new EventEmitter();
  const append = (c: Buffer) => {
    log += c.toString();
    output.emit('data');
  };
  prism.stdout.on('data', append);
  prism.stderr.on('data', append);
  // 'close': the process has exited and both streams are read to their end.
  const closed = new Promise<void>((resolve) =>
    prism.once('close', () => {
      output.emit('data');
      resolve();
    }),
  );
  const waitFor = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(log)) done(resolve);
        else if (prism.exitCode !== null || prism.signalCode !== null)
          done(() => reject(new Error(`Prism exited (${prism.exitCode ?? prism.signalCode}) before printing ${pattern}: ${tail()}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`Prism printed no ${pattern} within ${timeoutMs} ms: ${tail()}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        output.off('data', check);
        settle();
      };
      output.on('data', check);
      check();
    });
  const tail = () => log.trim().split('\n').slice(-3).join(' | ');
  try {
    await waitFor(/Prism is listening/, 60_000);
  } catch (err) {
    prism.kill('SIGTERM');
    throw new Error(`Prism did not start: ${(err as Error).message}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    waitFor,
    stop: async () => {
      prism.kill('SIGTERM');
      await closed;
      return log;
    },
  };
}
