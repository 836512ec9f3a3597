// A response as the tests read it: status, headers, body text and bytes, JSON on demand, the contracts it is held
// to, and its exchange as a failure keeps it. Apart from the client so that the matchers, which read responses, and
// the client, which raises failures through the matchers, do not import each other.
import type { Operation } from '../../openapi/document.ts';
import type { RecordedExpectation } from '../../lib/exchange.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import type { ContractValidators } from '../../openapi/validators.ts';
import type { ResponseToCheck } from '../../checks/response.ts';
import { operationOf, queryOf, type ExchangeEvidence } from '../../checks/evidence.ts';
import { renderExchange, type FailureExchange, type FailureRequest } from '../../lib/failure.ts';
import { redactKnown } from '../../http/redact.ts';

/** What an answer is held to: the document, and the learned document of a baseline (--contract-from) if any. */
export interface Contracts {
  spec: ContractValidators;
  learned: { baseline: string; validators: ContractValidators } | null;
}

/** What a test needs of a response, read once, plus what a vendor ticket needs of the request. */
export class ApiResponse {
  constructor(
    readonly operation: Operation,
    /** The request as sent, its body already redacted. */
    readonly request: FailureRequest,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly bytes: Buffer,
    readonly contracts: Contracts,
    /** When the request was sent and its answer came whole (ms since the epoch). */
    readonly timing: { startedMs: number; endedMs: number } = { startedMs: Date.now(), endedMs: Date.now() },
  ) {}

  /** Journals what a test held this answer to, beside its exchange (set by the client that recorded it). */
  noteExpectation?: (expected: RecordedExpectation) => void;

  /** The exchange the client recorded for this answer (lib/exchange.ts RecordedExchange.exchangeId). */
  exchangeId?: string;

  get operationId(): OperationId {
    return this.operation.operationId;
  }

  get contentType(): string | undefined {
    return this.headers['content-type'];
  }

  /** The content type without parameters, lower case ("application/json"); null without one. */
  get mediaType(): string | null {
    return (this.contentType ?? '').split(';')[0]!.trim().toLowerCase() || null;
  }

  /** What the response checks read of it (openapi/validators.ts). */
  get answer(): ResponseToCheck {
    return { status: this.status, contentType: this.contentType, contentLength: this.headers['content-length'], body: this.text };
  }

  /** The exchange as any check of one exchange reads it (checks/evidence.ts): a team's (CHECKS_MODULE), a recording's. */
  asEvidence(): ExchangeEvidence {
    const { method, path, credentials, contentType, body } = this.exchange(4096).request;
    const { operationId, path: template } = this.operation;
    return {
      operationId,
      method,
      path,
      query: queryOf(path),
      pathParams: operationOf([{ operationId, method, path: template }], method, path)?.pathParams ?? {},
      request: { credentials, contentType: contentType ?? null, body },
      response: { status: this.status, headers: this.headers, contentType: this.contentType ?? null, body: this.text, bytes: this.bytes },
      ...this.timing,
    };
  }

  /** Parsed JSON body, or undefined when the body is not JSON. */
  json<T = unknown>(): T | undefined {
    try {
      return JSON.parse(this.text) as T;
    } catch {
      return undefined;
    }
  }

  /**
   * The request and this answer as a failure keeps them, every secret the process knows removed: the request whole
   * (up to 4 KiB, enough to send it again), the answer's body clipped.
   */
  exchange(maxBody = 600): FailureExchange {
    const { body, ...request } = this.request;
    const sent = body && body.length > 4096 ? `${body.slice(0, 4096)}… (${body.length} chars)` : body;
    return {
      request: { ...request, path: redactKnown(request.path), ...(sent ? { body: redactKnown(sent) } : {}) },
      response: { status: this.status, contentType: this.contentType ?? null, body: redactKnown(this.text.slice(0, maxBody)), bodyLength: this.text.length },
    };
  }

  /** Request and response as a vendor ticket quotes them (an observation's evidence). */
  evidence(maxBody = 600): string {
    return renderExchange(this.exchange(maxBody));
  }
}
