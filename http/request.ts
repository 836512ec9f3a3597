// A request named by its OpenAPI operationId, turned into a method and URL by whichever HTTP client sends it
// (k6/http in the load scripts, fetch in Node). Pure: builds paths and queries without the URL class k6 lacks.
import type { OperationId } from '../openapi/operations.generated.ts';

export interface ApiRequest {
  operationId: OperationId;
  pathParams: Record<string, string | number>;
  query?: Record<string, string>;
  json?: unknown;
}

/** How the operations table (built from the OpenAPI document) describes an operation. */
export interface OperationInfo {
  operationId: OperationId;
  method: string;
  /** Path template below /api, e.g. "/v2/conversation/{uuid}/send". */
  path: string;
  /** How QA names it, e.g. "POST /v2/conversation/{uuid}/send". */
  label: string;
  basicAuth: boolean;
}

/** "/v2/conversation/{uuid}/send" with {uuid: "…"} → "/v2/conversation/…/send" (values URI-encoded). */
export function expandPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** "?a=1&b=2"; "" for no query. */
export function queryString(query: Record<string, string> | undefined): string {
  const pairs = Object.entries(query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/** The URL of a request below `baseUrl` (which has no /api: the API lives under {base_url}/api, spec address convention). */
export function requestUrl(baseUrl: string, operation: OperationInfo, request: ApiRequest): string {
  return `${baseUrl.replace(/\/+$/, '')}/api${expandPath(operation.path, request.pathParams)}${queryString(request.query)}`;
}
