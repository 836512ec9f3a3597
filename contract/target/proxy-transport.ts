// How the suite's client sends its requests to the run's proxy (auth-proxy.ts), which adds the credentials and keeps
// the pace: plain HTTP on connections kept alive for the process's life. Playwright's APIRequestContext did this
// before, and each of its calls was a Playwright step (a stack captured and mapped through the source maps, messages
// to the runner, a line in the HTML report) and a round through its client-server protocol: a third of a worker's CPU
// against the simulator, more than the requests themselves. The requests and answers are the same: no credentials
// here (the proxy holds them), no redirect followed, no cookie kept, an answer's body read whole and decoded as
// Playwright decoded it (gzip, deflate, br).
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { AuthMode } from './auth-proxy.ts';

/** A request below an auth mode's base (`<proxy>/<mode>/api/`): the path with its query, already encoded. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** An answer as the client reads it: header names in lower case, the body whole and decoded. */
export interface ProxiedAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
}

const DECODE: Record<string, (bytes: Buffer) => Buffer> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/** Header values as one string each: repeated ones joined as Playwright joined them (Set-Cookie by line). */
function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  return out;
}

/** The requests of one process to a run's proxy, on connections it keeps; `close` ends them. */
export class ProxyTransport {
  private readonly agent = new Agent({ keepAlive: true });
  private readonly base: URL;

  constructor(proxy: string) {
    this.base = new URL(proxy);
  }

  /** `req` on the connections of auth mode `auth`; rejects when no whole answer came (refused, reset, timed out). */
  send(auth: AuthMode, req: ProxiedRequest): Promise<ProxiedAnswer> {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    return new Promise((resolve, reject) => {
      const sent = request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method: req.method,
          path: `/${auth}/api/${req.path}`,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            clearTimeout(timer);
            try {
              const raw = Buffer.concat(chunks);
              const decode = DECODE[String(res.headers['content-encoding'] ?? '').toLowerCase()];
              resolve({
                status: res.statusCode ?? 0,
                statusText: res.statusMessage ?? '',
                headers: flat(res.headers),
                body: decode && raw.length ? decode(raw) : raw,
              });
            } catch (err) {
              reject(err);
            }
          });
        },
      );
      // The whole exchange within its time, as Playwright's timeout was (and said so: a timeout is resent once at most).
      const timer = setTimeout(() => sent.destroy(new Error(`Timeout ${req.timeoutMs}ms exceeded`)), req.timeoutMs);
      sent.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      sent.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
