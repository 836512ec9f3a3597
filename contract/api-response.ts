// A response as the tests read it: status, headers, body text and bytes, JSON on demand, and the evidence a vendor
// ticket quotes. Apart from the client so that the matchers, which read responses, and the client, which raises
// failures through the matchers, do not import each other.
import type { Operation } from '../openapi/document.ts';
import { redactKnown } from '../http/redact.ts';

/** What a test needs of a response, read once, plus what a vendor ticket needs of the request. */
export class ApiResponse {
  constructor(
    readonly operation: Operation,
    readonly request: { method: string; url: string; body?: string },
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly bytes: Buffer,
  ) {}

  get operationId(): string {
    return this.operation.operationId;
  }

  get contentType(): string | undefined {
    return this.headers['content-type'];
  }

  /** The content type without parameters, lower case ("application/json"); null without one. */
  get mediaType(): string | null {
    return this.contentType?.split(';')[0]!.trim().toLowerCase() || null;
  }

  /** Parsed JSON body, or undefined when the body is not JSON. */
  json<T = unknown>(): T | undefined {
    try {
      return JSON.parse(this.text) as T;
    } catch {
      return undefined;
    }
  }

  /** Request and response as a vendor ticket quotes them, bodies clipped, every secret the process knows removed. */
  evidence(maxBody = 600): string {
    const clip = (text: string) => (text.length > maxBody ? `${text.slice(0, maxBody)}… (${text.length} chars)` : text);
    return redactKnown([
      `request: ${this.request.method} ${this.request.url}${this.request.body ? ` body ${clip(this.request.body)}` : ''}`,
      `response: ${this.status} ${this.contentType ?? '(no content type)'} ${clip(this.text) || '(empty body)'}`,
    ].join('\n'));
  }
}
