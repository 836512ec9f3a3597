// Shared by the simulator's tests: a started simulator, a small HTTP client and a custom-block listener.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { seedStore } from './seed.ts';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from './server.ts';
import { Store } from './store.ts';

export const BASIC = `Basic ${Buffer.from(`${DEFAULT_CONFIG.auth.login}:${DEFAULT_CONFIG.auth.password}`).toString('base64')}`;
/** A pinned clock and anchor, so whole sessions are reproducible. */
export const FIXED_NOW = Date.parse('2026-11-20T10:00:00Z');
const ANCHOR = '2026-11-20T00:00:00Z';

export interface Answer {
  status: number;
  contentType: string | null;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

export interface CallOptions {
  /** Authorization header: BASIC by default for V1/V2, none when null. */
  auth?: string | null;
  /** A value to send as JSON, or a raw string/Buffer sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestSimulator extends RunningSimulator {
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Lines the simulator logged. */
  logs: string[];
}

const agent = new Agent({ connections: 32, keepAliveTimeout: 1000 });

export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? (path.startsWith('/api/vertex') ? null : BASIC) : options.auth;
  if (auth !== null) headers.authorization = auth;
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(`${base}${path}`, { method: method as 'GET', headers, body, dispatcher: agent });
  const text = Buffer.from(await res.body.arrayBuffer()).toString('utf8');
  const contentType = res.headers['content-type'];
  return {
    status: res.statusCode,
    contentType: typeof contentType === 'string' ? contentType : null,
    headers: res.headers,
    body: text,
    json: () => JSON.parse(text),
  };
}

export async function simulator(opts: SimulatorOptions = {}): Promise<TestSimulator> {
  const logs: string[] = [];
  const sim = await startSimulator({
    port: 0,
    now: () => FIXED_NOW,
    log: (line) => logs.push(line),
    ...opts,
    config: { seed: { anchor: ANCHOR }, ...opts.config },
  });
  return { ...sim, logs, call: (method, path, options) => call(sim.url, method, path, options) };
}

/** A listener standing in for the external service of a custom block; records each delivered JSON body. */
export async function blockListener(): Promise<{ url: string; received: Array<Record<string, unknown>>; next(): Promise<Record<string, unknown>>; close(): Promise<void> }> {
  const received: Array<Record<string, unknown>> = [];
  const waiting: Array<(body: Record<string, unknown>) => void> = [];
  let consumed = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      received.push(body);
      const waiter = waiting.shift();
      if (waiter) {
        consumed++;
        waiter(body);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    next: () =>
      consumed < received.length ? Promise.resolve(received[consumed++]!) : new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The first list item of a V2 list (with the given query) whose status is `status`, as {uuid, id}. */
export async function findDialog(sim: TestSimulator, status: string, query = 'PageCount=200'): Promise<{ uuid: string; id: number }> {
  const list = (await sim.call('GET', `/api/v2/conversations?${query}`)).json();
  for (const [key, item] of Object.entries<any>(list)) {
    if (key !== 'meta' && item.status === status) {
      return { uuid: item.id, id: Number(String(item.name).slice(1).split(' ')[0]) };
    }
  }
  throw new Error(`no ${status} dialog in the list`);
}

/** The store simulator() seeds by default, rebuilt in-process: how a test learns what the API hides (deleted dialogs). */
export function seededStore(): Store {
  const config = resolveConfig({ seed: { anchor: ANCHOR } });
  const store = new Store(config);
  seedStore(store, config, 1, 120, FIXED_NOW);
  return store;
}
