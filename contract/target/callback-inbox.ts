// The listener the custom block calls (spec §6.1: the service passes an integration token to the block's URL; the
// request shape is not shown). It runs once in Playwright's main process (global setup), takes any method and any
// encoding, and keeps every call; workers claim calls over HTTP, so parallel workers never compete for the port.
// Everything a call carries is secret until proven otherwise: its values join the secret guard's list on arrival,
// and only the call's shape (names, types, lengths) ever leaves the listener for a report.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { callFields, callShape, secretCandidates, tokenCandidates, type CallShape, type RawCall } from '../../http/callback-request.ts';
import type { CallPlace } from '../../lib/observations.ts';

export interface ClaimedCallback {
  /** Method, content type and fields without values: safe to record. */
  shape: CallShape;
  /** Where the token may be, with the values: for the test's own use only, never recorded. */
  candidates: Array<CallPlace & { value: string }>;
}

interface Received {
  seq: number;
  receivedAt: number;
  /** Path, body and header values as text, to match a call to its dialog. */
  haystack: string;
  claim: ClaimedCallback;
}

const MAX_BODY = 256 * 1024;
const INBOX = '/_inbox/claim';

/** Values the listener received in this process: the secret guard and the reporters redact and look for them. */
export const callbackSecrets: Set<string> = ((globalThis as Record<string, unknown>).__dialogContractCallbackSecrets ??= new Set<string>()) as Set<string>;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class CallbackInbox {
  private readonly received: Received[] = [];
  private readonly claimed = new Set<number>();
  private seq = 0;
  private server: Server | undefined;
  /** Claims must carry it: a listener open to the network (CALLBACK_HOST=0.0.0.0) hands tokens to the run only. */
  readonly claimKey = randomBytes(16).toString('hex');

  /** `tokenField`: CALLBACK_TOKEN_FIELD, the name of the token's field when a call has several candidates. */
  constructor(private readonly tokenField?: string) {}

  async start(port: number, host: string): Promise<void> {
    this.server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://inbox');
      if (req.method === 'GET' && url.pathname === INBOX && url.searchParams.get('key') === this.claimKey) {
        const claim = await this.claim(
          (url.searchParams.get('match') ?? '').split(',').filter(Boolean),
          Number(url.searchParams.get('after') ?? 0),
          Math.min(Number(url.searchParams.get('timeout') ?? 5000), 120_000),
        );
        // None: how many calls reached the listener at all, which tells a listener nobody reached from a missing call.
        res.writeHead(claim ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(claim ?? { received: this.received.length }));
        return;
      }
      await this.receive(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new Error(`CALLBACK_HOST=${host} CALLBACK_PORT=${port} cannot be used (${err.code}): free the port, or set another CALLBACK_PORT or CALLBACK_HOST`),
        ),
      );
      this.server!.listen(port, host, resolve);
    });
  }

  private async receive(req: IncomingMessage): Promise<void> {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
    const call: RawCall = { method: req.method ?? 'POST', url: req.url ?? '/', headers, body: await readBody(req) };
    const fields = await callFields(call);
    for (const value of secretCandidates(fields, this.tokenField)) callbackSecrets.add(value);
    this.received.push({
      seq: ++this.seq,
      receivedAt: Date.now(),
      haystack: [call.url, call.body.toString('utf8'), ...Object.values(headers)].join('\n'),
      claim: {
        shape: callShape(call, fields),
        candidates: tokenCandidates(fields, this.tokenField).map(({ in: part, path, file, value }) => ({ in: part, path, ...(file ? { file } : {}), value })),
      },
    });
  }

  /**
   * The first unclaimed call that mentions one of `match` (the dialog's ids); when none does by half the timeout,
   * the oldest unclaimed call received after `after` (the callback shape is not shown, so ids may be absent).
   */
  private async claim(match: string[], after: number, timeoutMs: number): Promise<ClaimedCallback | undefined> {
    const deadline = Date.now() + timeoutMs;
    const fallbackAt = Date.now() + timeoutMs / 2;
    for (;;) {
      const open = this.received.filter((c) => !this.claimed.has(c.seq) && c.receivedAt >= after);
      const hit = open.find((c) => match.some((m) => c.haystack.includes(m))) ?? (Date.now() >= fallbackAt ? open[0] : undefined);
      if (hit) {
        this.claimed.add(hit.seq);
        return hit.claim;
      }
      if (Date.now() >= deadline) return undefined;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Where the workers reach the inbox: its own address, or the loopback one when it listens on every interface. */
export function inboxAddress(host: string, port: number): string {
  const local = host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host;
  return `http://${local.includes(':') && !local.startsWith('[') ? `[${local}]` : local}:${port}`;
}

/**
 * Worker side: waits for the custom block's call for one dialog; none, and how many calls reached the listener during
 * the run at all (none: nobody reached it, the block's URL or the way to the listener is this side's to fix).
 */
export async function claimCallback(
  inbox: string,
  key: string,
  match: string[],
  after: number,
  timeoutMs: number,
): Promise<{ call: ClaimedCallback } | { call: undefined; received: number }> {
  const query = new URLSearchParams({ key, match: match.join(','), after: String(after), timeout: String(timeoutMs) });
  const res = await fetch(`${inbox}${INBOX}?${query}`, { signal: AbortSignal.timeout(timeoutMs + 5000) });
  if (res.status === 200) return { call: (await res.json()) as ClaimedCallback };
  const { received = 0 } = ((await res.json().catch(() => ({}))) ?? {}) as { received?: number };
  return { call: undefined, received };
}
