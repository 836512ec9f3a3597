// The run's exchanges as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/): what browsers,
// proxies and Redocly's drift command read. Built once at the run's end from what the workers recorded
// (lib/exchange.ts, secrets already removed), and read back by the coverage matrix and the overlay check: the run
// keeps one record of its exchanges. Pure.
import type { RecordedExchange, RecordedExpectation } from '../lib/exchange.ts';
import type { FailureRequest } from '../lib/failure.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { REDACTED } from '../http/redact.ts';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** Custom fields (HAR allows them with a leading underscore): what the suite knows of the exchange. */
  _operationId: OperationId;
  _credentials: FailureRequest['credentials'];
  _test: string;
  _throttled?: true;
  /** Why the answer is an observation, not held to §7's statuses (lib/exchange.ts `probing`). */
  _probing?: string;
  /** A gateway's answer the client took for the network's (lib/exchange.ts `transient`). */
  _transient?: true;
  /** The dialog a create made, where the run found it and the answer does not name it (a V2 GET create, §4.2). */
  _dialog?: string;
  /** What the test that sent it held its answer to, beyond the document's statuses (lib/exchange.ts). */
  _expected?: RecordedExpectation;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    entries: HarEntry[];
    /** The vendor's clock as the run measured it: vendor time minus the run's, and how far either way it may be off. */
    _clock?: { offsetMs: number; marginMs: number };
  };
}

/** What the run knew of its exchanges beside them: the dialogs its creates made, what its tests expected, its clock. */
export interface RunKnowledge {
  created?: ReadonlyArray<{ uuid: string; createExchangeId?: string }>;
  expectations?: ReadonlyArray<{ exchangeId: string; heldTo: RecordedExpectation }>;
  clock?: { offsetMs: number; marginMs: number };
}

/** What the coverage matrix and the overlay check read of an answer. */
export interface HarAnswer {
  operationId: OperationId;
  status: number;
  contentType: string | null;
  contentLength: string | null;
  body: string;
  throttled: boolean;
}

/** How the Authorization header the transport adds is shown: which credentials, never their value. */
const AUTHORIZATION: Record<FailureRequest['credentials'], string | undefined> = {
  configured: `Basic ${REDACTED}`,
  'wrong password': `Basic ${REDACTED} (a wrong password)`,
  none: undefined,
};

function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** "a=1&b=%20" → [{a,1},{b," "}] (a part that is not valid percent-encoding is kept as sent). */
function queryOf(path: string): HarHeader[] {
  const at = path.indexOf('?');
  if (at < 0) return [];
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return path
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { name: decode(pair), value: '' } : { name: decode(pair.slice(0, eq)), value: decode(pair.slice(eq + 1)) };
    });
}

function entryOf(e: RecordedExchange, baseUrl: string, made: ReadonlyMap<string, string>, expected: ReadonlyMap<string, RecordedExpectation>): HarEntry {
  const expectation = e.exchangeId === undefined ? undefined : expected.get(e.exchangeId);
  const authorization = AUTHORIZATION[e.request.credentials];
  const requestHeaders = [
    ...(authorization ? [{ name: 'authorization', value: authorization }] : []),
    ...(e.request.contentType ? [{ name: 'content-type', value: e.request.contentType }] : []),
  ];
  const length = e.contentLength !== null && /^\d+$/.test(e.contentLength) ? Number(e.contentLength) : -1;
  return {
    startedDateTime: e.startedAt,
    time: e.ms,
    request: {
      method: e.request.method,
      url: `${baseUrl.replace(/\/+$/, '')}${e.request.path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: requestHeaders,
      queryString: queryOf(e.request.path),
      ...(e.request.body === undefined ? {} : { postData: { mimeType: e.request.contentType ?? '', text: e.request.body } }),
      headersSize: -1,
      // The body is shown with its secrets redacted: its size as sent is not known.
      bodySize: e.request.body === undefined ? 0 : -1,
    },
    response: {
      status: e.status,
      statusText: e.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: Object.entries(e.headers).map(([name, value]) => ({ name, value })),
      content: { size: length >= 0 ? length : utf8Length(e.body), mimeType: e.contentType ?? '', text: e.body },
      redirectURL: e.headers.location ?? '',
      headersSize: -1,
      bodySize: length,
    },
    cache: {},
    // Only the whole time is measured (the client sees no phases of its request): it is the wait.
    timings: { send: 0, wait: e.ms, receive: 0 },
    _operationId: e.operationId,
    _credentials: e.request.credentials,
    _test: e.test,
    ...(e.throttled ? { _throttled: true as const } : {}),
    ...(e.probing ? { _probing: e.probing } : {}),
    ...(e.transient ? { _transient: true as const } : {}),
    ...(e.exchangeId !== undefined && made.has(e.exchangeId) && e.operationId === 'getV2DialogCreate' ? { _dialog: made.get(e.exchangeId)! } : {}),
    ...(expectation ? { _expected: expectation } : {}),
  };
}

/** Every exchange of a run, in the order they were sent, against `baseUrl` (the target, without /api), with what the run knew of them. */
export function harOf(exchanges: readonly RecordedExchange[], baseUrl: string, creator: Har['log']['creator'], comment: string, known: RunKnowledge = {}): Har {
  const ordered = [...exchanges].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
  const made = new Map((known.created ?? []).flatMap((d) => (d.createExchangeId ? [[d.createExchangeId, d.uuid] as const] : [])));
  // A test may hold one answer twice (a soft check, then a stop): its first expectation is the one it sent it with.
  const expected = new Map<string, RecordedExpectation>();
  for (const x of known.expectations ?? []) if (!expected.has(x.exchangeId)) expected.set(x.exchangeId, x.heldTo);
  const entries = ordered.map((e) => entryOf(e, baseUrl, made, expected));
  return { log: { version: '1.2', creator, comment, entries, ...(known.clock ? { _clock: known.clock } : {}) } };
}

const header = (headers: HarHeader[], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value ?? null;

/** The answers a HAR of this suite holds, as the coverage matrix and the overlay check read them. */
export function harAnswers(har: Har): HarAnswer[] {
  return har.log.entries.map((e) => ({
    operationId: e._operationId,
    status: e.response.status,
    contentType: header(e.response.headers, 'content-type'),
    contentLength: header(e.response.headers, 'content-length'),
    body: e.response.content.text,
    throttled: e._throttled === true,
  }));
}
