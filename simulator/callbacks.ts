// Custom blocks (spec §1.5, §4.3, §6.1): when a started dialog reaches a bot's custom block, the service hands an
// integration token to the block URL. The request shape is not shown, so config.callback decides it (method,
// encoding, field names, token header). The call is fire-and-forget with a short timeout; a failing URL is logged
// once and never breaks the request that triggered it.
import type { Faker } from '@faker-js/faker';
import type { SimulatorConfig } from './config.ts';
import type { Dialog } from './store.ts';

export class CustomBlocks {
  /** Live integration token -> V1 id of the dialog whose block it belongs to. */
  private readonly tokens = new Map<string, number>();
  private readonly failedUrls = new Set<string>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly config: SimulatorConfig,
    private readonly faker: Faker,
    private readonly log: (line: string) => void,
  ) {}

  /** The dialog reached the block at `url`: issue a token and deliver it. Returns the token. */
  enter(dialog: Dialog, url: string): string {
    const token = this.faker.string.alphanumeric(40);
    this.tokens.set(token, dialog.id);
    const { fields, tokenHeader: header, sendsToken } = this.config.callback;
    const tokenHeader = sendsToken ? header : null;
    const values: Array<[string | null, string | number]> = [
      [tokenHeader || !sendsToken ? null : fields.token, token],
      [fields.dialogId, dialog.id],
      [fields.dialogUuid, dialog.uuid],
      [fields.botId, dialog.botId],
    ];
    const headers: Record<string, string> = {};
    if (tokenHeader) headers[tokenHeader] = tokenHeader.toLowerCase() === 'authorization' ? `Bearer ${token}` : token;
    void this.deliver(
      url,
      headers,
      values.filter((v): v is [string, string | number] => v[0] !== null),
    );
    return token;
  }

  dialogOf(token: string): number | undefined {
    return this.tokens.get(token);
  }

  /** complete: the block is finished and its token is no longer valid. */
  finish(token: string): void {
    this.tokens.delete(token);
  }

  /** Aborts calls still in flight (server shutdown). */
  close(): void {
    this.closed = true;
    for (const controller of this.inFlight) controller.abort();
  }

  private async deliver(url: string, headers: Record<string, string>, fields: Array<[string, string | number]>): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.callback.timeoutMs).unref();
    this.inFlight.add(controller);
    try {
      const { target, body, contentType } = encode(this.config.callback.encoding, url, fields);
      if (contentType) headers['content-type'] = contentType;
      const res = await fetch(target, { method: this.config.callback.method, headers, body, signal: controller.signal });
      await res.arrayBuffer();
      if (!res.ok) this.failed(url, `HTTP ${res.status}`);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      this.failed(url, controller.signal.aborted ? `no answer within ${this.config.callback.timeoutMs} ms` : (cause ?? (err as Error).message));
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  private failed(url: string, why: string): void {
    if (this.closed || this.failedUrls.has(url)) return;
    this.failedUrls.add(url);
    // Origin and path only: a tunnel URL may carry a secret in its query.
    const shown = URL.canParse(url) ? `${new URL(url).origin}${new URL(url).pathname}` : 'an invalid URL';
    this.log(`custom block callback to ${shown} failed: ${why} (further failures for this URL are not logged)`);
  }
}

/**
 * The URL and body of a call carrying `fields`: JSON nests dotted names ("block.token" -> {"block":{"token":..}});
 * form, multipart and query send them flat under the dotted name. fetch sets the form and multipart content types.
 */
function encode(
  encoding: SimulatorConfig['callback']['encoding'],
  url: string,
  fields: Array<[string, string | number]>,
): { target: string; body?: BodyInit; contentType?: string } {
  switch (encoding) {
    case 'json': {
      const root: Record<string, unknown> = {};
      for (const [path, value] of fields) {
        const keys = path.split('.');
        const parent = keys.slice(0, -1).reduce((node, key) => (node[key] ??= {}) as Record<string, unknown>, root);
        parent[keys.at(-1)!] = value;
      }
      return { target: url, body: JSON.stringify(root), contentType: 'application/json' };
    }
    case 'form':
      return { target: url, body: new URLSearchParams(fields.map(([name, value]) => [name, String(value)])) };
    case 'multipart': {
      const form = new FormData();
      for (const [name, value] of fields) form.append(name, String(value));
      return { target: url, body: form };
    }
    case 'query': {
      const target = new URL(url);
      for (const [name, value] of fields) target.searchParams.append(name, String(value));
      return { target: target.href };
    }
  }
}
