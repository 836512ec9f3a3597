// The run's manners in one worker: each send booked from the run's one pace (contract/target/pace-link.ts) once the
// run is paced, 429/503 waited out as http/throttle.ts decides, and every throttled answer journalled, so the run's rate-limit observation sees all of them and the wait bound holds for the run, not
// per worker.
import { journal, readJournal } from '../core/journal.ts';
import { runWait, waited } from '../core/run-waits.ts';
import type { PaceLink } from './pace-link.ts';
import { headerValue, rateLimitHeaders, THROTTLE_STATUSES, throttleDecision, type ThrottleRecord, type ThrottleSettings } from '../../http/throttle.ts';

/** The target went on throttling past the run's bounds: the run could not be finished, no contract failure. */
export class ThrottledOut extends Error {
  override name = 'ThrottledOut';
}

export const readThrottleRecords = (reportsDir: string): ThrottleRecord[] => readJournal(reportsDir, 'throttle');

/** Where the run's pace is kept (host:port), and whether the run is paced from its start (a limit known then). */
export interface PaceAt {
  address: string;
  paced: boolean;
}

/** The run's pace (contract/target/pace-link.ts), started by its global setup: every worker tells it of every send. */
export const RUN_PACE_ENV = 'DIALOG_CONTRACT_PACE';
/** "1" when the run knew its target's limit, or MAX_RPS, at its start: each send books its slot from the first. */
export const RUN_PACED_ENV = 'DIALOG_CONTRACT_PACED';

/** The pace global setup left the run's workers; no address where it did not set the run up (it stopped first). */
export const runPaceAt = (): PaceAt => ({ address: process.env[RUN_PACE_ENV] ?? '', paced: process.env[RUN_PACED_ENV] === '1' });

export class RunThrottle {
  private sent = 0;

  constructor(
    private readonly settings: ThrottleSettings,
    private readonly pace: PaceLink,
    private readonly reportsDir: string,
    private readonly runStartedAt: number,
  ) {}

  /**
   * Before each send: one on the configured credentials (`held`) waits for its turn in the run's pace (`first`: ahead
   * of every other waiting send) once the run is paced; an unpaced run asks nothing.
   */
  async beforeSend(held: boolean, first = false): Promise<void> {
    if (held && this.pace.paced) {
      const asked = Date.now();
      await this.pace.turn(first);
      waited(Date.now() - asked);
    }
    this.sent++;
  }

  /**
   * After the answer to the `attempt`-th send: true when the request must be sent again (the wait is over), false
   * to keep the answer. Throws ThrottledOut when the retries or the run's waiting are used up.
   */
  async again(operationId: string, label: string, answer: { status: number; headers: Record<string, string> }, attempt: number): Promise<boolean> {
    if (!THROTTLE_STATUSES.includes(answer.status)) return false;
    const waited = readThrottleRecords(this.reportsDir).reduce((sum, r) => sum + (r.waitSeconds ?? 0), 0);
    const decision = throttleDecision(answer, attempt, waited, this.settings, Math.random, Date.now());
    if (!decision.throttled) return false;
    const record: ThrottleRecord = {
      operationId,
      status: answer.status,
      retryAfter: headerValue(answer.headers, 'retry-after') ?? null,
      headers: rateLimitHeaders(answer.headers),
      waitSeconds: decision.retry ? decision.waitSeconds : null,
      requestNumber: this.sent,
      atSeconds: (Date.now() - this.runStartedAt) / 1000,
    };
    journal(this.reportsDir, 'throttle', record);
    if (!decision.retry) {
      throw new ThrottledOut(
        `${label} → ${answer.status}: the target went on throttling, ${decision.why}: lower MAX_RPS or raise the THROTTLE_* bounds (a rate limit is not a contract failure)`,
      );
    }
    await runWait(decision.waitSeconds * 1000);
    return true;
  }
}
