// The size limits the specification leaves "not shown" (§8.3, §8.4), each as a search range and a request builder.
// Pure: the k6 size-limits script sends these requests with k6/http, the Node tests and probes with fetch; both run
// the same search (discovery/limit-search.ts) over the same definitions.
import type { ApiRequest } from '../http/request.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { renderBody } from '../http/body-template.ts';
import { DEFAULT_THROTTLE, headerValue, throttleDecision, type ThrottleSettings } from '../http/throttle.ts';
import { searchLimit, type LimitSearchResult } from './limit-search.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import type { SizeLimitId, SizeLimitObserved } from '../lib/observations.ts';
import { redactText } from '../http/redact.ts';
import { bodyShape } from '../lib/shape.ts';

export interface ProbeContext {
  botId: number;
  /** UUID of a dialog an operator can send to (created, started, stopped). */
  dialogUuid?: string;
  /** Template of the send body (spec §4.2: field not shown): SEND_BODY, or the shape the run discovered. */
  sendBody?: string;
  /** Integration token of a running custom block (VERTEX_TOKEN). */
  vertexToken?: string;
}

export interface SizeLimit {
  /** Stable fingerprint id. */
  id: SizeLimitId;
  section: string;
  item: string;
  operationId: OperationId;
  lower: number;
  upper: number;
  /** What the context must hold for this search to run. */
  needs: ReadonlyArray<'dialogUuid' | 'vertexToken' | 'sendBody'>;
  request(value: number, context: ProbeContext): ApiRequest;
  /** For a value echoed back (PageCount as per_page): what an accepted answer served, to tell a clamp from a match. */
  served?(body: unknown): number | undefined;
}

// Texts and variables are searched up to 64 KiB: far beyond any chat message or variable set, and small enough
// that a target without a limit costs 18 requests of modest bodies, not 22 of up to a mebibyte.
const SIZE_CAP = 64 * 1024;

/** ASCII, so its length is its size in characters, UTF-16 units and bytes alike. */
export const textOfLength = (n: number): string => 'x'.repeat(n);

/** A JSON object serialized as a string of exactly n bytes (n ≥ 2): padded with spaces when too small for a field. */
export function variablesOfBytes(n: number): string {
  const envelope = '{"v":""}'.length;
  return n < envelope ? `{${' '.repeat(n - 2)}}` : `{"v":"${textOfLength(n - envelope)}"}`;
}

export const SIZE_LIMITS: readonly SizeLimit[] = [
  {
    id: 'limit.maxPageCount',
    section: '8.3',
    item: 'largest accepted PageCount',
    operationId: 'getV2Conversations',
    lower: 1,
    upper: 10_000,
    needs: [],
    request: (value) => ({ operationId: 'getV2Conversations', pathParams: {}, query: { PageCount: String(value) } }),
    served: (body) => {
      const perPage = (body as { meta?: { pagination?: { per_page?: unknown } } } | undefined)?.meta?.pagination?.per_page;
      return typeof perPage === 'number' ? perPage : undefined;
    },
  },
  {
    id: 'limit.maxTextLength.send',
    section: '8.4',
    item: 'longest accepted operator message text (characters)',
    operationId: 'postV2ConversationSend',
    lower: 1,
    upper: SIZE_CAP,
    needs: ['dialogUuid', 'sendBody'],
    request: (value, c) => ({
      operationId: 'postV2ConversationSend',
      pathParams: { uuid: c.dialogUuid ?? '' },
      json: renderBody(c.sendBody ?? '', { text: textOfLength(value) }),
    }),
  },
  {
    id: 'limit.maxTextLength.sendMessage',
    section: '8.4',
    item: 'longest accepted custom-block message text (characters)',
    operationId: 'postVertexSendMessage',
    lower: 1,
    upper: SIZE_CAP,
    needs: ['vertexToken'],
    request: (value, c) => ({
      operationId: 'postVertexSendMessage',
      pathParams: {},
      json: { token: c.vertexToken ?? '', text: textOfLength(value), typing: false },
    }),
  },
  {
    // In the JSON body, not the query: a query string of more than a few KiB hits URL limits of HTTP servers first.
    id: 'limit.maxVariablesBytes',
    section: '8.4',
    item: 'largest accepted variables (bytes of the serialized JSON object)',
    operationId: 'postV2DialogCreate',
    lower: 2,
    upper: SIZE_CAP,
    needs: [],
    request: (value, c) => ({
      operationId: 'postV2DialogCreate',
      pathParams: { BotID: c.botId },
      json: { variables: variablesOfBytes(value), response: true },
    }),
  },
];

/** Statuses that mean "this value is refused"; 2xx means accepted; anything else (401, 403, 429, 5xx) is no answer. */
export const REFUSALS = [400, 404, 413, 414, 422, 431];

export function probeVerdict(status: number): boolean | null {
  if (status >= 200 && status < 300) return true;
  return REFUSALS.includes(status) ? false : null;
}

/** How the first rejected value was refused: an error answer, or a success that served less than asked (a clamp). */
export interface Refusal {
  status: number;
  contentType: string | null;
  body: string;
  /** The value a clamping target served instead (PageCount above its maximum answered with a smaller per_page). */
  clampedTo?: number;
}

/** The outcome of one size search, as the load report carries it; `result` is null when it could not run. */
export interface SizeLimitFinding {
  id: string;
  operation: string;
  result: LimitSearchResult | null;
  /** Why the search did not run (e.g. no VERTEX_TOKEN). */
  skipped?: string;
  /** Why an inconclusive search could not tell (the answer that was neither a yes nor a no). */
  unclear?: string;
  refusal: Refusal | null;
}

/** One line for the text summary. */
export function sizeLimitLine(finding: SizeLimitFinding): string {
  const { result, refusal } = finding;
  const head = `${finding.id} (${finding.operation})`;
  if (!result) return `${head}: not searched, ${finding.skipped ?? 'no reason given'}`;
  const refused = refusal?.clampedTo !== undefined ? ` clamped to ${refusal.clampedTo}` : refusal ? ` refused with ${refusal.status}` : '';
  const found =
    result.outcome === 'found'
      ? `${result.limit} (${result.firstRejected}${refused})`
      : result.outcome === 'below-lower'
        ? `nothing accepted (${result.firstRejected}${refused})`
        : result.outcome === 'above-upper'
          ? `no limit up to ${result.limit}`
          : `could not tell: ${finding.unclear ?? 'no clear answer'} (accepted up to ${result.limit ?? 'nothing'}, refused from ${result.firstRejected ?? 'nothing yet'})`;
  return `${head}: ${found}, ${result.requests} requests (bound ${result.bound})`;
}

/** Fingerprint item of a search that ran: outcome, bracket, and how it was refused (status, type, body shape). */
export function sizeLimitFingerprint(
  limit: SizeLimit,
  operation: string,
  result: LimitSearchResult,
  refusal: Refusal | null,
): FingerprintItem & { id: SizeLimitId; observed: SizeLimitObserved } {
  return {
    id: limit.id,
    section: limit.section,
    operation,
    item: limit.item,
    observed: {
      outcome: result.outcome,
      largestAccepted: result.limit,
      firstRejected: result.firstRejected,
      refusal: refusal?.clampedTo !== undefined ? 'clamped' : refusal ? 'refused' : null,
      ...(refusal?.clampedTo !== undefined ? { clampedTo: refusal.clampedTo } : {}),
      refusalStatus: refusal?.status ?? null,
      refusalContentType: refusal?.contentType ?? null,
      // The body's shape (keys and kinds, no values): the spec shows no error body (§7), and values vary by run.
      refusalBody: refusal && refusal.clampedTo === undefined ? bodyShape(refusal.body) : null,
    },
  };
}

export interface ProbeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the search asks its driver for: send a request, or wait before asking again (429, 503). A 503 costs up to two
 * more requests (a control and a resend) beyond the search's bound, to tell a refusal from an overload.
 */
export type SizeSearchStep = { kind: 'send'; request: ApiRequest } | { kind: 'wait'; seconds: number };

export interface SizeSearchOptions {
  /** How QA names the operation ("POST /v2/conversation/{uuid}/send"), for the finding. */
  operation: string;
  /** Removed from refusal bodies before they are kept. */
  secrets: ReadonlyArray<string | undefined>;
  /** How long and how often to wait out 429/503 (the run's THROTTLE_* settings). */
  throttle?: ThrottleSettings;
  random?: () => number;
  now?: () => number;
}

/** Long enough for any JSON error body to keep its shape; a proxy's HTML page is cut. */
const BODY_EXCERPT = 16 * 1024;

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One size search as a generator of steps (see discovery/drive.ts): the same politeness (429/503 waited out by the run's
 * throttle policy, http/throttle.ts) and the same bookkeeping (how the first rejected value was refused, or clamped)
 * for every driver.
 */
export function* sizeLimitSearch(
  limit: SizeLimit,
  context: ProbeContext,
  options: SizeSearchOptions,
): Generator<SizeSearchStep, SizeLimitFinding, ProbeResponse | undefined> {
  const { operation, secrets, throttle = DEFAULT_THROTTLE, random = Math.random, now = Date.now } = options;
  const missing = limit.needs.filter((need) => !context[need]);
  if (missing.length > 0) {
    return { id: limit.id, operation, result: null, skipped: `no ${missing.join(' or ')} in the context`, refusal: null };
  }
  const refusals = new Map<number, Refusal>();
  const search = searchLimit(limit);
  let waited = 0;
  let largestAccepted: number | undefined;
  let unclear: string | undefined;
  let next = search.next();
  while (!next.done) {
    const value = next.value;
    let verdict: boolean | null = null;
    let controlled = false;
    let controlStatus: number | undefined;
    for (let attempt = 1; ; attempt++) {
      let response = yield { kind: 'send', request: limit.request(value, context) };
      if (!response) throw new Error('the driver must answer a send step with the response');
      // A 503 is an overloaded target, or this value refused: a value known to pass, sent right away, tells them
      // apart. Passing, and the value refused again, it is a refusal; refused too, it is a throttle to wait out.
      const control = largestAccepted ?? limit.lower;
      if (response.status === 503 && !controlled && control !== value) {
        controlled = true;
        const check = yield { kind: 'send', request: limit.request(control, context) };
        controlStatus = check?.status;
        if (check && probeVerdict(check.status) === true) {
          response = yield { kind: 'send', request: limit.request(value, context) };
          if (!response) throw new Error('the driver must answer a send step with the response');
        }
      }
      // The value refused with 503 again right after a value that passed: the refusal is this value's.
      const refusedBy503 = response.status === 503 && controlStatus !== undefined && probeVerdict(controlStatus) === true;
      const decision = refusedBy503 ? { throttled: false as const } : throttleDecision(response, attempt, waited, throttle, random, now());
      if (decision.throttled && decision.retry) {
        waited += decision.waitSeconds;
        yield { kind: 'wait', seconds: decision.waitSeconds };
        continue;
      }
      // Only a control that did not pass says the target was overloaded, not this value refused.
      const controlFailed = controlStatus !== undefined && probeVerdict(controlStatus) !== true;
      if (decision.throttled)
        unclear = `${value}: ${decision.why}${controlFailed ? `, and ${control}, a value that passed, answered ${controlStatus} too` : ''}`;
      verdict = refusedBy503 ? false : decision.throttled ? null : probeVerdict(response.status);
      if (verdict === null && !decision.throttled) unclear = `${value} answered ${response.status}, neither accepted nor refused`;
      const contentType = headerValue(response.headers, 'Content-Type') ?? null;
      const served = verdict === true && limit.served ? limit.served(jsonOf(response.body)) : undefined;
      if (served !== undefined && served < value) {
        verdict = false;
        refusals.set(value, { status: response.status, contentType, body: '', clampedTo: served });
      } else if (verdict === false) {
        refusals.set(value, { status: response.status, contentType, body: redactText(response.body.slice(0, BODY_EXCERPT), secrets) });
      }
      break;
    }
    if (verdict === true) largestAccepted = value;
    next = search.next(verdict);
  }
  const result = next.value;
  return {
    id: limit.id,
    operation,
    result,
    refusal: result.firstRejected === null ? null : (refusals.get(result.firstRejected) ?? null),
    ...(unclear && result.outcome === 'inconclusive' ? { unclear } : {}),
  };
}
