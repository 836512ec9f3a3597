// The safety rails, run before any request: in the init context on the script's own options (k6 refuses to start),
// and again first thing in setup() on the consolidated options, which include CLI flags such as --vus and the
// execution segment. Then one read tells a target worth loading from an unreachable one, rejected credentials or a
// base URL that is not this API (http/target-preflight.ts): the test aborts with that one line.
import exec from 'k6/execution';
import http from 'k6/http';
import type { Options } from 'k6/options';
import { segmentProblem } from '../../../discovery/execution-segment.ts';
import { requestUrl } from '../../../http/request.ts';
import { PREFLIGHT_REQUEST, preflightVerdict } from '../../../http/target-preflight.ts';
import { redactText } from '../../../http/redact.ts';
import { assertLoadSafety, safetyProblems } from '../../safety.ts';
import { callPolitely, operation } from './api.ts';
import { config, secrets } from './config.ts';
import { currentSegment } from './segment.ts';

export function guardInit(options: Options): void {
  assertLoadSafety(__ENV, config.baseUrl, options);
}

/** Any answer is the preflight's to judge, not a failed request of the load. */
const anyStatus = http.expectedStatuses({ min: 100, max: 599 });

export function guardSetup(): void {
  const problems = safetyProblems(__ENV, config.baseUrl, exec.test.options);
  const split = segmentProblem(currentSegment());
  if (split) problems.push(split);
  if (problems.length > 0) exec.test.abort(`refusing to run: ${problems.join('; ')}`);
  const response = callPolitely(PREFLIGHT_REQUEST, anyStatus);
  const url = requestUrl(config.baseUrl, operation(PREFLIGHT_REQUEST.operationId), PREFLIGHT_REQUEST);
  const verdict = preflightVerdict(
    {
      status: response.status,
      contentType: response.headers['Content-Type'],
      body: response.body ?? '',
      error: [response.error_code || '', response.error].filter(Boolean).join(' '),
    },
    url,
  );
  if (!verdict.ok) exec.test.abort(redactText(`no verdict: ${verdict.reason}`, secrets));
}
