// The worker side of sync-http.ts: runs the simulator, answers each request message into the shared buffer.
import { parentPort, workerData } from 'node:worker_threads';
import { startSimulator, type SimulatorOptions } from '../../simulator/server.ts';

const { shared, options } = workerData as { shared: SharedArrayBuffer; options: SimulatorOptions };
const signal = new Int32Array(shared, 0, 2);
const data = new Uint8Array(shared, 8);

const simulator = await startSimulator({ ...options, log: () => {} });
parentPort!.postMessage({ url: simulator.url });

parentPort!.on('message', async (request: { method: string; url: string; body: string | null; headers: Record<string, string> }) => {
  let answer: unknown;
  try {
    const res = await fetch(request.url, { method: request.method, body: request.body ?? undefined, headers: request.headers, redirect: 'manual' });
    answer = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  } catch (error) {
    answer = { status: 0, headers: {}, body: String(error) };
  }
  const bytes = new TextEncoder().encode(JSON.stringify(answer));
  if (bytes.length > data.length) throw new Error(`answer of ${bytes.length} bytes does not fit the shared buffer`);
  data.set(bytes);
  Atomics.store(signal, 1, bytes.length);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
