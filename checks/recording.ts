// Recorded traffic as the judging engine reads it (`npm run judge -- FILE.har`, and the run's own journal folded into
// its HAR at the run's end): a plain HAR 1.2 log from any client (a browser's DevTools, a recording proxy, the
// vendor's reproduction) read as exchanges, with what the suite's own recorder adds where a HAR has it (which
// credentials went, a probe's intent, the dialog a create made); judged by the one engine (checks/engine.ts). A check
// no recording can feed is listed as not judged, with why. The recording's credentials never leave it: requests are
// kept without their headers, bodies with secret fields redacted, and every credential and token the log carries is
// returned for the reports to be cleaned of. Pure.
import { redactBody, redactIn } from '../http/redact.ts';
import type { FailureRequest, RecordedFailure } from '../lib/failure.ts';
import type { RecordedExpectation } from '../lib/exchange.ts';
import type { RecordedClock } from './feeder.ts';
import type { ContractValidators } from '../openapi/validators.ts';
import type { CheckRegistry } from './check.ts';
import { operationOf, queryOf, type ExchangeEvidence } from './evidence.ts';
import { ENGINE_EVIDENCE, judgeExchanges, recordedFailures, type JudgedCounts } from './engine.ts';
import { BUILT_IN, type CheckName } from './registry.ts';

/** The part of a HAR 1.2 log the judge reads; the underscored fields only the suite's own recorder writes (report/har.ts). */
export interface HarLog {
  log: { entries: HarEntry[]; _clock?: RecordedClock };
}

interface HarEntry {
  startedDateTime: string;
  time?: number;
  request: {
    method: string;
    url: string;
    headers?: Array<{ name: string; value: string }>;
    postData?: { mimeType?: string; text?: string; encoding?: string };
  };
  response: { status: number; headers?: Array<{ name: string; value: string }>; content?: { mimeType?: string; text?: string; encoding?: string } };
  _credentials?: FailureRequest['credentials'];
  _test?: string;
  _throttled?: true;
  _probing?: string;
  _transient?: true;
  _dialog?: string;
  _expected?: RecordedExpectation;
}

/**
 * Why no recording of any client can feed a check of the project: the evidence lies outside the API's exchanges (the
 * custom block's call to its URL, a baseline, the suite's own run), or no exchange names it.
 */
export const NOT_FROM_RECORDINGS: Partial<Record<CheckName, string>> = {
  effect_of_send: 'held to a baseline (--contract-from), not to the spec: the baseline is no exchange',
  complete_body: 'a body that broke off is no entry of a recording: a recorder writes the answers that came whole',
  custom_block_call: "the custom block's call to its URL goes from the vendor to the block's service: no client's recording of the API holds it",
  'effect_of_send.text_as_sent': 'whether a plain text the run sent shows in the data is held against the run’s own control text, sent beside it',
  'effect_of_create.variables_as_passed':
    'whether a plain variable the run passed shows in the data is held against the run’s own control dialog, made beside it',
  test_passes: 'a check of the suite’s own tests',
  unknowns_observed: 'a check of the suite’s whole run',
  pairs_exercised: 'a check of the suite’s whole run',
  transitions_walked: 'a check of the suite’s whole run',
  variants_exercised: 'a check of the suite’s whole run',
  body_shape_established: 'a check of the suite’s whole run',
};

/** The evidence kinds a team's checks are handed from a recording: each exchange, and the whole recording. */
const TEAM_KINDS_JUDGED = new Set(['exchange', 'run']);

/** The Basic credentials ("Basic …", and the password inside) and the integration tokens a recording carries. */
export function recordedSecrets(har: HarLog): string[] {
  const out = new Set<string>();
  for (const e of har.log.entries) {
    for (const h of e.request.headers ?? []) {
      const m = /^(basic|bearer)\s+(\S+)/i.exec(h.value);
      if (!/^(authorization|proxy-authorization)$/i.test(h.name) || !m) continue;
      out.add(m[2]!);
      const decoded = m[1]!.toLowerCase() === 'basic' ? decodeBase64Text(m[2]!) : undefined;
      if (decoded?.includes(':')) out.add(decoded.slice(decoded.indexOf(':') + 1));
    }
    const body = e.request.postData?.text;
    if (body) for (const token of tokensIn(safeJson(body))) out.add(token);
  }
  return [...out].filter((s) => s.length >= 4);
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Every value of a field named like a secret in a JSON value. */
function tokensIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(tokensIn);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (/token|password|secret/i.test(k) && typeof v === 'string' ? [v] : tokensIn(v)));
}

/** Base64 to bytes, forgiving as a recorder's text may be: what is no base64 is left out, a dangling sixth is dropped. */
function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  return Uint8Array.from(atob(clean.slice(0, clean.length - (clean.length % 4 === 1 ? 1 : 0))), (c) => c.charCodeAt(0));
}

const decodeBase64Text = (text: string) => new TextDecoder().decode(decodeBase64(text));
const encodeText = (text: string) => new TextEncoder().encode(text);

const header = (headers: HarEntry['response']['headers'], name: string) => headers?.find((h) => h.name.toLowerCase() === name)?.value ?? null;

/** A recording's entries as exchanges of the document's operations (an entry of another address is left out). */
export function recordedExchanges(har: HarLog, validators: ContractValidators): ExchangeEvidence[] {
  const operations = [...validators.operations.values()];
  return har.log.entries.flatMap((e): ExchangeEvidence[] => {
    // A throttled answer the suite waited out, or a gateway's it took for the network's, is no answer of the API's to judge.
    if (e._throttled || e._transient) return [];
    const url = /^[a-z]+:\/\/[^/]+(\/.*)?$/i.exec(e.request.url)?.[1] ?? e.request.url;
    const path = url.slice(Math.max(0, url.indexOf('/api/')));
    const found = operationOf(operations, e.request.method, path);
    if (!found) return [];
    const op = validators.operation(found.operationId);
    const content = e.response.content ?? {};
    const bytes = content.encoding === 'base64' ? decodeBase64(content.text ?? '') : encodeText(content.text ?? '');
    const startedMs = Date.parse(e.startedDateTime);
    const authorization = header(e.request.headers, 'authorization');
    const body = e.request.postData?.text;
    return [
      {
        operationId: found.operationId,
        method: e.request.method.toUpperCase(),
        path,
        query: queryOf(path),
        pathParams: found.pathParams,
        request: {
          // Which credentials went, as the suite's recorder names them; else whether any did.
          credentials: !op.needsBasicAuth ? 'a token' : (e._credentials ?? (authorization === null ? 'none' : 'configured')),
          contentType: e.request.postData?.mimeType || header(e.request.headers, 'content-type'),
          body: body === undefined ? undefined : redactBody(body),
        },
        response: {
          status: e.response.status,
          headers: Object.fromEntries(
            (e.response.headers ?? []).filter((h) => !/^(set-cookie|authorization)$/i.test(h.name)).map((h) => [h.name.toLowerCase(), h.value]),
          ),
          contentType: header(e.response.headers, 'content-type') ?? (content.mimeType || null),
          body: content.encoding === 'base64' ? new TextDecoder().decode(bytes) : (content.text ?? ''),
          bytes,
        },
        startedMs,
        endedMs: startedMs + Math.max(0, e.time ?? 0),
        ...(e._probing ? { probing: e._probing } : {}),
        ...(e._test ? { test: e._test } : {}),
        ...(e._dialog ? { dialog: e._dialog } : {}),
        ...(e._expected ? { expected: e._expected } : {}),
      },
    ];
  });
}

/** What a judge of a recording found: its failures, how often each check judged, and the checks it could not make. */
export interface RecordingVerdict {
  exchanges: number;
  failures: RecordedFailure[];
  judged: JudgedCounts;
  notJudged: Array<{ check: string; why: string }>;
}

/** Every check the registry runs, fed by the engine from a recording; secrets of the recording removed. */
export function judgeRecording(har: HarLog, validators: ContractValidators, registry: CheckRegistry, source: string, settleMs: number): RecordingVerdict {
  const exchanges = recordedExchanges(har, validators);
  const clock = har.log._clock;
  const { judged, failures } = recordedFailures(judgeExchanges(exchanges, { validators, registry, settleMs, ...(clock ? { clock } : {}) }), source);
  const notJudged = registry
    .all()
    .filter((c) => registry.runs(c.name) && !(c.name in judged))
    .map((c) => ({
      check: c.name,
      why:
        NOT_FROM_RECORDINGS[c.name as CheckName] ??
        (!BUILT_IN.includes(c) && !TEAM_KINDS_JUDGED.has(c.evidence)
          ? `a team's check of ${c.evidence} evidence: a recording hands team checks each exchange and the whole recording only`
          : ENGINE_EVIDENCE.has(c.name as CheckName)
            ? `the recording holds none of its evidence: ${ENGINE_EVIDENCE.get(c.name as CheckName)!.join('; ')}`
            : 'the recording holds no exchange it judges'),
    }));
  return { exchanges: exchanges.length, failures: redactIn(failures, recordedSecrets(har)), judged, notJudged };
}
