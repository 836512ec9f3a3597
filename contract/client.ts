// The suite's API client: calls operations by operationId (paths come from the OpenAPI document), never throws on
// a status, waits out throttling (contract/run-throttle.ts: a 429 is never a finding), records every exchange (the
// run's HAR, read by the coverage matrix and the overlay check), and fails softly on any 5xx (a server error is always a failure, whatever test saw it).
import type { APIRequestContext } from '@playwright/test';
import type { Operation } from '../openapi/document.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { expect } from './matchers.ts';
import { redactBody, redactKnown, redactKnownHeaders, redactKnownIn } from '../http/redact.ts';
import { expandPath, queryString } from '../http/request.ts';
import { ApiResponse, type Contracts } from './api-response.ts';
import type { FailureRequest } from '../lib/failure.ts';
import type { RecordedExchange } from '../lib/exchange.ts';
import { PROXY_BODY_ERROR_HEADER, PROXY_ERROR_HEADER, type AuthMode } from './auth-proxy.ts';
import type { RunThrottle } from './run-throttle.ts';

/** A silent target fails the request with a clear message (the auth proxy gives up after 10 s) before the test's timeout. */
const REQUEST_TIMEOUT_MS = 12_000;

export type Query = Record<string, string | number | boolean | undefined>;

/** How a failure names the credentials a request went with (the auth proxy adds them; their values never show). */
const CREDENTIALS = { valid: 'configured', none: 'none', wrong: 'wrong password' } as const satisfies Record<AuthMode, FailureRequest['credentials']>;

export interface CallOptions {
  path?: Record<string, string | number>;
  query?: Query;
  /** A JSON body, serialised by the client. */
  json?: unknown;
  /** A body sent as is (broken JSON, odd types), with Content-Type application/json unless headers say otherwise. */
  raw?: string;
  headers?: Record<string, string>;
}

/** An exchange as the client records it; the recorder adds the test that sent it. */
export type Exchange = Omit<RecordedExchange, 'test'>;

/** What a project may add around each request: the probes count theirs; every test records additions. */
export interface ClientHooks {
  /** Before each send of a request; `attempt` is 1 for the first, more for a send after a throttled answer. */
  beforeRequest?: (attempt: number) => void;
  /** The response the call returns. */
  afterResponse?: (response: ApiResponse) => void;
}

export class ApiClient {
  constructor(
    private readonly context: APIRequestContext,
    private readonly contracts: Contracts,
    readonly auth: AuthMode,
    private readonly throttle: RunThrottle,
    private readonly record: (exchange: Exchange) => void,
    private readonly hooks: ClientHooks = {},
    /** false only outside the tests (the run's setup): a 5xx or a broken body is evidence, not a failed expect. */
    private readonly serverErrorsFail = true,
  ) {}

  /** The relative URL of an operation with its path parameters filled in (values are URI-encoded). */
  url(operationId: OperationId, path: Record<string, string | number> = {}): string {
    // Relative to the context's base URL ({base_url}/api/), so without the leading slash.
    return expandPath(this.contracts.spec.operation(operationId).path, path).slice(1);
  }

  /**
   * One request with its own timeout. An unreachable target (reported by the auth proxy or by Playwright) is an
   * error naming the operation; only the first line of Playwright's message is kept, not its call log.
   */
  private async send(op: Operation, request: ApiResponse['request'], url: string, options: Parameters<APIRequestContext['fetch']>[1]) {
    let reason: string;
    let statusCame = false;
    try {
      const response = await this.context.fetch(url, { ...options, timeout: REQUEST_TIMEOUT_MS });
      const proxyError = response.headers()[PROXY_ERROR_HEADER];
      if (proxyError === undefined) return response;
      reason = proxyError;
      const status = response.headers()[PROXY_BODY_ERROR_HEADER];
      statusCame = status !== undefined;
      // Outside a test (the run's setup) there is no test to record it on: the error below says it all.
      if (status !== undefined && this.serverErrorsFail) {
        // An answer whose body broke off (shorter than its Content-Length, a connection cut): the target's failure.
        const partial = new ApiResponse(op, request, Number(status), {}, '', Buffer.alloc(0), this.contracts);
        expect.soft(partial).toHold({
          check: 'complete_body',
          at: 'body (incomplete)',
          section: '7',
          expected: 'the whole body the answer announces (RFC 9112 §6.3)',
          observed: 'the body broke off',
          holds: () => false,
          details: { reason },
        });
      }
    } catch (err) {
      reason = String((err as Error).message).split('\n')[0] ?? '';
    }
    throw new Error(`${op.label}: no ${statusCame ? 'whole ' : ''}response from the target (${reason}); request ${request.method} ${request.path}`);
  }

  async call(operationId: OperationId, options: CallOptions = {}): Promise<ApiResponse> {
    const op = this.contracts.spec.operation(operationId);
    const url = this.url(operationId, options.path);
    const params: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) params[k] = v;
    const headers = { ...options.headers };
    let data: string | undefined;
    if (options.raw !== undefined) {
      data = options.raw;
      headers['content-type'] ??= 'application/json';
    } else if (options.json !== undefined) {
      data = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    // The request as a failure keeps it; Playwright encodes `params` itself.
    const shownQuery = queryString(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
    const request: ApiResponse['request'] = {
      method: op.method,
      path: `/api/${url}${shownQuery}`,
      credentials: CREDENTIALS[this.auth],
      ...(data === undefined ? {} : { contentType: headers['content-type'], body: redactBody(data) }),
    };
    // Every answer is recorded, a throttled one too (marked): the run's HAR holds every request it sent.
    const record = (res: ApiResponse, statusText: string, started: number, ms: number, throttled: boolean) =>
      this.record({
        operationId,
        request: redactKnownIn(request),
        startedAt: new Date(started).toISOString(),
        ms,
        status: res.status,
        statusText,
        headers: redactKnownHeaders(res.headers),
        contentType: res.contentType ?? null,
        contentLength: res.headers['content-length'] ?? null,
        body: redactKnown(res.text),
        ...(throttled ? { throttled: true as const } : {}),
      });
    let result: ApiResponse;
    for (let attempt = 1; ; attempt++) {
      await this.throttle.beforeSend();
      this.hooks.beforeRequest?.(attempt);
      const started = Date.now();
      const response = await this.send(op, request, url, { method: op.method, params, headers, data, failOnStatusCode: false, maxRedirects: 0 });
      const bytes = await response.body();
      const ms = Date.now() - started;
      result = new ApiResponse(op, request, response.status(), response.headers(), bytes.toString('utf8'), bytes, this.contracts);
      let again: boolean;
      try {
        again = await this.throttle.again(operationId, op.label, result, attempt);
      } catch (err) {
        record(result, response.statusText(), started, ms, true);
        throw err;
      }
      record(result, response.statusText(), started, ms, again);
      if (!again) break;
    }
    this.hooks.afterResponse?.(result);
    // Raised only when it fails: a passing expect per request would be a Playwright step (a stack) per request.
    if (this.serverErrorsFail && result.status >= 500) expect.soft(result).toMatchContract({ only: ['not_a_server_error'] });
    return result;
  }
}
