// How the suite's client sends its requests: straight to the target (API_BASE_URL, a gateway's prefix and TLS
// included: a private CA through NODE_EXTRA_CA_CERTS), with the Authorization header of the request's credentials added
// here, on connections kept alive for the process's life, each send and answer told to the run's pace (pace-link.ts).
// Plain Node HTTP: Playwright's APIRequestContext made each call a Playwright step (a stack captured and mapped
// through the source maps, a line in the HTML report, a call log listing every request header on a timeout) and a
// round through its client-server protocol, a third of a worker's CPU. No redirect followed, no cookie kept, an
// answer's body read whole and decoded as Playwright decoded it (gzip, deflate, br), its hop-by-hop headers dropped:
// the answer as the target gave it, not as the connection carried it.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { basicAuthorization } from '../../config/suite-config.ts';
import { failureLine } from '../../http/health.ts';
import type { PaceLink } from './pace-link.ts';

/** The credentials a request goes out with: the configured ones, none, or a wrong password. */
export type AuthMode = 'valid' | 'none' | 'wrong';

interface Credentials {
  login: string;
  password: string;
}

function authorizationFor(credentials: Credentials, auth: AuthMode): string | undefined {
  if (auth === 'none') return undefined;
  return basicAuthorization(credentials.login, auth === 'valid' ? credentials.password : `${credentials.password}-wrong`);
}

/** A request below the target's API (`<API_BASE_URL>/api/`): the path with its query, already encoded. */
export interface TargetRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** An answer as the client reads it: header names in lower case, the body whole and decoded. */
export interface TargetAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a send tells the run's pace of itself (pace-link.ts PaceLink). */
export type PaceEvents = Pick<PaceLink, 'sent' | 'answered' | 'lost'>;

/** A send's outcome: the answer, or why none came whole (and the status of one whose body broke off). */
export type Sent = { response: TargetAnswer } | { lost: string; status?: number };

const DECODE: Record<string, (bytes: Buffer) => Buffer> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };
/** The connection's, not the answer's; authorization and host are the transport's own on the way out. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);
const REQUEST_OWN = new Set([...HOP_BY_HOP, 'host', 'authorization']);

/** How long a kept connection may stay idle before the transport closes it. */
const IDLE_MS = 4_000;

/** Header values as one string each: repeated ones joined as Playwright joined them (Set-Cookie by line). */
function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  return out;
}

/** The requests of one process to its run's target, on connections it keeps; `close` ends them. */
export class TargetTransport {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly request: typeof httpRequest;

  constructor(
    target: string,
    private readonly credentials: Credentials,
    /** The run's pace, told of every send and answer; none where nothing paces (a unit test's target). */
    private readonly pace?: PaceEvents,
  ) {
    this.base = new URL(target);
    const tls = this.base.protocol === 'https:';
    // A connection idle for 4 s is closed here, as undici closes one (the proxy's client did): a gateway that closes
    // idle ones without saying when (no Keep-Alive hint, which Node's agent honours) would otherwise race the next
    // request sent on one, which then fails with ECONNRESET. In-flight requests keep their own timeout.
    const pool = { keepAlive: true, timeout: IDLE_MS };
    this.agent = tls ? new HttpsAgent(pool) : new HttpAgent(pool);
    this.request = tls ? httpsRequest : httpRequest;
  }

  /** `req` with the credentials of `auth`; a send with no whole answer (refused, reset, timed out, cut off) says why. */
  send(auth: AuthMode, req: TargetRequest): Promise<Sent> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (!REQUEST_OWN.has(name.toLowerCase())) headers[name] = value;
    const authorization = authorizationFor(this.credentials, auth);
    if (authorization) headers.authorization = authorization;
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const held = auth === 'valid';
    return new Promise((resolve) => {
      let told = false;
      let status: number | undefined;
      let timedOut: Error | undefined;
      let timer: NodeJS.Timeout | undefined;
      let sent: ClientRequest | undefined;
      const sentAtMs = Date.now();
      const lost = (err: unknown) => {
        clearTimeout(timer);
        // Told once: an answer whose body broke off was told when its status came.
        if (!told) this.pace?.lost(Date.now());
        told = true;
        resolve({ lost: failureLine(timedOut ?? err), ...(status === undefined ? {} : { status }) });
      };
      // As undici timed the proxy's sends: the headers within the time, then the body never silent for as long; each
      // resent once at most by the client. A slow answer that keeps coming is no timeout.
      const wait = (what: string) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timedOut = Object.assign(new Error(`Timeout ${req.timeoutMs}ms exceeded ${what}`), { code: 'ETIMEDOUT' });
          sent?.destroy(timedOut);
        }, req.timeoutMs);
      };
      try {
        sent = this.request(
          {
            agent: this.agent,
            protocol: this.base.protocol,
            // An IPv6 literal without its brackets, as the resolver takes it.
            hostname: this.base.hostname.replace(/^\[(.*)\]$/, '$1'),
            port: this.base.port,
            method: req.method,
            // The gateway's prefix, if the target has one, before the API's own path.
            path: `${this.base.pathname.replace(/\/$/, '')}/api/${req.path}`,
            headers,
          },
          (res) => {
            status = res.statusCode ?? 0;
            const answerHeaders = flat(res.headers);
            told = true;
            this.pace?.answered(Date.now(), sentAtMs, held, status, answerHeaders);
            wait('between parts of the body');
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => {
              chunks.push(chunk);
              wait('between parts of the body');
            });
            res.on('error', lost);
            // Shorter than its Content-Length, or silent past its time: the target answered, its body broke off.
            res.on('close', () => {
              if (!res.complete) lost(res.errored ?? new Error('the answer broke off before its end'));
            });
            res.on('end', () => {
              clearTimeout(timer);
              const raw = Buffer.concat(chunks);
              // Fewer bytes than its Content-Length announced (none at all after a 204 or a 304 announcing some, which
              // HTTP's framing cuts off at its headers): the whole body it announced never came.
              const announced = res.headers['content-length'];
              if (announced !== undefined && Number(announced) !== raw.length) {
                lost(new Error(`the answer announced ${announced} bytes of body and carried ${raw.length}`));
                return;
              }
              const decode = DECODE[String(res.headers['content-encoding'] ?? '').toLowerCase()];
              let body: Buffer;
              try {
                body = decode && raw.length ? decode(raw) : raw;
              } catch (err) {
                // A body that came whole and does not decode is no answer the client can read: as no answer at all.
                status = undefined;
                lost(err);
                return;
              }
              resolve({ response: { status: status!, statusText: res.statusMessage ?? '', headers: answerHeaders, body } });
            });
          },
        );
      } catch (err) {
        // A request Node refuses to send (a header it cannot write): nothing left, nothing to tell the pace.
        told = true;
        lost(err);
        return;
      }
      this.pace?.sent(sentAtMs, held);
      wait('for the headers');
      sent.on('error', lost);
      sent.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
