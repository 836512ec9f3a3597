// A loopback proxy that adds the Authorization header on the way to the target. Playwright's API context never holds
// the credentials, so none of its call logs (printed with every request header on a timeout or a refused connection,
// and kept in the HTML report's steps) can carry them. The run's own (one per run, started by its global setup, every
// worker's requests through it) also holds the run's pace (http/run-pace.ts): it books each send a slot at `/pace`
// and reads every answer for the target's rate limit, so one bucket paces every worker process of the run.
import { createServer, type IncomingMessage } from 'node:http';
import { readAnnouncement } from '../../http/rate-headers.ts';
import { paceOf, throttledForRate, TurnQueue, type RunPace } from '../../http/run-pace.ts';

/** Header a proxied response carries when the target could not be reached: the client turns it into an error. */
export const PROXY_ERROR_HEADER = 'x-dialog-contract-proxy-error';
/** With PROXY_ERROR_HEADER when the target's status and headers came but its body broke off: that status. */
export const PROXY_BODY_ERROR_HEADER = 'x-dialog-contract-body-error';
/** On every answer of a paced run: the pace per second it keeps to now (the client then books its sends). */
export const PACE_HEADER = 'x-dialog-contract-pace';
/**
 * Where a client waits for its send's turn: GET answers (204) when the run's pace lets it go; with `?first=1` ahead of
 * every other waiting send (the probes, one at a time: a chain the run's end waits for).
 */
export const PACE_PATH = '/pace';

const reason = (err: unknown) => `${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message}`.replace(/[\r\n]/g, ' ');
const TIMEOUT_MS = 10_000;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'authorization', 'proxy-connection', 'upgrade']);

/** The credentials a request goes out with: the configured ones, none, or a wrong password. */
export type AuthMode = 'valid' | 'none' | 'wrong';

export interface Credentials {
  login: string;
  password: string;
}

export function authorizationFor(credentials: Credentials, auth: AuthMode): string | undefined {
  if (auth === 'none') return undefined;
  const password = auth === 'valid' ? credentials.password : `${credentials.password}-wrong`;
  return `Basic ${Buffer.from(`${credentials.login}:${password}`).toString('base64')}`;
}

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The clock the pace reads and its timers: the system's in a run, a test's own so that it asserts no wall time. */
export interface PaceClock {
  now(): number;
  /** Calls `fn` in `ms`; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const SYSTEM_CLOCK: PaceClock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** The run's pace in its proxy, what to do when its limit changed, and its clock (the system's by default). */
export interface ProxyPace {
  pace: RunPace;
  changed: () => void;
  clock?: PaceClock;
}

/**
 * Requests to `<proxy>/<mode>/<path>` go to `<target>/<path>` with the mode's Authorization (none for "none").
 * Returns the proxy's base URL; a client for a mode uses `<url>/<mode>/` as its base. With `pacing`, GET
 * `<proxy>/pace` books a send, and every answer the target gives is read for its rate limit.
 */
export async function startAuthProxy(target: string, credentials: Credentials, pacing?: ProxyPace): Promise<{ url: string; close(): Promise<void> }> {
  // Loaded here, not with the module: the workers import its names only (a tenth of a second of each one's start).
  const { request } = await import('undici');
  // Sends waiting for their turn, each answered when it comes.
  const turns = pacing && new TurnQueue<() => void>(pacing.pace);
  const clock = pacing?.clock ?? SYSTEM_CLOCK;
  let cancel: (() => void) | undefined;
  const release = () => {
    cancel = undefined;
    const { go, nextInMs } = turns!.due(clock.now());
    for (const send of go) send();
    if (nextInMs !== undefined) cancel = clock.after(nextInMs, release);
  };
  const server = createServer(async (req, res) => {
    if (turns && req.url?.startsWith(PACE_PATH)) {
      turns.add(() => res.writeHead(204).end(), req.url === `${PACE_PATH}?first=1`, clock.now());
      if (!cancel) release();
      return;
    }
    const match = /^\/(valid|wrong|none)(\/.*)$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(400, { [PROXY_ERROR_HEADER]: 'path must start with /valid, /wrong or /none' }).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = String(value);
    const authorization = authorizationFor(credentials, match[1] as AuthMode);
    if (authorization) headers.authorization = authorization;
    const sentAtMs = clock.now();
    pacing?.pace.busy(sentAtMs);
    // When the run's own sends left, as they left (a worker late after its turn included): what bunching is measured from.
    if (match[1] === 'valid') pacing?.pace.sent(sentAtMs);
    try {
      const payload = await body(req);
      const upstream = await request(`${target}${match[2]}`, {
        method: req.method as 'GET',
        headers,
        body: payload.length ? payload : undefined,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(upstream.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      if (pacing) {
        const now = clock.now();
        const answered: Record<string, string> = {};
        for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined) answered[name] = String(value);
        const throttled = throttledForRate(upstream.statusCode, answered['retry-after']);
        // What the limit let through is counted on the run's credentials only: a 401 for none, a call with a custom
        // block's token, may count against no bucket of theirs, and counted would overstate the limit.
        if (throttled || match[1] === 'valid') {
          if (pacing.pace.answered(now, { throttled, sentAtMs, announced: readAnnouncement(answered, now) })) pacing.changed();
        }
        if (pacing.pace.limit) out[PACE_HEADER] = String(paceOf(pacing.pace.limit));
      }
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await upstream.body.arrayBuffer());
      } catch (err) {
        // The target answered, then its body broke off: that is the target's answer, not a missing one.
        res.writeHead(502, { [PROXY_ERROR_HEADER]: reason(err), [PROXY_BODY_ERROR_HEADER]: `${upstream.statusCode}` }).end();
        return;
      }
      res.writeHead(upstream.statusCode, out).end(bytes);
    } catch (err) {
      res.writeHead(502, { [PROXY_ERROR_HEADER]: reason(err) }).end();
    } finally {
      pacing?.pace.done(clock.now());
    }
  });
  // The worker's request contexts keep their connections between tests: a server closing an idle one (Node's
  // default after 5 s) races a request sent on it, which then fails with ECONNRESET. The client closes them instead.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        cancel?.();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
