// Requests by operationId (paths, methods and auth come from the OpenAPI document at build time). Tags name the
// operation, never the URL, so dialog UUIDs and query strings do not explode the metric series.
import { sleep } from 'k6';
import http, { type RefinedResponse } from 'k6/http';
import { operations } from 'generated:api';
import { basicAuthorization } from '../../../config/suite-config.ts';
import { requestUrl, type ApiRequest, type OperationInfo } from '../../../http/request.ts';
import { throttleDecision } from '../../../http/throttle.ts';
import type { ProbeResponse } from '../../../discovery/size-limits.ts';
import { config } from './config.ts';

const authorization = basicAuthorization(config.login, config.password);

/** What http.expectedStatuses() makes (its type is not exported). */
type ExpectedStatuses = ReturnType<typeof http.expectedStatuses>;

export function operation(operationId: ApiRequest['operationId']): OperationInfo {
  const found = operations[operationId];
  if (!found) throw new Error(`operation ${operationId} is not in the OpenAPI document`);
  return found;
}

/** One request; `expected` replaces the script's expected statuses for it (see expectStatuses()). */
export function call(request: ApiRequest, expected?: ExpectedStatuses): RefinedResponse<'text'> {
  const op = operation(request.operationId);
  const headers: Record<string, string> = {};
  if (op.basicAuth) headers.Authorization = authorization;
  if (request.json !== undefined) headers['Content-Type'] = 'application/json';
  const body = request.json === undefined ? null : JSON.stringify(request.json);
  return http.request(op.method, requestUrl(config.baseUrl, op, request), body, {
    headers,
    tags: { operation: op.operationId, name: op.label },
    responseType: 'text',
    // Only when given: k6 reads a responseCallback of null as "no request ever fails".
    ...(expected ? { responseCallback: expected } : {}),
  });
}

/** Seconds this VU has waited on throttles: THROTTLE_MAX_WAIT_S bounds it. */
let throttledSeconds = 0;

/** call(), waiting out 429/503 as THROTTLE_MAX_RETRIES and THROTTLE_MAX_WAIT_S allow: for setup, never for the load being measured. */
export function callPolitely(request: ApiRequest, expected?: ExpectedStatuses): RefinedResponse<'text'> {
  for (let attempt = 1; ; attempt++) {
    const response = call(request, expected);
    const decision = throttleDecision(response, attempt, throttledSeconds, config.throttle, Math.random, Date.now());
    if (!decision.throttled || !decision.retry) return response;
    throttledSeconds += decision.waitSeconds;
    sleep(decision.waitSeconds);
  }
}

export function asProbeResponse(response: RefinedResponse<'text'>): ProbeResponse {
  return { status: response.status, headers: response.headers, body: response.body ?? '' };
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonBody(response: RefinedResponse<'text'>): unknown {
  try {
    return JSON.parse(response.body ?? '');
  } catch {
    return undefined;
  }
}
