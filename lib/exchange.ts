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
}
