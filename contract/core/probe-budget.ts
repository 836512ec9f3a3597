// The probes' manners towards a shared staging system: a budget of requests per run (PROBE_BUDGET). Throttling is
// the client's (contract/target/run-throttle.ts); resends after a 429/503 are counted here as retries. The count lives in
// a file of the run, a line added at each probe's end with what its worker sent since its last line (a write per
// request was a tenth of the probes' CPU; a file rewritten in place, on ext4, waits for the disk: 6 ms a probe). The
// run's count is the sum of the lines, so it holds across every worker that runs the run's probes (a worker restarted
// after a failure, or the workers of a lane of several runs, scripts/suite-run.ts, each running some of its probe
// files), each line one append, whole.
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
  /** What this worker sent: a probe's own share is read from it, before and after. */
  private counts: Counts = { spent: 0, retries: 0 };
  /** What of it the run's file holds already. */
  private saved: Counts = { spent: 0, retries: 0 };

  constructor(
    readonly limit: number,
    private readonly file: string,
  ) {}

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

  /** What the whole run sent: every worker's lines, and what this one sent since its last. */
  private runSpent(): number {
    const lines = existsSync(this.file) ? readFileSync(this.file, 'utf8').split('\n').filter(Boolean) : [];
    return lines.reduce((sum, line) => sum + (JSON.parse(line) as Counts).spent, this.counts.spent - this.saved.spent);
  }

  /**
   * A probe about to send up to `requests` requests: refused, before it sends any, when they do not fit beside the
   * `outstanding` ones it declared before and sends later (its dialogs' stops at its end).
   */
  reserve(requests: number, what: string, outstanding = 0): void {
    const left = this.limit - this.runSpent() - outstanding;
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

  /** Adds what this worker sent since its last line to the run's count: at the end of each probe, passed or failed. */
  save(): void {
    appendJsonl(this.file, { spent: this.counts.spent - this.saved.spent, retries: this.counts.retries - this.saved.retries });
    this.saved = { ...this.counts };
  }
}
