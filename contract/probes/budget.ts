// The probes' manners towards a shared staging system: a budget of requests per run (PROBE_BUDGET), and a bounded
// pause-and-retry on 429/503 that honours Retry-After. The count lives in a file of the run, so a worker restarted
// after a failure goes on counting where the last one stopped.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerValue, retryDelaySeconds } from '../../lib/size-limits.ts';
import type { ApiResponse } from '../client.ts';

/** Annotation type of each probe's {sent, retries, bound}: the reporter sums them for the run. */
export const PROBE_REQUESTS = 'probe-requests';
/** Retries of one request after a 429/503; the waits themselves are capped at 30 s by retryDelaySeconds. */
export const MAX_RETRIES = 2;

export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted';
}

/** A 429/503 the probes saw (and waited out): what the rate-limit probe reports. */
export interface Throttle {
  status: number;
  retryAfter: string | undefined;
}

/** The client hooks of the probes (contract/client.ts ClientHooks): count every request, pace retries. */
export interface PoliteHooks {
  beforeRequest: () => void;
  retryDelay: (res: Pick<ApiResponse, 'status' | 'headers'>, attempt: number) => number | null;
}

interface Counts {
  spent: number;
  retries: number;
}

export class ProbeBudget {
  readonly throttles: Throttle[] = [];
  private counts: Counts;

  constructor(
    readonly limit: number,
    private readonly file: string,
  ) {
    this.counts = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Counts) : { spent: 0, retries: 0 };
  }

  static forRun(reportsDir: string, limit: number): ProbeBudget {
    mkdirSync(join(reportsDir, 'probes'), { recursive: true });
    return new ProbeBudget(limit, join(reportsDir, 'probes', 'budget.json'));
  }

  get spent(): number {
    return this.counts.spent;
  }

  get retries(): number {
    return this.counts.retries;
  }

  /** A probe about to send up to `requests` requests: refused, before it sends any, when they do not fit. */
  reserve(requests: number, what: string): void {
    const left = this.limit - this.counts.spent;
    if (requests > left) {
      throw new BudgetExhausted(`could not observe ${what}: it needs up to ${requests} requests and only ${left} of PROBE_BUDGET=${this.limit} are left; raise PROBE_BUDGET`);
    }
  }

  hooks(): PoliteHooks {
    return {
      beforeRequest: () => this.save({ ...this.counts, spent: this.counts.spent + 1 }),
      retryDelay: (res, attempt) => {
        const retryAfter = headerValue(res.headers, 'retry-after');
        const wait = retryDelaySeconds(res.status, retryAfter);
        if (wait === null) return null;
        this.throttles.push({ status: res.status, retryAfter });
        if (attempt > MAX_RETRIES) return null;
        this.save({ ...this.counts, retries: this.counts.retries + 1 });
        return wait;
      },
    };
  }

  private save(counts: Counts): void {
    this.counts = counts;
    writeFileSync(this.file, JSON.stringify(counts));
  }
}
