// The request pipeline: body cap, routing, drifts' beforeRequest, auth, blocked instance, rate limit, handler,
// drifts' transformResponse, writing. Every failure becomes a reply here; nothing a client sends reaches a 5xx.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Drift } from './drifts/types.ts';
import { HttpError, JSON_TYPE, toReply, type Exchange, type Reply } from './exchange.ts';
import { fillTemplate } from './refusal-wording.ts';
import type { Handler } from './handlers/types.ts';
import { RateLimiter } from './limits.ts';
import { isObject } from './params.ts';
import { matchRoute, type Route } from './routes.ts';
import type { Simulation } from './simulation.ts';

/** Bodies above the cap are drained (so the client reads the 413) up to this many bytes, then the socket is cut. */
const DRAIN_LIMIT = 64 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

export interface Pipeline {
  onRequest(req: IncomingMessage, res: ServerResponse): void;
  onClientError(err: NodeJS.ErrnoException, socket: Duplex): void;
}

export function createPipeline(sim: Simulation, handlers: Record<string, Handler>, drifts: readonly Drift[], log: (line: string) => void): Pipeline {
  const { config } = sim;
  const expectedAuth = `Basic ${Buffer.from(`${config.auth.login}:${config.auth.password}`).toString('base64')}`;
  const limiter = config.limits.rate ? new RateLimiter(config.limits.rate, sim.now) : undefined;
  const before = drifts.flatMap((d) => (d.beforeRequest ? [d.beforeRequest] : []));
  const transforms = drifts.flatMap((d) => (d.transformResponse ? [d.transformResponse] : []));

  /** The login of a valid Basic header, or undefined. */
  function login(header: string | undefined): string | undefined {
    if (header === expectedAuth) return config.auth.login;
    const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    if (!m) return undefined;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 && decoded.slice(0, colon) === config.auth.login && decoded.slice(colon + 1) === config.auth.password ? config.auth.login : undefined;
  }

  /** Rate-limit key: the Basic login, or the integration token of a vertex body. */
  function credential(route: Route, ex: Exchange, user: string | undefined): string {
    if (route.auth === 'basic') return `basic:${user}`;
    try {
      const body: unknown = JSON.parse(ex.body.toString('utf8'));
      return `token:${isObject(body) && typeof body.token === 'string' ? body.token : ''}`;
    } catch {
      return 'token:';
    }
  }

  function dispatch(ex: Exchange): Reply {
    if (!ex.path.startsWith('/api/')) throw new HttpError(404, `no endpoint at ${ex.path.slice(0, 80)}; the API lives under /api`);
    const found = matchRoute(ex.method, ex.path.slice(4));
    if ('allowed' in found) {
      if (found.allowed.length === 0) throw new HttpError(404, `no endpoint at ${ex.path.slice(0, 80)}`);
      throw new HttpError(405, `${ex.method} is not allowed here; use ${found.allowed.join(', ')}`, undefined, { Allow: found.allowed.join(', ') });
    }
    const { route, params } = found;
    ex.operationId = route.operationId;
    ex.params = params;
    for (const hook of before) hook(ex, sim);
    const user = route.auth === 'basic' ? login(ex.authorization) : undefined;
    if (route.auth === 'basic' && !user) {
      throw new HttpError(401, 'missing or wrong login or password (HTTP Basic)', undefined, {
        'WWW-Authenticate': `Basic realm="${config.auth.realm}"`,
      });
    }
    if (config.blocked) throw new HttpError(403, 'blocked instance');
    const rateHeaders = limiter?.take(credential(route, ex, user));
    const reply = handlers[route.operationId]!(ex);
    if (rateHeaders) reply.headers = { ...rateHeaders, ...reply.headers };
    return reply;
  }

  function respond(req: IncomingMessage, res: ServerResponse, body: Buffer, tooLarge: boolean): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const ex: Exchange = {
      operationId: undefined,
      method: req.method ?? 'GET',
      path: q < 0 ? url : url.slice(0, q),
      params: [],
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      authorization: req.headers.authorization,
      body,
    };
    let reply: Reply;
    try {
      if (tooLarge) throw new HttpError(413, `the body is larger than ${config.limits.maxBodyBytes} bytes`);
      reply = dispatch(ex);
    } catch (err) {
      if (!(err instanceof HttpError)) log(`internal error on ${ex.method} ${ex.path}: ${(err as Error).stack ?? err}`);
      reply = toReply(err instanceof HttpError ? err : new HttpError(500, 'internal error'));
    }
    for (const transform of transforms) reply = transform(ex, reply, sim);
    write(res, reply, ex.path);
  }

  function write(res: ServerResponse, reply: Reply, path: string): void {
    const headers: Record<string, string | number> = { ...reply.headers };
    let payload: Buffer | string | undefined = reply.raw;
    let type = reply.contentType;
    if (reply.problem) [type, payload] = renderError(reply.status, reply.problem, path);
    else if (reply.json !== undefined) {
      payload = JSON.stringify(reply.json);
      type ??= JSON_TYPE;
    }
    if (type) headers['Content-Type'] = type;
    // The vendor's clock, as every HTTP server states it (RFC 9110 §6.6.1).
    headers.Date ??= new Date(sim.now()).toUTCString();
    // A drift may announce another length than it sends (a vendor's broken download).
    headers['Content-Length'] ??= payload === undefined ? 0 : Buffer.byteLength(payload);
    // Node sends no body with a 204 or 304: a body announced there never comes, and the connection closes, as a
    // server's would after such an answer, instead of leaving the client waiting out its timeout for the bytes.
    if ((reply.status === 204 || reply.status === 304) && payload !== undefined) headers.Connection = 'close';
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  /** Content type and body of an error in the configured format, about the request to `path`; 'empty' has neither. */
  function renderError(status: number, { detail, field }: NonNullable<Reply['problem']>, path?: string): [string | undefined, string | undefined] {
    const title = STATUS_CODES[status] ?? 'Error';
    switch (config.errors.format) {
      case 'problem':
        return ['application/problem+json', JSON.stringify({ type: 'about:blank', title, status, detail })];
      case 'problem-instance':
        return ['application/problem+json', JSON.stringify({ type: 'about:blank', title, status, detail, ...(path ? { instance: path } : {}) })];
      case 'json':
        return [JSON_TYPE, JSON.stringify({ message: detail })];
      case 'text':
        return ['text/plain; charset=utf-8', `${status} ${title}: ${detail}`];
      case 'envelope':
        return [JSON_TYPE, JSON.stringify({ error: { code: status, message: detail } })];
      case 'fields':
        return [JSON_TYPE, JSON.stringify({ errors: [field ? { field: field.path, message: field.says } : { message: detail }] })];
      case 'empty':
        return [undefined, undefined];
      case 'custom': {
        const { contentType, body, fieldBody } = config.errors.custom!;
        const words = field?.words;
        const template = words && fieldBody !== undefined ? fieldBody : body;
        const filled = fillTemplate(template, { status: String(status), title, detail, ...words?.text }, { status, ...words?.json });
        return [contentType, typeof filled === 'string' ? filled : JSON.stringify(filled)];
      }
    }
  }

  return {
    onRequest(req, res) {
      // A request without a body (the usual GET) is answered synchronously: the hot path of the load tests.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
        respond(req, res, EMPTY, false);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= config.limits.maxBodyBytes) chunks.push(chunk);
        else if (size > DRAIN_LIMIT) req.destroy();
      });
      req.on('end', () => respond(req, res, size > config.limits.maxBodyBytes ? EMPTY : Buffer.concat(chunks), size > config.limits.maxBodyBytes));
      req.on('error', () => req.destroy());
    },

    // Requests node's parser rejects (bad request line, header overflow) still get an error in the configured format.
    onClientError(err, socket) {
      if (!socket.writable || err.code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const [type, body = ''] = renderError(status, { detail: `the request could not be parsed (${err.code ?? 'malformed'})` });
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${type ? `Content-Type: ${type}\r\n` : ''}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}
