// One request of a run and the answer it got, as the contract client records it (contract/target/client.ts, one journal file
// per worker), folded into reports/exchanges.har at the run's end (report/har.ts) and read back from there by the
// coverage matrix (contract/run/run-end.ts) and the overlay check (scripts/overlay-check.ts). Secrets are removed before
// it is written: the request as a failure keeps it, the answer with every secret the process knows taken out.
import type { OperationId } from '../openapi/operations.generated.ts';
import type { FailureRequest } from './failure.ts';

export interface RecordedExchange {
  operationId: OperationId;
  /** The request as sent below the base URL: its body redacted, its credentials named (never their values). */
  request: FailureRequest;
  /** The test (or the run's setup) that sent it. */
  test: string;
  /** When the request was sent (ISO 8601) and how long its answer took to arrive whole (ms). */
  startedAt: string;
  ms: number;
  status: number;
  statusText: string;
  /** The answer's headers (lower-case names), credential-carrying ones blanked, known secrets removed. */
  headers: Record<string, string>;
  contentType: string | null;
  contentLength: string | null;
  /** The answer's body as text, secrets removed. */
  body: string;
  /** A 429 or 503 the run waited out (and sent again, unless it gave up there): an answer no check judges. */
  throttled?: true;
  /**
   * Why its answer is an observation of what the spec leaves unsaid, not held to the statuses §7 lists: a request of a
   * probe (limits, validation order, defaults) or of the run's setup (body-shape discovery), which may send what the
   * document does not describe on purpose. Its answer's body is still judged where its status is documented.
   */
  probing?: string;
  /** A gateway's 502/504 the client took for the network's (sent again, or its test made inconclusive): no answer of the API's to judge. */
  transient?: true;
  /**
   * The exchange among the run's: its process and its number there. What the run knew of it beside the exchange (what
   * a test held its answer to, the dialog a create made) names it by this: two requests alike may leave within one
   * millisecond (a 401 answered at once, then the same request with the right password; two workers' creates).
   */
  exchangeId?: string;
}

/**
 * What the test that sent a request held its answer to, beyond any status the document lists: the statuses it must
 * get (a set where §7 lists several), why, the section, and the check that names a request wrong on purpose.
 */
export interface RecordedExpectation {
  status?: number | number[] | '2XX';
  because?: string;
  section?: string;
  check?: 'status_code_conformance' | 'ignored_auth' | 'negative_data_rejection';
  bodyNotShown?: boolean;
}
