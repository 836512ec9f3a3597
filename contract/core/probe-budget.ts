// The probes' manners towards a shared staging system: a budget of requests per run (PROBE_BUDGET). Throttling is
// the client's (contract/target/run-throttle.ts); resends after a 429/503 are counted here as retries. The count lives in
// a file of the run, a line added at each probe's end (a write per request was a tenth of the probes' CPU; a file
// rewritten in place, on ext4, waits for the disk: 6 ms a probe), so a worker restarted after a failure goes on
// counting where the last one stopped: the last line.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendJsonl } from './run-records.ts';

/** Annotation type of each probe's {sent, retries, bound}: the reporter sums them for the run. */
export const PROBE_REQUESTS = 'probe-requests';

export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted';
}

interface Counts {
  spent: number;
  retries: number;
}

export class ProbeBudget {
  private counts: Counts;

  constructor(
    readonly limit: number,
    private readonly file: string,
  ) {
    const last = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').at(-1) : undefined;
    this.counts = last ? (JSON.parse(last) as Counts) : { spent: 0, retries: 0 };
  }

  static forRun(reportsDir: string, limit: number): ProbeBudget {
    mkdirSync(join(reportsDir, 'probes'), { recursive: true });
    return new ProbeBudget(limit, join(reportsDir, 'probes', 'budget.jsonl'));
  }

  get spent(): number {
    return this.counts.spent;
  }

  get retries(): number {
    return this.counts.retries;
  }

  /**
   * A probe about to send up to `requests` requests: refused, before it sends any, when they do not fit beside the
   * `outstanding` ones it declared before and sends later (its dialogs' stops at its end).
   */
  reserve(requests: number, what: string, outstanding = 0): void {
    const left = this.limit - this.counts.spent - outstanding;
    if (requests > left) {
      throw new BudgetExhausted(
        `could not observe ${what}: it needs up to ${requests} requests and only ${left} of PROBE_BUDGET=${this.limit} are left; raise PROBE_BUDGET`,
      );
    }
  }

  /** The client hook (contract/target/client.ts ClientHooks): every send counts, a resend also as a retry. */
  hooks(): { beforeRequest: (attempt: number) => void } {
    return {
      beforeRequest: (attempt) => {
        this.counts = { spent: this.counts.spent + 1, retries: this.counts.retries + (attempt > 1 ? 1 : 0) };
      },
    };
  }

  /** Writes the count for the run's next worker: at the end of each probe, whether it passed or failed. */
  save(): void {
    appendJsonl(this.file, this.counts);
  }
}
