// Before any test: is the target this API, reachable, and do the credentials work? One authenticated read of the V2
// list, judged by http/target-preflight.ts (the k6 scripts make the same read): a target that cannot be judged is
// one line saying what to fix, never a test failure.
import type { SuiteConfig } from '../../config/suite-config.ts';
import { basicAuthorization, secretsOf } from '../../config/suite-config.ts';
import { redactText } from '../../http/redact.ts';
import { requestUrl } from '../../http/request.ts';
import { fetchFailure, PREFLIGHT_REQUEST, preflight } from '../../http/target-preflight.ts';
import { OPERATIONS } from '../../openapi/operations.generated.ts';

/** Why the target cannot be judged, or undefined when it can. Waits out 429/503 as THROTTLE_* allow. */
export async function targetProblem(
  config: Pick<SuiteConfig, 'baseUrl' | 'login' | 'password' | 'throttle' | 'vertexToken'>,
  timeoutMs = 10_000,
): Promise<string | undefined> {
  const operation = { operationId: PREFLIGHT_REQUEST.operationId, basicAuth: true, ...OPERATIONS[PREFLIGHT_REQUEST.operationId] };
  const url = requestUrl(config.baseUrl, operation, PREFLIGHT_REQUEST);
  const read = async () => {
    try {
      const res = await fetch(url, {
        headers: { authorization: basicAuthorization(config.login, config.password) },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text(), headers: Object.fromEntries(res.headers) };
    } catch (err) {
      return { status: 0, body: '', error: fetchFailure(err), headers: {} };
    }
  };
  const verdict = await preflight(read, url, config.throttle, (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
  return verdict.ok ? undefined : redactText(verdict.reason, secretsOf(config));
}
