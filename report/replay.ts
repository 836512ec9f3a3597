// The replay of a contract failure's request: as a curl command to paste (each ticket and failures.json entry carries
// one), as fetch() sends it again (npm run replay -- FAILURE --run), and which failure of a run's failures.json a user
// means by what they typed: its id (a ticket's Reference), a part of the id only one failure has, or its number. Here,
// not in lib/failure.ts, because it turns a recorded request back into credentials and a token: the Basic header
// (config/) and the redaction mark (http/) are above the data model. Pure: scripts/replay.ts reads the file and sends.
import { basicAuthorization } from '../config/suite-config.ts';
import { REDACTED } from '../http/redact.ts';
import type { Failure, FailureRequest, FailureResponse, RecordedFailure } from '../lib/failure.ts';

/** A word for a POSIX shell, quoted so that nothing in it is expanded. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** What the replay of a request needs from the shell's environment, never written into the command. */
export const REPLAY_VARIABLES = 'API_BASE_URL, API_LOGIN and API_PASSWORD (VERTEX_TOKEN for a custom-block request)';

/**
 * The request as a curl command to paste into a shell where REPLAY_VARIABLES are set: the base URL, the credentials
 * and the integration token as references to them, never their values (the token was redacted before the request
 * was recorded; its place takes $VERTEX_TOKEN). The same credentials as the run's: the configured ones, none, or the
 * configured password made wrong as the suite makes it (`-wrong` appended).
 */
export function curlCommand(request: FailureRequest): string {
  const credentials = { configured: ['-u', '"$API_LOGIN:$API_PASSWORD"'], none: [], 'wrong password': ['-u', '"$API_LOGIN:$API_PASSWORD-wrong"'] }[
    request.credentials
  ];
  // A redacted value sits in the body as the JSON string "[redacted]": the quoted body opens there for the variable.
  const body = request.body === undefined ? [] : ['--data-raw', shellQuote(request.body).split(REDACTED).join(`'"$VERTEX_TOKEN"'`)];
  return [
    'curl -sS -i -X',
    request.method,
    `"$API_BASE_URL"${shellQuote(request.path)}`,
    ...credentials,
    ...(request.contentType ? ['-H', shellQuote(`Content-Type: ${request.contentType}`)] : []),
    ...body,
  ].join(' ');
}

/** What a replay takes from the environment: the variables the curl command refers to. */
export interface ReplayVariables {
  API_BASE_URL: string;
  API_LOGIN: string;
  API_PASSWORD: string;
  VERTEX_TOKEN?: string;
}

/** The request curlCommand() shows, as fetch() sends it: the same credentials, the token in the same place. */
export function replayRequest(request: FailureRequest, vars: ReplayVariables): { url: string; method: string; headers: Record<string, string>; body?: string } {
  const password = { configured: vars.API_PASSWORD, none: undefined, 'wrong password': `${vars.API_PASSWORD}-wrong` }[request.credentials];
  const headers: Record<string, string> = {};
  if (password !== undefined) headers.authorization = basicAuthorization(vars.API_LOGIN, password);
  if (request.contentType) headers['content-type'] = request.contentType;
  const body = request.body?.split(REDACTED).join(vars.VERTEX_TOKEN ?? REDACTED);
  return { url: `${vars.API_BASE_URL}${request.path}`, method: request.method, headers, ...(body === undefined ? {} : { body }) };
}

/** The request that shows a failure (the answer judged), as a curl command; none for a failure of a test or the run. */
export function replayOf(f: Failure): string | undefined {
  const first = f.context.exchanges?.[0];
  return first ? curlCommand(first.request) : undefined;
}

/** The failure meant by `query`, or a one-line reason why none or several are. */
export function findFailure(failures: readonly RecordedFailure[], query: string): RecordedFailure | string {
  if (failures.length === 0) return 'the last run recorded no contract failure';
  if (/^\d+$/.test(query)) {
    const n = Number(query);
    return failures[n - 1] ?? `there is no failure ${n}: the last run recorded ${failures.length} (1 to ${failures.length})`;
  }
  const exact = failures.filter((f) => f.id === query);
  const matches = exact.length > 0 ? exact : failures.filter((f) => f.id.includes(query));
  // One drift found by several tests records one id several times: the same request shows it, the first will do.
  if (new Set(matches.map((f) => f.id)).size === 1) return matches[0]!;
  if (matches.length === 0)
    return `no failure of the last run has "${query}" in its id: npm run replay -- N with N from 1 to ${failures.length}, or the id from failures.json or a ticket`;
  const ids = [...new Set(matches.map((f) => f.id))];
  return `"${query}" is in ${ids.length} failures' ids (${ids.slice(0, 3).join('; ')}${ids.length > 3 ? '; …' : ''}): give more of the id`;
}

/** What a body shows at a failure's place: each value's kind there ("missing", "string", "integer"...), each once. */
function kindsAt(body: string, pointer: string): string[] | undefined {
  let node: unknown;
  try {
    node = JSON.parse(body);
  } catch {
    return undefined;
  }
  let nodes: unknown[] = [node];
  for (const segment of pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    nodes = nodes.flatMap((n) => {
      if (n === null || typeof n !== 'object') return [undefined];
      if (segment !== '*') return [(n as Record<string, unknown>)[segment]];
      // A list position: every item of an array, every index key of a list envelope (§2.3: "0", "1", ... and meta).
      return Array.isArray(n) ? n : Object.entries(n).flatMap(([k, v]) => (/^\d+$/.test(k) ? [v] : []));
    });
  }
  const kind = (v: unknown) => (v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  return [...new Set(nodes.map(kind))].sort();
}

/**
 * A failure's request sent again, compared with the answer it was found on where the failure is: the status always;
 * the field at its place (a JSON pointer into the body) when it has one and both bodies read as JSON; the content
 * type when that is its place. Says what it compared and whether the answer now shows what the failure is about.
 */
export function compareReplay(
  f: Pick<Failure, 'pointer' | 'check'>,
  recorded: Pick<FailureResponse, 'status' | 'contentType' | 'body' | 'bodyLength'> | undefined,
  now: Pick<FailureResponse, 'status' | 'contentType' | 'body'>,
  /** For a check of one answer: the places where the same check fails on the answer now (the failure's found again?). */
  failingNow?: readonly string[],
): { same: boolean; line: string } {
  if (!recorded) return { same: false, line: `the failure's request got no whole answer when recorded; now ${now.status}: compared nothing` };
  const parts: Array<{ what: string; before: string; after: string }> = [{ what: 'the status', before: String(recorded.status), after: String(now.status) }];
  let unread: string | undefined;
  if (f.pointer === 'content-type') parts.push({ what: 'the content type', before: recorded.contentType ?? 'none', after: now.contentType ?? 'none' });
  else if (f.pointer.startsWith('/') && failingNow) {
    const again = failingNow.includes(f.pointer) ? `${f.check} fails there` : `${f.check} holds there`;
    parts.push({ what: `the field at ${f.pointer}`, before: `${f.check} fails there`, after: again });
  } else if (f.pointer.startsWith('/')) {
    const [before, after] = [recorded.bodyLength > recorded.body.length ? undefined : kindsAt(recorded.body, f.pointer), kindsAt(now.body, f.pointer)];
    if (before && after) parts.push({ what: `the field at ${f.pointer}`, before: before.join(' or '), after: after.join(' or ') });
    else unread = `not the field at ${f.pointer}: ${before ? 'the answer now' : 'the recorded answer'} does not read as whole JSON`;
  } else if (f.pointer !== 'status') unread = `not "${f.pointer}": one request does not show it (see the failure's test)`;
  const differ = parts.filter((p) => p.before !== p.after);
  const compared = parts.map((p) => (p.before === p.after ? `${p.what} (${p.after}, as recorded)` : `${p.what} (recorded ${p.before}, now ${p.after})`));
  const said = `compared ${compared.join(' and ')}${unread ? `; ${unread}` : ''}`;
  if (differ.length > 0) return { same: false, line: `${said}: the target answers otherwise now` };
  if (unread) return { same: false, line: `${said}: as recorded as far as compared; whether the failure is found again, this request alone cannot tell` };
  return { same: true, line: `${said}: the request reproduces what the failure is about` };
}
