// The run's manners in one worker: requests paced at MAX_RPS (shared out among the workers), 429/503 waited out as
// http/throttle.ts decides, and every throttled answer recorded under reports/throttle/, so the run's rate-limit
// observation sees all of them and the wait bound holds for the run, not per worker.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines } from './run-records.ts';
import { headerValue, Pacer, rateLimitHeaders, THROTTLE_STATUSES, throttleDecision, type ThrottleRecord, type ThrottleSettings } from '../http/throttle.ts';

export const THROTTLE_DIR = 'throttle';

/** The target went on throttling past the run's bounds: the run could not be finished, no contract failure. */
export class ThrottledOut extends Error {
  override name = 'ThrottledOut';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const readThrottleRecords = (reportsDir: string): ThrottleRecord[] => readJsonLines<ThrottleRecord>(join(reportsDir, THROTTLE_DIR));

export class RunThrottle {
  private sent = 0;
  private readonly pacer: Pacer | undefined;
  private readonly dir: string;

  constructor(
    private readonly settings: ThrottleSettings,
    /** This worker's share of MAX_RPS; undefined: unpaced. */
    perSecond: number | undefined,
    reportsDir: string,
    private readonly worker: string,
    private readonly runStartedAt: number,
  ) {
    this.pacer = perSecond === undefined ? undefined : new Pacer(perSecond);
    this.dir = join(reportsDir, THROTTLE_DIR);
  }

  async beforeSend(): Promise<void> {
    const wait = this.pacer?.delayMs(Date.now()) ?? 0;
    if (wait > 0) await sleep(wait);
    this.sent++;
  }

  /**
   * After the answer to the `attempt`-th send: true when the request must be sent again (the wait is over), false
   * to keep the answer. Throws ThrottledOut when the retries or the run's waiting are used up.
   */
  async again(operationId: string, label: string, answer: { status: number; headers: Record<string, string> }, attempt: number): Promise<boolean> {
    if (!THROTTLE_STATUSES.includes(answer.status)) return false;
    const waited = readJsonLines<ThrottleRecord>(this.dir).reduce((sum, r) => sum + (r.waitSeconds ?? 0), 0);
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
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(join(this.dir, `${this.worker}.jsonl`), `${JSON.stringify(record)}\n`);
    if (!decision.retry) {
      throw new ThrottledOut(
        `${label} → ${answer.status}: the target went on throttling, ${decision.why}: lower MAX_RPS or raise the THROTTLE_* bounds (a rate limit is not a contract failure)`,
      );
    }
    await sleep(decision.waitSeconds * 1000);
    return true;
  }
}
