// The listener the custom block calls (spec §6.1: the service passes an integration token to the block's URL; the
// request shape is not shown). It runs once in Playwright's main process (global setup) and keeps every call;
// workers claim calls over HTTP, so parallel workers never compete for the port.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { redactValue } from './redact.ts';

export interface ReceivedCallback {
  seq: number;
  receivedAt: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ClaimedCallback {
  /** The call as received, with the token and any authorization redacted: safe to record. */
  recorded: { method: string; path: string; headers: Record<string, string>; body: unknown; tokenAt: string | undefined };
  /** The integration token, for the test's own use only; never recorded. */
  token: string | undefined;
}

const MAX_BODY = 256 * 1024;
const INBOX = '/_inbox/claim';

/** Integration tokens seen by this process, so the secret guard can look for them in every report. */
export const seenTokens: Set<string> = ((globalThis as Record<string, unknown>).__dialogContractTokens ??= new Set<string>()) as Set<string>;

/** Where the token sits in a callback: the first string field whose name mentions "token", at any depth. */
export function findToken(value: unknown, at = '$'): { token: string; at: string } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const here = Array.isArray(value) ? `${at}[${key}]` : `${at}.${key}`;
    if (/token/i.test(key) && typeof child === 'string' && child) return { token: child, at: here };
    const deeper = findToken(child, here);
    if (deeper) return deeper;
  }
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function claimable(callback: ReceivedCallback): ClaimedCallback {
  let parsed: unknown = callback.body;
  try {
    parsed = JSON.parse(callback.body);
  } catch {
    // not JSON: recorded as text
  }
  const query = Object.fromEntries(new URL(callback.path, 'http://inbox').searchParams);
  const found = findToken(parsed) ?? findToken(query, '$query');
  const headers = { ...callback.headers };
  if (headers.authorization) headers.authorization = '[redacted]';
  return {
    recorded: { method: callback.method, path: callback.path.split('?')[0]!, headers, body: redactValue(parsed), tokenAt: found?.at },
    token: found?.token,
  };
}

export class CallbackInbox {
  private readonly received: ReceivedCallback[] = [];
  private readonly claimed = new Set<number>();
  private seq = 0;
  private server: Server | undefined;

  async start(port: number, host = '127.0.0.1'): Promise<void> {
    this.server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://inbox');
      if (req.method === 'GET' && url.pathname === INBOX) {
        const claim = await this.claim(
          (url.searchParams.get('match') ?? '').split(',').filter(Boolean),
          Number(url.searchParams.get('after') ?? 0),
          Math.min(Number(url.searchParams.get('timeout') ?? 5000), 30000),
        );
        res.writeHead(claim ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(claim ?? null));
        return;
      }
      const body = await readBody(req);
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const callback = { seq: ++this.seq, receivedAt: Date.now(), method: req.method ?? 'POST', path: req.url ?? '/', headers, body };
      const token = claimable(callback).token;
      if (token) seenTokens.add(token);
      this.received.push(callback);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', (err: NodeJS.ErrnoException) =>
        reject(new Error(`CALLBACK_PORT=${port} cannot be used (${err.code}): free the port or set another CALLBACK_PORT`)),
      );
      this.server!.listen(port, host, resolve);
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
      const hit =
        open.find((c) => match.some((m) => c.body.includes(m) || c.path.includes(m))) ?? (Date.now() >= fallbackAt ? open[0] : undefined);
      if (hit) {
        this.claimed.add(hit.seq);
        return claimable(hit);
      }
      if (Date.now() >= deadline) return undefined;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Worker side: waits for the custom block's call for one dialog. */
export async function claimCallback(port: number, match: string[], after: number, timeoutMs = 5000): Promise<ClaimedCallback | undefined> {
  const query = new URLSearchParams({ match: match.join(','), after: String(after), timeout: String(timeoutMs) });
  const res = await fetch(`http://127.0.0.1:${port}${INBOX}?${query}`);
  return res.status === 200 ? ((await res.json()) as ClaimedCallback) : undefined;
}
