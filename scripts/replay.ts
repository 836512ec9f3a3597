// `npm run replay -- FAILURE [--run]`: the request that showed a contract failure of the last run
// (reports/failures.json) as a curl command to paste, or, with --run, sent again to API_BASE_URL with the
// configured credentials, its answer shown next to the recorded one. Credentials and tokens come from the
// environment (.env read too), never from a report: the reports hold none.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { config as loadDotenv } from 'dotenv';
import { secretsOf } from '../config/suite-config.ts';
import { PROJECT_ROOT, REPORTS_DIR } from '../contract/env.ts';
import { redactText } from '../http/redact.ts';
import { curlCommand, renderExchange, renderHeadline, replayRequest, REPLAY_VARIABLES, type FailureResponse, type RecordedFailure } from '../lib/failure.ts';
import { findFailure } from '../report/replay.ts';

export const USAGE = `usage: npm run replay -- FAILURE [--run]

Shows the request that showed a contract failure of the last run (reports/failures.json) as a curl command, with
the base URL, the credentials and the custom-block token as shell variables (${REPLAY_VARIABLES}): paste it where
they are set to reproduce the failure, or hand it to the vendor with a ticket.

  FAILURE      the failure's id (failures.json "id", a ticket's "Reference"), a part of it that only one failure
               has, or its number in failures.json (1 is the first)
  --run        send the request again to API_BASE_URL with API_LOGIN/API_PASSWORD (and VERTEX_TOKEN where the
               request carried a token) from the environment or .env, and show the answer next to the recorded one
  -h, --help   this text

Environment: REPORTS_DIR (default reports/); with --run: API_BASE_URL, API_LOGIN, API_PASSWORD, VERTEX_TOKEN.
Exit: 0; 2 for a bad argument, no report, no such failure, or a setting --run needs.

Example: npm run replay -- "contract.ignored_auth getV2Conversations" --run`;

function fail(message: string): never {
  console.error(`replay: ${message}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { run: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
} catch (err) {
  fail(`${(err as Error).message}; npm run replay -- --help`);
}
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (parsed.positionals.length !== 1) fail('give one failure (its id, a unique part of it, or its number); npm run replay -- --help');

const file = join(REPORTS_DIR, 'failures.json');
if (!existsSync(file)) fail(`${relative(process.cwd(), file)} does not exist: run npm run contract first`);
const { failures } = JSON.parse(readFileSync(file, 'utf8')) as { failures: RecordedFailure[] };
const found = findFailure(failures, parsed.positionals[0]!);
if (typeof found === 'string') fail(found);
const exchange = found.context.exchanges?.[0];
if (!exchange) fail(`${found.id} holds no request (a failure of ${found.operationId === null ? 'a test or of the run' : 'no single exchange'}): see its test, ${found.test}`);

console.log(renderHeadline(found));
console.log(`recorded ${renderExchange(exchange)}`);
console.log('');
console.log(`# with ${REPLAY_VARIABLES} set:`);
console.log(curlCommand(exchange.request));

if (parsed.values.run) {
  loadDotenv({ path: join(PROJECT_ROOT, '.env'), quiet: true });
  const env = process.env;
  for (const name of ['API_BASE_URL', 'API_LOGIN', 'API_PASSWORD'] as const) if (!env[name]?.trim()) fail(`--run needs ${name}: set it in .env or the environment (the target to send the request to)`);
  if (exchange.request.body?.includes('[redacted]') && !env.VERTEX_TOKEN?.trim()) fail('--run needs VERTEX_TOKEN: the request carried an integration token, which reports never hold');
  const vars = { API_BASE_URL: env.API_BASE_URL!.trim().replace(/\/+$/, ''), API_LOGIN: env.API_LOGIN!, API_PASSWORD: env.API_PASSWORD!, VERTEX_TOKEN: env.VERTEX_TOKEN?.trim() };
  const request = replayRequest(exchange.request, vars);
  let now: FailureResponse;
  try {
    const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
    const body = await res.text();
    now = { status: res.status, contentType: res.headers.get('content-type'), body: body.slice(0, 2000), bodyLength: body.length };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    fail(`no answer from ${vars.API_BASE_URL} (${cause?.code ?? (err as Error).message}): check API_BASE_URL`);
  }
  const secrets = secretsOf({ login: vars.API_LOGIN, password: vars.API_PASSWORD, vertexToken: vars.VERTEX_TOKEN });
  console.log('');
  console.log(redactText(`now ${renderExchange({ request: exchange.request, response: now }).split('\n')[1]}`, secrets));
  const recorded = exchange.response?.status;
  console.log(
    recorded === now.status
      ? `the status is as recorded (${now.status}): the request reproduces the answer the failure was found on`
      : `the status differs: recorded ${recorded ?? 'no whole answer'}, now ${now.status}: the target answers otherwise now`,
  );
}
