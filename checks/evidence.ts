// The evidence of a recording, as any check of a kind can read it: one exchange as plain data (method, path, query,
// bodies, headers), whoever recorded it (the suite's client, a proxy, a browser's DevTools). What the suite's own
// tests gather for the project's checks is richer (the vendor's clock, the asked query, reads again); a team's check
// (CHECKS_MODULE) and `npm run judge` read this. Pure.
import type { FailureExchange, FailureRequest } from '../lib/failure.ts';
import type { RecordedExpectation } from '../lib/exchange.ts';
import type { OperationId } from '../openapi/operations.generated.ts';

/** One request and its answer. Credentials are never in it: only which went with the request. */
export interface ExchangeEvidence {
  /** The operation of the document the request names; null for a request the document does not describe. */
  operationId: OperationId | null;
  method: string;
  /** Path and query below the base URL: "/api/v2/conversations?BotID=101". */
  path: string;
  /** The query, decoded, one value per name (the last one sent). */
  query: Readonly<Record<string, string>>;
  /** The path parameters the document's path names: { uuid: "…" }. */
  pathParams: Readonly<Record<string, string>>;
  request: { credentials: FailureRequest['credentials'] | 'a token'; contentType: string | null; body: string | undefined };
  /**
   * Why the answer is an observation of what the spec leaves unsaid, where the recorder knew it (the suite's own
   * journal and HAR: a probe's request, the setup's discovery); its status is then not held to §7's list.
   */
  probing?: string;
  /** Who sent it, where the recorder knew it (the suite's test). */
  test?: string;
  /** The dialog a create made, where its answer does not name it (a V2 GET create) and the recorder found it. */
  dialog?: string;
  /** What its sender held the answer to beyond the document's statuses, where the recorder knew it (the suite's test). */
  expected?: RecordedExpectation;
  response: {
    status: number;
    /** Lower-case names, credential-carrying ones left out. */
    headers: Readonly<Record<string, string>>;
    contentType: string | null;
    /** The body as text ('' for none). */
    body: string;
    /** The body's bytes, for what text cannot tell (a file). */
    bytes: Uint8Array;
  };
  /** When the request was sent and its answer came whole (ms since the epoch, the recorder's clock). */
  startedMs: number;
  endedMs: number;
}

/** Each answer's body parsed once: the engine's feeders read one list page many times. Read only: never edit it. */
const parsed = new WeakMap<object, unknown>();

/** The body as JSON, or undefined when it is none. */
export function jsonOf(exchange: Pick<ExchangeEvidence, 'response'>): unknown {
  if (parsed.has(exchange.response)) return parsed.get(exchange.response);
  let json: unknown;
  try {
    json = JSON.parse(exchange.response.body);
  } catch {
    json = undefined;
  }
  parsed.set(exchange.response, json);
  return json;
}

/** Form encoding read back (+ as a space, percent escapes decoded); a text that is no valid encoding kept as sent. */
export function formDecoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** "a=1&b=%20" of a path → { a: "1", b: " " } (a part that is not valid percent-encoding is kept as sent). */
export function queryOf(path: string): Record<string, string> {
  const at = path.indexOf('?');
  const out: Record<string, string> = {};
  if (at < 0) return out;
  for (const pair of path
    .slice(at + 1)
    .split('&')
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    out[formDecoded(eq < 0 ? pair : pair.slice(0, eq))] = eq < 0 ? '' : formDecoded(pair.slice(eq + 1));
  }
  return out;
}

/** An operation as the document names it: its method and path template ("/v2/conversation/{uuid}"). */
export interface OperationPath {
  operationId: OperationId;
  method: string;
  path: string;
}

/**
 * The operation a request names, and its path parameters: the document's path templates below the `/api` every
 * address carries (spec: {base_url}/api followed by the path). Undefined for a request the document does not describe.
 */
export function operationOf(
  operations: readonly OperationPath[],
  method: string,
  path: string,
): { operationId: OperationId; pathParams: Record<string, string> } | undefined {
  const bare = path.split('?')[0]!;
  for (const op of operations) {
    if (op.method.toUpperCase() !== method.toUpperCase()) continue;
    const names: string[] = [];
    const pattern = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const m = new RegExp(`(?:^|/)api${pattern}/?$`).exec(bare);
    if (!m) continue;
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    };
    return { operationId: op.operationId, pathParams: Object.fromEntries(names.map((name, i) => [name, decode(m[i + 1]!)])) };
  }
  return undefined;
}

/** An exchange as a failure quotes it: the request without its headers, the answer clipped. */
export function failureExchange(e: ExchangeEvidence, maxBody = 600): FailureExchange {
  const credentials = e.request.credentials === 'a token' ? 'none' : e.request.credentials;
  return {
    request: {
      method: e.method,
      path: e.path,
      credentials,
      ...(e.request.contentType ? { contentType: e.request.contentType } : {}),
      ...(e.request.body ? { body: e.request.body } : {}),
    },
    response: { status: e.response.status, contentType: e.response.contentType, body: e.response.body.slice(0, maxBody), bodyLength: e.response.body.length },
  };
}
