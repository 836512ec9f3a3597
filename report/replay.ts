// The replay of a contract failure's request: as a curl command to paste (each ticket and failures.json entry carries
// one), as fetch() sends it again (npm run replay -- FAILURE --run), and which failure of a run's failures.json a user
// means by what they typed: its id (a ticket's Reference), a part of the id only one failure has, or its number. Here,
// not in lib/failure.ts, because it turns a recorded request back into credentials and a token: the Basic header
// (config/) and the redaction mark (http/) are above the data model. Pure: scripts/replay.ts reads the file and sends.
import { basicAuthorization } from '../config/suite-config.ts';
import { REDACTED } from '../http/redact.ts';
import type { Failure, FailureRequest, RecordedFailure } from '../lib/failure.ts';

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
