// A staging network in front of a target, for the tests of what the suite does with circumstances that are not the
// vendor's: a gateway path prefix (404 text/html elsewhere), TLS with a private CA, transient 502s and connection
// resets on reads, an outage (every request 503 without Retry-After), a target that dies, a gateway that writes
// its own Date header (as nginx does by default) over the application's, and a network's latency. The faults and
// latencies are seeded, so a failing test fails the same way again.
import { createServer as createHttpServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../lib/seeded-random.ts';

export interface StagingNetworkOptions {
  /** The target's base URL (http, no /api). */
  target: string;
  /** A gateway prefix the suite must put in API_BASE_URL, e.g. "/dialog-bot": anything else is the gateway's 404. */
  prefix?: string;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  /** Share of reads (GETs other than a dialog create) that fail in transit (half 502 from the gateway, half a reset connection). */
  transientRate?: number;
  /** Seed of the transient faults. */
  seed?: number;
  /**
   * Requests answered before every later one is answered 503 without Retry-After: counted, not timed, so the outage
   * falls among the tests' requests however slowly a busy machine starts the run.
   */
  outageAfterRequests?: number;
  /** Seconds after the first request at which the network stops listening and cuts every connection. */
  dieAfterS?: number;
  /**
   * The gateway's own Date header on every answer, from its host's clock, in place of the target's: the clock an
   * application set apart (the simulator's clock.offsetSeconds) then shows only in what the application stamps.
   */
  gatewayDate?: boolean;
  /**
   * Each request's round trip takes [min, max] ms more, drawn evenly (seeded): half on the way to the target, half on
   * the way back, as a staging a network away adds it.
   */
  latencyMs?: [number, number];
  /** The gateway host's clock (its Date header) and its timers; the real ones unless a test drives them. */
  clock?: { now: () => number; wait: (ms: number, then: () => void) => void };
}

export interface StagingNetwork {
  /** The base URL to give the suite (with the prefix). */
  url: string;
  /** Transient faults dealt so far. */
  readonly faults: { badGateway: number; reset: number; outage: number };
  close(): Promise<void>;
}

export async function startStagingNetwork(options: StagingNetworkOptions): Promise<StagingNetwork> {
  const random = seededRandom(options.seed ?? 1);
  // Its own stream, so the faults a seed deals stay those it dealt before latency existed.
  const latencyRandom = seededRandom((options.seed ?? 1) + 1);
  const latency = options.latencyMs;
  /** Half of a request's round trip, each way; 0 without latency. */
  const halfTrip = () => (latency ? (latency[0] + latencyRandom() * (latency[1] - latency[0])) / 2 : 0);
  const clock = options.clock ?? { now: Date.now, wait: (ms: number, then: () => void) => void setTimeout(then, ms) };
  const after = (ms: number, fn: () => void) => (ms > 0 ? clock.wait(ms, fn) : fn());
  const prefix = options.prefix ?? '';
  const faults = { badGateway: 0, reset: 0, outage: 0 };
  const sockets = new Set<Socket>();
  let firstRequestAt: number | undefined;
  let requests = 0;
  let server: Server;
  const since = () => (Date.now() - (firstRequestAt ??= Date.now())) / 1000;

  const die = () => {
    server.close();
    for (const socket of sockets) socket.destroy();
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const trip = halfTrip();
    // The request reaches the gateway half a round trip after it was sent; its answer takes as long to come back.
    after(trip, () => arrive(req, res, trip));
  };

  const arrive = (req: IncomingMessage, res: ServerResponse, trip: number) => {
    const elapsed = since();
    if (options.dieAfterS !== undefined && elapsed >= options.dieAfterS) return die();
    requests++;
    if (options.outageAfterRequests !== undefined && requests > options.outageAfterRequests) {
      faults.outage++;
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const path = req.url ?? '/';
    if (prefix && !path.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1>gateway</body></html>');
      return;
    }
    if (req.method === 'GET' && !/\/create(\?|$)/.test(path) && options.transientRate && random() < options.transientRate) {
      if (random() < 0.5) {
        faults.badGateway++;
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      } else {
        faults.reset++;
        req.socket.destroy();
      }
      return;
    }
    const upstream = forward(
      `${options.target}${path.slice(prefix.length)}`,
      { method: req.method, headers: { ...req.headers, host: new URL(options.target).host } },
      (answer) => {
        const headers = options.gatewayDate ? { ...answer.headers, date: new Date(clock.now()).toUTCString() } : answer.headers;
        after(trip, () => {
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A target that dies goes whether or not requests come.
  let dieTimer: NodeJS.Timeout | undefined;
  server.once('request', () => {
    if (options.dieAfterS !== undefined) dieTimer = setTimeout(die, options.dieAfterS * 1000);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${prefix}`,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(dieTimer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        if (!server.listening) resolve();
      }),
  };
}
