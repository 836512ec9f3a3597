// The Node counterpart of the scripts' k6 client (load/scripts/common/api.ts): requests by operationId over fetch,
// answering with the ProbeResponse the shared searches read. Used by the runner and the tests.
import { basicAuthorization } from '../config/suite-config.ts';
import { requestUrl, type ApiRequest } from '../http/request.ts';
import type { ProbeResponse } from '../discovery/size-limits.ts';
import { operationsTable } from './openapi-data.ts';

export type Send = (request: ApiRequest, signal?: AbortSignal) => Promise<ProbeResponse>;

export function nodeClient(baseUrl: string, login: string, password: string): Send {
  const operations = operationsTable();
  const authorization = basicAuthorization(login, password);
  return async (request, signal) => {
    const op = operations[request.operationId];
    if (!op) throw new Error(`operation ${request.operationId} is not in the OpenAPI document`);
    const headers: Record<string, string> = {};
    if (op.basicAuth) headers.authorization = authorization;
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(requestUrl(baseUrl, op, request), {
      method: op.method,
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      redirect: 'manual',
      signal,
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
}
