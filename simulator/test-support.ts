// Shared by the simulator's tests: a started simulator, a small HTTP client and a custom-block listener.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { DEFAULT_CONFIG, resolveConfig, type SimulatorConfig } from './config.ts';
import { isObject } from './params.ts';
import { seedStore } from './seed.ts';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from './server.ts';
import { Store } from './store.ts';

export const basicAuth = ({ auth }: SimulatorConfig, password = auth.password): string =>
  `Basic ${Buffer.from(`${auth.login}:${password}`).toString('base64')}`;
export const BASIC = basicAuth(DEFAULT_CONFIG);
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
  /** Authorization header: the simulator's Basic credentials by default for V1/V2, none when null. */
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

export async function call(base: string, method: string, path: string, options: CallOptions = {}, basic = BASIC): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? (path.startsWith('/api/vertex') ? null : basic) : options.auth;
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
  const basic = basicAuth(sim.config);
  return { ...sim, logs, call: (method, path, options) => call(sim.url, method, path, options, basic) };
}

/** A JSON body with `value` at each dotted path: [["message.text", "hi"]] -> {"message":{"text":"hi"}}. */
export function bodyWith(...entries: Array<[string, unknown]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of entries) {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce((node, key) => (node[key] ??= {}) as Record<string, unknown>, root);
    parent[keys.at(-1)!] = value;
  }
  return root;
}

/** One call to the block URL as the external service sees it; `fields` holds query and body fields by dotted name. */
export interface Delivery {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | undefined;
  /** The body as sent. */
  raw: string;
  fields: Record<string, unknown>;
}

/** JSON objects flattened to dotted names ({"a":{"b":1}} -> {"a.b": 1}); other values stay as they are. */
function flatten(value: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, child] of Object.entries(value)) {
    if (isObject(child)) flatten(child, `${prefix}${key}.`, out);
    else out[`${prefix}${key}`] = child;
  }
  return out;
}

/** The fields of a call in any encoding the simulator sends: query string, JSON, urlencoded or multipart body. */
async function parseDelivery(method: string, url: string, headers: Delivery['headers'], body: Buffer): Promise<Delivery> {
  const contentType = typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
  const fields: Record<string, unknown> = Object.fromEntries(new URL(url, 'http://listener').searchParams);
  const media = contentType === undefined ? undefined : contentType.split(';')[0]!.trim();
  if (media === 'application/json') Object.assign(fields, flatten(JSON.parse(body.toString('utf8')) as Record<string, unknown>));
  if (media === 'application/x-www-form-urlencoded') Object.assign(fields, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
  if (media === 'multipart/form-data') {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType! } }).formData();
    for (const [name, value] of form) fields[name] = value;
  }
  return { method, headers, contentType, raw: body.toString('utf8'), fields };
}

/** The integration token of a call: in config.callback.tokenHeader ("Bearer " stripped for Authorization) or its field. */
export function deliveredToken(config: SimulatorConfig, delivery: Delivery): string {
  const { tokenHeader, fields } = config.callback;
  if (tokenHeader) return String(delivery.headers[tokenHeader.toLowerCase()]).replace(/^Bearer /, '');
  return String(delivery.fields[fields.token!]);
}

/** Whether a call names the dialog (by UUID or V1 id, whichever the config sends). */
export function deliveredFor(config: SimulatorConfig, delivery: Delivery, dialog: { uuid: string; id: number }): boolean {
  const { dialogUuid, dialogId } = config.callback.fields;
  return (dialogUuid === null || delivery.fields[dialogUuid] === dialog.uuid) && (dialogId === null || String(delivery.fields[dialogId]) === String(dialog.id));
}

/** A listener standing in for the external service of a custom block; records each call. */
export async function blockListener(): Promise<{ url: string; received: Delivery[]; next(): Promise<Delivery>; close(): Promise<void> }> {
  const received: Delivery[] = [];
  const waiting: Array<(delivery: Delivery) => void> = [];
  let consumed = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const delivery = await parseDelivery(req.method ?? '', req.url ?? '/', req.headers, Buffer.concat(chunks));
      received.push(delivery);
      const waiter = waiting.shift();
      if (waiter) {
        consumed++;
        waiter(delivery);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    next: () => (consumed < received.length ? Promise.resolve(received[consumed++]!) : new Promise((resolve) => waiting.push(resolve))),
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

/**
 * The store simulator() seeds (with the same config patches, e.g. a profile's), rebuilt in-process: how a test
 * learns what the API hides (deleted dialogs).
 */
export function seededStore(...patches: unknown[]): Store {
  const config = resolveConfig(...patches, { seed: { anchor: ANCHOR } });
  const store = new Store(config);
  seedStore(store, config, 1, 120, FIXED_NOW);
  return store;
}
