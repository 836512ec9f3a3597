// The suite's API client: calls operations by operationId (paths come from the OpenAPI document), never throws on
// a status, waits out throttling (contract/target/run-throttle.ts: a 429 is never a finding), records every exchange (the
// run's HAR, read by the coverage matrix and the overlay check), and fails softly on any 5xx (a server error is always a failure, whatever test saw it).
import type { Operation } from '../../openapi/document.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import { expect, judge, notJudged } from '../judging/matchers.ts';
import { redactBody, redactKnown, redactKnownHeaders, redactKnownIn } from '../../http/redact.ts';
import { expandPath, queryString } from '../../http/request.ts';
import { ApiResponse, type Contracts } from '../core/api-response.ts';
import type { FailureRequest } from '../../lib/failure.ts';
import type { RecordedExchange } from '../../lib/exchange.ts';
import type { ExpectationRecord } from '../core/journal.ts';
import { ThrottledOut, type RunThrottle } from './run-throttle.ts';
import { RunStopped, type RunHealth } from './run-health.ts';
import { runWait } from '../core/run-waits.ts';
import { resendDelaySeconds, transientKind, type TransientKind } from '../../http/health.ts';
import type { AuthMode, TargetTransport } from './target-transport.ts';

/** A silent target fails the request with a clear message after 10 s, before the test's timeout (20 s). */
const REQUEST_TIMEOUT_MS = 10_000;

/** The exchanges this process recorded: with its pid, each one's id in the run (lib/exchange.ts exchangeId). */
let exchanges = 0;

export type Query = Record<string, string | number | boolean | undefined>;

/** How a failure names the credentials a request went with (the transport adds them; their values never show). */
const CREDENTIALS = { valid: 'configured', none: 'none', wrong: 'wrong password' } as const satisfies Record<AuthMode, FailureRequest['credentials']>;

export interface CallOptions {
  path?: Record<string, string | number>;
  query?: Query;
  /** A JSON body, serialised by the client. */
  json?: unknown;
  /** A body sent as is (broken JSON, odd types), with Content-Type application/json unless headers say otherwise. */
  raw?: string;
  headers?: Record<string, string>;
  /**
   * The caller judges the answer, a server error too: a generated case (contract/api/generated-cases.ts), of which only
   * the smallest that fails is recorded, not each one tried on the way to it.
   */
  judgedByCaller?: boolean;
}

/** An exchange as the client records it; the recorder adds the test that sent it. */
export type Exchange = Omit<RecordedExchange, 'test'>;

/** What a project may add around each request: the probes count theirs; every test records additions. */
export interface ClientHooks {
  /** Before each send of a request; `attempt` is 1 for the first, more for a send after a throttled answer. */
  beforeRequest?: (attempt: number) => void;
  /** Its sends go ahead of the others waiting in the run's pace: the probes', one at a time, which the run waits for. */
  paceFirst?: boolean;
  /** The response the call returns. */
  afterResponse?: (response: ApiResponse) => void;
  /** The test cannot judge: its request lost its answer and must not be resent, or the run stopped. */
  inconclusive?: (reason: string) => void;
  /** Its requests probe what the spec leaves unsaid: their answers are observations (lib/exchange.ts `probing`). */
  probing?: string;
  /** What a test held an answer to, journalled beside the exchange (the run's HAR carries it). */
  heldTo?: (record: ExpectationRecord) => void;
  /**
   * Around each request that creates a dialog, and each window that tells which dialog a create made (`creating`):
   * the run's create lock (contract/target/create-lock.ts).
   */
  aroundCreate?: <T>(create: () => Promise<T>) => Promise<T>;
}

export class ApiClient {
  constructor(
    private readonly transport: TargetTransport,
    private readonly contracts: Contracts,
    readonly auth: AuthMode,
    private readonly throttle: RunThrottle,
    private readonly health: RunHealth,
    private readonly record: (exchange: Exchange) => void,
    private readonly hooks: ClientHooks = {},
    /** false only outside the tests (the run's setup): a 5xx or a broken body is evidence, not a failed expect. */
    private readonly serverErrorsFail = true,
  ) {}

  /** The relative URL of an operation with its path parameters filled in (values are URI-encoded). */
  url(operationId: OperationId, path: Record<string, string | number> = {}): string {
    // Relative to the target's API (<API_BASE_URL>/api/), so without the leading slash.
    return expandPath(this.contracts.spec.operation(operationId).path, path).slice(1);
  }

  /**
   * A request whose answer the network lost (http/health.ts): sent again when it may be sent twice and resends are
   * left (true), else the loss is final (false: the caller judges what it has). One that must not be sent twice
   * makes its test inconclusive.
   */
  private async lost(op: Operation, kind: TransientKind, resends: number, what: string): Promise<boolean> {
    // A refused connection delivered nothing: any request may go again.
    const safe = (op.method === 'GET' && !op.creates) || kind === 'refused';
    // A timeout costs its whole wait: once again at most, within the test's time.
    const limit = kind === 'timeout' ? Math.min(1, this.health.settings.maxResends) : this.health.settings.maxResends;
    if (safe && resends < limit) {
      this.health.transient(op.operationId, kind, true);
      await runWait(resendDelaySeconds(resends + 1, Math.random) * 1000);
      return true;
    }
    if (safe) return false;
    this.inconclusive(
      op,
      kind,
      `inconclusive: ${op.label} lost its answer (${what}) and must not be sent twice (it ${op.creates ? 'creates a dialog' : 'changes state'}): the test could not judge`,
    );
  }

  /** The test cannot judge: said on the test (never a contract failure) and thrown. */
  private inconclusive(op: Operation, kind: TransientKind, reason: string): never {
    this.health.transient(op.operationId, kind, false);
    this.hooks.inconclusive?.(reason);
    throw new RunStopped(reason);
  }

  /** `fn` while no other worker of the run creates a dialog; the creates it makes itself go through. */
  creating<T>(fn: () => Promise<T>): Promise<T> {
    return this.hooks.aroundCreate ? this.hooks.aroundCreate(fn) : fn();
  }

  call(operationId: OperationId, options: CallOptions = {}): Promise<ApiResponse> {
    const op = this.contracts.spec.operation(operationId);
    return op.creates ? this.creating(() => this.exchange(op, operationId, options)) : this.exchange(op, operationId, options);
  }

  private async exchange(op: Operation, operationId: OperationId, options: CallOptions): Promise<ApiResponse> {
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
    // The request as it is sent is the one a failure keeps.
    const shownQuery = queryString(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
    const request: ApiResponse['request'] = {
      method: op.method,
      path: `/api/${url}${shownQuery}`,
      credentials: CREDENTIALS[this.auth],
      ...(data === undefined ? {} : { contentType: headers['content-type'], body: redactBody(data) }),
    };
    // Every answer is recorded, a throttled one too (marked): the run's HAR holds every request it sent.
    const record = (res: ApiResponse, statusText: string, started: number, ms: number, throttled: boolean, transient = false) => {
      res.exchangeId = `${process.pid}.${++exchanges}`;
      this.record({
        exchangeId: res.exchangeId,
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
        ...(transient ? { transient: true as const } : {}),
        ...(this.hooks.probing ? { probing: this.hooks.probing } : {}),
      });
    };
    let result: ApiResponse;
    try {
      for (let attempt = 1, resends = 0; ; attempt++) {
        this.health.check();
        // The limit is the configured credentials' (what the pace learns it from): a request without them, or a custom
        // block's call on its token, is not held to it.
        await this.throttle.beforeSend(this.auth === 'valid', this.hooks.paceFirst);
        this.hooks.beforeRequest?.(attempt);
        const started = Date.now();
        const sent = await this.transport.send(this.auth, {
          method: op.method,
          path: `${url}${shownQuery}`,
          headers,
          ...(data === undefined ? {} : { body: data }),
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
        if ('lost' in sent) {
          this.health.record(operationId, { kind: 'transport', what: sent.lost });
          // An answer whose status came and whose body broke off is the target's; no answer at all is the network's.
          if (sent.status === undefined) {
            const kind = transientKind({ kind: 'transport', what: sent.lost })!;
            if (!(await this.lost(op, kind, resends, sent.lost)))
              this.inconclusive(op, kind, `inconclusive: ${op.label} got no answer ${resends + 1} times (${sent.lost}): the test could not judge`);
            resends++;
            continue;
          }
          if (this.serverErrorsFail) {
            // An answer whose body broke off on every send (shorter than its Content-Length): the target's failure.
            const partial = new ApiResponse(op, request, sent.status, {}, '', Buffer.alloc(0), this.contracts);
            judge(partial, 'complete_body', { whole: false, reason: sent.lost });
            notJudged(`${op.label} answered no whole body (${sent.lost}), and complete_body is left out of this run`);
          }
          // Outside a test (the run's setup) there is no test to record it on: the error says it all.
          throw new Error(`${op.label}: no whole response from the target (${sent.lost}); request ${request.method} ${request.path}`);
        }
        const { response } = sent;
        const bytes = response.body;
        const ms = Date.now() - started;
        result = new ApiResponse(op, request, response.status, response.headers, bytes.toString('utf8'), bytes, this.contracts, {
          startedMs: started,
          endedMs: Date.now(),
        });
        const outcome = { kind: 'answer', status: result.status, retryAfter: result.headers['retry-after'] !== undefined } as const;
        this.health.record(operationId, outcome);
        const gateway = transientKind(outcome);
        if (gateway) {
          let resend: boolean;
          try {
            resend = await this.lost(op, gateway, resends, `${result.status} from a gateway`);
          } catch (err) {
            record(result, response.statusText, started, ms, false, true);
            throw err;
          }
          if (resend) {
            record(result, response.statusText, started, ms, false, true);
            resends++;
            continue;
          }
        }
        let again: boolean;
        try {
          again = await this.throttle.again(operationId, op.label, result, attempt);
        } catch (err) {
          record(result, response.statusText, started, ms, true);
          if (err instanceof ThrottledOut) this.health.giveUp(err.message);
          throw err;
        }
        record(result, response.statusText, started, ms, again);
        if (!again) break;
      }
    } catch (err) {
      if (err instanceof RunStopped) this.hooks.inconclusive?.(err.message);
      throw err;
    }
    const heldTo = this.hooks.heldTo;
    if (heldTo) {
      const exchangeId = result.exchangeId;
      if (exchangeId !== undefined) result.noteExpectation = (x) => heldTo({ exchangeId, heldTo: x });
    }
    this.hooks.afterResponse?.(result);
    // Raised only when it fails: a passing expect per request would be a Playwright step (a stack) per request.
    if (this.serverErrorsFail && !options.judgedByCaller && result.status >= 500) expect.soft(result).toMatchContract({ only: ['not_a_server_error'] });
    return result;
  }
}
