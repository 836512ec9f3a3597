// Before any load or test: is the target this API, reachable, and do the credentials work? One authenticated read of
// the V2 list (spec §4.2), waited out on 429/503 like every request, tells the run's own circumstances (which no
// vendor ticket should blame) from a target worth judging. Pure: the k6 scripts (setup()) and the Node launchers
// classify the same answer with the same words.
import { THROTTLE_STATUSES, throttleDecision, type ThrottleSettings } from './throttle.ts';
import { DEFAULT_HEALTH, resendDelaySeconds, transientKind } from './health.ts';

/** The operation and query of the preflight read: the smallest page of the V2 list. */
export const PREFLIGHT_REQUEST = { operationId: 'getV2Conversations', pathParams: {}, query: { PageCount: '1' } } as const;

export interface PreflightAnswer {
  /** 0 when no HTTP answer came (refused, unresolvable, TLS, timeout). */
  status: number;
  contentType?: string | null;
  body: string;
  /** Why no answer came: the client's error code and message (k6 `error`/`error_code`, Node's `cause.code`). */
  error?: string;
}

export type PreflightProblem = 'unreachable' | 'tls' | 'credentials' | 'forbidden' | 'not-this-api' | 'unhealthy' | 'throttled';

export type PreflightVerdict = { ok: true } | { ok: false; problem: PreflightProblem; reason: string };

const TLS = /x509|certificate|CERT|UNABLE_TO_(GET|VERIFY)|SELF_SIGNED|tls:|TLS|SSL|ALTNAME/;

/**
 * `url` names what was asked (the base URL plus the list path, never credentials). A success with a JSON body is the
 * API: how well it keeps the contract is the tests' to judge (a vendor that drifted is still judged, never turned
 * away here); anything else at the list's address (a gateway's 404 page, a login page) is not.
 */
export function preflightVerdict(answer: PreflightAnswer, url: string): PreflightVerdict {
  const asked = `GET ${url}`;
  const type = answer.contentType?.split(';')[0]?.trim() || 'no content type';
  if (answer.status === 0) {
    const why = answer.error || 'no answer';
    if (TLS.test(why)) {
      return {
        ok: false,
        problem: 'tls',
        reason: `${asked} failed in TLS (${why}): for a private CA give its certificate (Node: NODE_EXTRA_CA_CERTS=/path/ca.pem; k6: SSL_CERT_FILE=/path/bundle.pem with the CA added), or check API_BASE_URL's host name`,
      };
    }
    return {
      ok: false,
      problem: 'unreachable',
      reason: `the target cannot be reached: ${asked} got no answer (${why}): check API_BASE_URL, the network or VPN, and that the service is up`,
    };
  }
  if (answer.status === 401) {
    return {
      ok: false,
      problem: 'credentials',
      reason: `credentials rejected: ${asked} answered 401 (spec §5.2: wrong login or password): check API_LOGIN and API_PASSWORD`,
    };
  }
  if (answer.status === 403) {
    return {
      ok: false,
      problem: 'forbidden',
      reason: `access refused: ${asked} answered 403 (spec §5.3: blocked instance, stopped service or invalid token): ask the vendor to enable this account's instance`,
    };
  }
  if (THROTTLE_STATUSES.includes(answer.status)) {
    return {
      ok: false,
      problem: 'throttled',
      reason: `the target kept throttling: ${asked} still answered ${answer.status} after the waits THROTTLE_MAX_RETRIES and THROTTLE_MAX_WAIT_S allow: try later or raise them`,
    };
  }
  if (answer.status >= 500) {
    return { ok: false, problem: 'unhealthy', reason: `the target is unhealthy: ${asked} answered ${answer.status} ${type}: try again when the service is up` };
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    body = undefined;
  }
  const success = answer.status >= 200 && answer.status < 300;
  if (success && body !== undefined) return { ok: true };
  const what = success ? `${answer.status} ${type} that is not JSON (the list is a JSON object, spec §2.3)` : `${answer.status} ${type}`;
  return {
    ok: false,
    problem: 'not-this-api',
    reason: `API_BASE_URL does not look like the Dialog Bot Service: ${asked} answered ${what}; check the base path (a gateway may need its path prefix)`,
  };
}

/** Why a fetch() got no answer, in the words preflightVerdict reads: the cause's code and message, or a timeout. */
export function fetchFailure(err: unknown): string {
  const error = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error.name === 'TimeoutError') return 'no answer in time';
  return [error.cause?.code, error.cause?.message ?? error.message].filter(Boolean).join(' ');
}

/**
 * The preflight: `send` makes the read (its answer, or a PreflightAnswer of status 0 when none came), 429/503 are
 * waited out as the throttle settings allow, a transient failure (http/health.ts) is read again, and the last
 * answer is judged.
 */
export async function preflight(
  send: () => Promise<PreflightAnswer & { headers: Record<string, string> }>,
  url: string,
  settings: ThrottleSettings,
  wait: (seconds: number) => Promise<void>,
): Promise<PreflightVerdict> {
  let waited = 0;
  let resends = 0;
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    const decision = answer.status === 0 ? ({ throttled: false } as const) : throttleDecision(answer, attempt, waited, settings, Math.random, Date.now());
    if (decision.throttled && decision.retry) {
      waited += decision.waitSeconds;
      await wait(decision.waitSeconds);
      continue;
    }
    // A 502, a reset or a timeout of a network in between is not the target's answer: read again, a few times.
    const transient = transientKind(answer.status === 0 ? { kind: 'transport', what: answer.error ?? '' } : { kind: 'answer', status: answer.status });
    if (transient && transient !== 'refused' && transient !== 'other-transport' && resends < DEFAULT_HEALTH.maxResends) {
      resends++;
      await wait(resendDelaySeconds(resends, Math.random));
      continue;
    }
    return preflightVerdict(answer, url);
  }
}
