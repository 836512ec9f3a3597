// Custom blocks (spec §1.5, §4.3, §6.1): when a started dialog reaches a bot's custom block, the service hands an
// integration token to the block URL. The call is fire-and-forget with a short timeout; a failing URL is logged
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
    const f = this.config.callback.fields;
    const body: Record<string, unknown> = {};
    if (f.token) body[f.token] = token;
    if (f.dialogId) body[f.dialogId] = dialog.id;
    if (f.dialogUuid) body[f.dialogUuid] = dialog.uuid;
    if (f.botId) body[f.botId] = dialog.botId;
    void this.deliver(url, JSON.stringify(body));
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

  private async deliver(url: string, body: string): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.callback.timeoutMs).unref();
    this.inFlight.add(controller);
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: controller.signal });
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
