// A contract failure as data: which check failed and how the drift report classes it, where (operation, status, a
// stable place), what the spec asks (with its section) and what was observed. Values of the run (the dialog, the
// window sent, the value seen, the request and the answer) live in its context only, so the id and the fingerprint
// item of one drift read the same in every run. Built once, where a check fails; rendered here only: the message a
// test prints, failures.json, the drift report, the tickets and the mutation score read the data, never the text.
// In lib/ because openapi/ (the response checks), contract/ (the matchers), report/ and power/ share it.
import { OPERATIONS, type OperationId } from '../openapi/operations.generated.ts';
import { stableStringify, type Json } from './json.ts';

/**
 * The status check of a request that is wrong on purpose: credentials (§5.2) or input (§7). Named by the test that
 * sends it; the checks themselves are checks/'s.
 */
export type RequestCheck = 'ignored_auth' | 'negative_data_rejection';

/**
 * How the drift report classes a failure, decided by the check that raises it: `breaking` against the spec,
 * `learned` against what a baseline observed (--contract-from).
 */
export type FailureSeverity = 'breaking' | 'learned';

/** A request as a failure keeps it, secrets already removed: structured, so it can be shown or sent again. */
export interface FailureRequest {
  method: string;
  /** Path and query as sent, below the base URL: "/api/v2/conversations?BotID=101". */
  path: string;
  /** Which Basic credentials went with it, never their values: the configured ones, none, or a wrong password. */
  credentials: 'configured' | 'none' | 'wrong password';
  contentType?: string;
  body?: string;
}

/** An answer as a failure keeps it, secrets removed, the body clipped. */
export interface FailureResponse {
  status: number;
  contentType: string | null;
  body: string;
  /** Length of the whole body (characters): more than `body` holds when it was clipped. */
  bodyLength: number;
}

export interface FailureExchange {
  request: FailureRequest;
  /** Absent when no whole answer came (the body broke off). */
  response?: FailureResponse;
}

/** The run's values that show a failure: everything in here may differ from run to run. */
export interface FailureContext {
  /** The place as a reader wants it, run values included: `$["3"].source`, `filter CreatedTo=2026-11-23T03:43:27Z`. */
  location?: string;
  /** Why the expectation applies here, completing "expected …": "for unknown dialog 6f1c…". */
  because?: string;
  /** The value observed, in full, where `observed` names only its kind ("string", "a body"). */
  value?: Json;
  /** Other values that explain it: the dialog, the window sent, the totals compared. */
  details?: Record<string, Json>;
  /** The answer judged (first), and any other that shows it: the read after an action, the other version's read. */
  exchanges?: FailureExchange[];
  /**
   * The other places the same failure (same id) was found: a test's call site, or the exchanges of the run's journal
   * the engine judged (checks/engine.ts), as many as were found, each once.
   */
  alsoFoundAt?: string[];
}

export interface Failure {
  /**
   * The check that failed, by its name in the registry of checks (checks/): "status_code_conformance",
   * "pagination_conformance.pages_disjoint". Its family (the name up to the first dot) is the one in the failure's id.
   */
  check: string;
  severity: FailureSeverity;
  /** The operation whose answer failed; null for a failure of a test or of the run. */
  operationId: OperationId | null;
  /** A comparison of two operations' answers (V1 against V2): the other operation. */
  comparedWith?: OperationId;
  status: number | null;
  /**
   * The stable place: a JSON pointer into the answer with list positions as "*", "status", "content-type", "body",
   * or a named place of a semantic check ("filter BotID", "status of the dialog afterwards"). No value of the run.
   */
  pointer: string;
  /** What the spec asks, with no value of the run (those go in `context`). */
  expected: string;
  /** Spec section of the expectation. */
  section: string;
  /** What was seen, as stable as the check can say it (a status, a kind, "listed"); the full value in `context`. */
  observed: string;
  context: FailureContext;
}

/** A failure as the run reports it: with its id and the test that raised it ("[api] v2/file.spec.ts › title"). */
export interface RecordedFailure extends Failure {
  id: string;
  test: string;
}

/** Annotation type of a recorded failure on its test; its description is the JSON of a Failure. */
export const CONTRACT_FAILURE = 'contract-failure';

/**
 * A check the run could not judge: what it needs in order to judge (a V1 twin, a listed dialog, a clock) could not be
 * found, and nothing shows the vendor lost it. Never a failure and never a ticket: the run lists it with why, as it
 * lists a test whose answer was lost, and a run that judged nothing wrong cannot then say the vendor passes.
 */
export interface UnjudgedCheck {
  /** The check, by its name in the registry (checks/). */
  check: string;
  operationId: OperationId;
  /** The stable place the check would have judged. */
  pointer: string;
  section: string;
  /** What the run could not find, and where it looked. */
  why: string;
}

/** Annotation type of a check its test could not judge; its description is the JSON of an UnjudgedCheck. */
export const NOT_JUDGED = 'not-judged';

/** "effect_of_goto at bot of the dialog afterwards (POST /v2/conversation/{uuid}/command, §4.2): why". */
export const unjudgedLine = (u: UnjudgedCheck): string => `${u.check} at ${u.pointer} (${OPERATIONS[u.operationId].label}, §${u.section}): ${u.why}`;

const PREFIX: Record<FailureSeverity, string> = { breaking: 'contract.', learned: 'learned.' };

/**
 * Stable across runs: the check's family, the operation, the status and the place. The family (the name up to its
 * first dot, checks/check.ts familyOf) keeps the ids of failures from before the checks were split into one function each.
 */
export const failureId = (f: Pick<Failure, 'severity' | 'check' | 'operationId' | 'status' | 'pointer'>): string =>
  `${PREFIX[f.severity]}${f.check.split('.')[0]} ${f.operationId ?? '-'} ${f.status ?? '-'} ${f.pointer}`;

/** How QA names the operation: "GET /v2/conversations", "GET /v1/conversation/{id} vs GET /v2/conversation/{uuid}". */
export function operationLabel(f: Pick<Failure, 'operationId' | 'comparedWith'>): string {
  if (f.operationId === null) return '(test)';
  const label = OPERATIONS[f.operationId].label;
  return f.comparedWith ? `${label} vs ${OPERATIONS[f.comparedWith].label}` : label;
}

/** A value as a failure shows it: strings quoted, objects with sorted keys, nothing at all as "missing". */
export function showValue(value: unknown, max = 120): string {
  if (value === undefined) return 'missing';
  const text = typeof value === 'string' ? JSON.stringify(value) : stableStringify(value, 0);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** What the spec asks, as a ticket states it: the expectation, why it applies, its section. */
export const renderExpected = (f: Failure): string => `${f.expected}${f.context.because ? ` ${f.context.because}` : ''} (spec §${f.section})`;

/** What was seen, with the value when the observation names only its kind. */
export const renderObserved = (f: Failure): string => (f.context.value === undefined ? f.observed : `${f.observed} ${showValue(f.context.value, 80)}`);

const clip = (text: string, length: number) => (length > text.length ? `${text}… (${length} chars)` : text);

/** A request and its answer as a ticket quotes them. */
export function renderExchange({ request, response }: FailureExchange): string {
  const credentials = request.credentials === 'configured' ? '' : ` (credentials: ${request.credentials})`;
  return [
    `request: ${request.method} ${request.path}${credentials}${request.body ? ` body ${request.body}` : ''}`,
    response
      ? `response: ${response.status} ${response.contentType ?? '(no content type)'} ${clip(response.body, response.bodyLength) || '(empty body)'}`
      : 'response: none whole',
  ].join('\n');
}

/** The lines that show a failure in this run: the check, its values, and each request with its answer. */
export function renderEvidence(f: Failure): string {
  const shown = (value: Json) => (typeof value === 'string' && value !== '' ? value : showValue(value));
  const details = Object.entries(f.context.details ?? {}).map(([key, value]) => `${key} ${shown(value)}`);
  const also = f.context.alsoFoundAt?.length ? [`also found at: ${f.context.alsoFoundAt.join('; ')}`] : [];
  return [
    `check: ${f.check} (${f.severity})${details.length ? `; ${details.join(', ')}` : ''}`,
    ...also,
    ...(f.context.exchanges ?? []).map(renderExchange),
  ].join('\n');
}

/** "OP → STATUS: PLACE: expected X (spec §S), observed Y": the headline of a failure in a message and a ticket. */
export function renderHeadline(f: Failure): string {
  const status = f.status === null ? '' : ` → ${f.status}`;
  return `${operationLabel(f)}${status}: ${f.context.location ?? f.pointer}: expected ${renderExpected(f)}, observed ${renderObserved(f)}`;
}

/** The whole failure as a test prints it. */
export const renderFailure = (f: Failure): string => `${renderHeadline(f)}\n${renderEvidence(f)}`;
