// Requests by operationId (paths, methods and auth come from the OpenAPI document at build time). Tags name the
// operation, never the URL, so dialog UUIDs and query strings do not explode the metric series.
import { sleep } from 'k6';
import encoding from 'k6/encoding';
import http, { type RefinedResponse } from 'k6/http';
import { operations } from 'generated:api';
import { requestUrl, type ApiRequest, type OperationInfo } from '../../../lib/api-request.ts';
import { headerValue, retryDelaySeconds, type ProbeResponse } from '../../../lib/size-limits.ts';
import { config } from './config.ts';

const authorization = `Basic ${encoding.b64encode(`${config.login}:${config.password}`)}`;

export function operation(operationId: string): OperationInfo {
  const found = operations[operationId];
  if (!found) throw new Error(`operation ${operationId} is not in the OpenAPI document`);
  return found;
}

export function call(request: ApiRequest): RefinedResponse<'text'> {
  const op = operation(request.operationId);
  const headers: Record<string, string> = {};
  if (op.basicAuth) headers.Authorization = authorization;
  if (request.json !== undefined) headers['Content-Type'] = 'application/json';
  const body = request.json === undefined ? null : JSON.stringify(request.json);
  return http.request(op.method, requestUrl(config.baseUrl, op, request), body, {
    headers,
    tags: { operation: op.operationId, name: op.label },
    responseType: 'text',
  });
}

/** call(), waiting out 429/503 a few times: for setup(), never for the load being measured. */
export function callPolitely(request: ApiRequest, attempts = 4): RefinedResponse<'text'> {
  let response = call(request);
  for (let attempt = 1; attempt < attempts; attempt++) {
    const wait = retryDelaySeconds(response.status, headerValue(response.headers, 'Retry-After'));
    if (wait === null) break;
    sleep(wait);
    response = call(request);
  }
  return response;
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
