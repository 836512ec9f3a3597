// `npm run replay -- FAILURE [--run]`: the request that showed a contract failure of the last run
// (reports/failures.json) as a curl command to paste, or, with --run, sent again to API_BASE_URL with the
// configured credentials, its answer shown next to the recorded one. Credentials and tokens come from the
// environment (.env read too), never from a report: the reports hold none.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { commandLineOrExit, exitWithUsage, helpPointer, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { secretsOf } from '../config/suite-config.ts';
import { PROJECT_ROOT, REPORTS_DIR } from '../contract/core/env.ts';
import { redactText } from '../http/redact.ts';
import { renderExchange, renderHeadline, type FailureResponse, type RecordedFailure } from '../lib/failure.ts';
import { responseFailures } from '../checks/response.ts';
import { contractValidators } from '../openapi/validators.ts';
import { compareReplay, curlCommand, findFailure, replayRequest, REPLAY_VARIABLES } from '../report/replay.ts';

const COMMAND = {
  script: 'replay',
  usage: ['FAILURE [--run]'],
  summary:
    'Shows the request that showed a contract failure of the last run (reports/failures.json) as a curl command, with\n' +
    `the base URL, the credentials and the custom-block token as shell variables (${REPLAY_VARIABLES}): paste it\n` +
    'where they are set to reproduce the failure, or hand it to the vendor with the ticket. With --run it sends the\n' +
    'request again and shows the answer next to the recorded one, comparing what the failure is about: the status, and\n' +
    'the field at its place (or its content type), and says which it compared.',
  positionals: [
    [
      'FAILURE',
      'the failure\'s id (failures.json "id", a ticket\'s "Reference"), a part of it only one failure has, or its number in failures.json (1 is the first)',
    ],
  ],
  options: {
    run: { type: 'boolean', description: 'send the request again to API_BASE_URL with the credentials from the environment or .env, and compare the answers' },
  },
  environment: [
    REPORTS_DIR_ENV,
    ['API_BASE_URL, API_LOGIN, API_PASSWORD', 'with --run: the target and its credentials'],
    ['VERTEX_TOKEN', 'with --run, for a request that carried an integration token (reports never hold one)'],
  ],
  exit: '0 shown (and sent); 2 a bad argument, no failures.json, no such failure, or a setting --run needs.',
  examples: ['npm run replay -- "contract.ignored_auth getV2Conversations 403 status" --run', 'npm run replay -- 3'],
} as const;

function fail(message: string): never {
  return exitWithUsage(COMMAND, message);
}

const parsed = commandLineOrExit(COMMAND);
if (parsed.positionals.length !== 1) fail(`give one failure (its id, a unique part of it, or its number); ${helpPointer(COMMAND)}`);

const file = join(REPORTS_DIR, 'failures.json');
if (!existsSync(file)) fail(`${relative(process.cwd(), file)} does not exist: run npm run contract first`);
const { failures } = JSON.parse(readFileSync(file, 'utf8')) as { failures: RecordedFailure[] };
const found = findFailure(failures, parsed.positionals[0]!);
if (typeof found === 'string') fail(found);
const exchange = found.context.exchanges?.[0];
if (!exchange)
  fail(
    `${found.id} holds no request (a failure of ${found.operationId === null ? 'a test or of the run' : 'no single exchange'}): see its test, ${found.test}`,
  );

console.log(renderHeadline(found));
console.log(`recorded ${renderExchange(exchange)}`);
console.log('');
console.log(`# with ${REPLAY_VARIABLES} set:`);
console.log(curlCommand(exchange.request));

if (parsed.values.run) {
  loadDotenv({ path: join(PROJECT_ROOT, '.env'), quiet: true });
  const env = process.env;
  for (const name of ['API_BASE_URL', 'API_LOGIN', 'API_PASSWORD'] as const)
    if (!env[name]?.trim()) fail(`--run needs ${name}: set it in .env or the environment (the target to send the request to)`);
  if (exchange.request.body?.includes('[redacted]') && !env.VERTEX_TOKEN?.trim())
    fail('--run needs VERTEX_TOKEN: the request carried an integration token, which reports never hold');
  const vars = {
    API_BASE_URL: env.API_BASE_URL!.trim().replace(/\/+$/, ''),
    API_LOGIN: env.API_LOGIN!,
    API_PASSWORD: env.API_PASSWORD!,
    VERTEX_TOKEN: env.VERTEX_TOKEN?.trim(),
  };
  const request = replayRequest(exchange.request, vars);
  let now: FailureResponse;
  let whole = '';
  try {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    const body = await res.text();
    whole = body;
    now = { status: res.status, contentType: res.headers.get('content-type'), body: body.slice(0, 2000), bodyLength: body.length };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    fail(`no answer from ${vars.API_BASE_URL} (${cause?.code ?? (err as Error).message}): check API_BASE_URL`);
  }
  const secrets = secretsOf({ login: vars.API_LOGIN, password: vars.API_PASSWORD, vertexToken: vars.VERTEX_TOKEN });
  console.log('');
  console.log(redactText(`now ${renderExchange({ request: exchange.request, response: now }).split('\n')[1]}`, secrets));
  // A failure of the answer's schema is found again, or not, where it was: the same check on the answer now.
  const failingNow =
    found.check === 'response_schema_conformance' && found.operationId !== null
      ? responseFailures(
          contractValidators(),
          found.operationId,
          { status: now.status, contentType: now.contentType, body: whole },
          { only: [found.check] },
        ).map((f) => f.pointer)
      : undefined;
  console.log(redactText(compareReplay(found, exchange.response, { ...now, body: whole }, failingNow).line, secrets));
}
