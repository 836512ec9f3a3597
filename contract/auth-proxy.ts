// A loopback proxy per worker that adds the Authorization header on the way to the target. Playwright's API
// context never holds the credentials, so none of its call logs (printed with every request header on a timeout
// or a refused connection, and kept in the HTML report's steps) can carry them.
import { createServer, type IncomingMessage } from 'node:http';
import { request } from 'undici';

/** Header a proxied response carries when the target could not be reached: the client turns it into an error. */
export const PROXY_ERROR_HEADER = 'x-dialog-contract-proxy-error';
/** With PROXY_ERROR_HEADER when the target's status and headers came but its body broke off: that status. */
export const PROXY_BODY_ERROR_HEADER = 'x-dialog-contract-body-error';

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

/**
 * Requests to `<proxy>/<mode>/<path>` go to `<target>/<path>` with the mode's Authorization (none for "none").
 * Returns the proxy's base URL; a client for a mode uses `<url>/<mode>/` as its base.
 */
export async function startAuthProxy(target: string, credentials: Credentials): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const match = /^\/(valid|wrong|none)(\/.*)$/.exec(req.url ?? '');
    if (!match) {
      res.writeHead(400, { [PROXY_ERROR_HEADER]: 'path must start with /valid, /wrong or /none' }).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = String(value);
    const authorization = authorizationFor(credentials, match[1] as AuthMode);
    if (authorization) headers.authorization = authorization;
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
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
