// Synchronous HTTP for the k6 stand-in: k6's http.request blocks, Node's fetch does not. A worker thread runs the
// simulator and sends the requests; the main thread waits on a shared buffer (Atomics.wait) for each answer. The
// simulator lives in the worker because the main thread's event loop is blocked while it waits.
import { Worker } from 'node:worker_threads';
import type { SimulatorOptions } from '../../simulator/server.ts';
import type { StubResponse } from './k6-harness.ts';

const CAPACITY = 16 * 1024 * 1024;

export interface SyncHttp {
  /** Base URL of the simulator the worker runs. */
  url: string;
  request(method: string, url: string, body: string | null, headers: Record<string, string>): StubResponse;
  close(): Promise<void>;
}

export async function startSyncHttp(options: SimulatorOptions): Promise<SyncHttp> {
  const shared = new SharedArrayBuffer(8 + CAPACITY);
  const signal = new Int32Array(shared, 0, 2); // [0]: 1 when an answer is ready, [1]: its length in bytes
  const data = new Uint8Array(shared, 8);
  const worker = new Worker(new URL('./sync-http-worker.mjs', import.meta.url), { workerData: { shared, options } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (message: { url: string }) => resolve(message.url));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the sync-http worker exited with code ${code} before it was ready`)));
  });
  return {
    url,
    request(method, target, body, headers) {
      Atomics.store(signal, 0, 0);
      worker.postMessage({ method, url: target, body, headers });
      if (Atomics.wait(signal, 0, 0, 30_000) === 'timed-out') throw new Error(`no answer to ${method} ${target} within 30 s`);
      return JSON.parse(new TextDecoder().decode(data.slice(0, Atomics.load(signal, 1)))) as StubResponse;
    },
    async close() {
      await worker.terminate();
    },
  };
}
