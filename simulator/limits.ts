// Hidden limits (spec §8: not shown): each is off until config sets it, and answers its configured status/body.
import type { LimitConfig, RateLimitConfig } from './config.ts';
import { HttpError } from './exchange.ts';

/** Throws the limit's rejection when `actual` exceeds the configured maximum. */
export function enforceLimit(limit: LimitConfig | null, actual: number, what: string): void {
  if (limit && actual > limit.value) {
    throw new HttpError(limit.status ?? 400, `${what} is ${actual}, above the limit of ${limit.value}`, limit.body);
  }
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token bucket per credential: `burst` requests at once, refilled at `perSecond`. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rate: RateLimitConfig,
    private readonly now: () => number,
  ) {}

  /** Takes one token for `key`; throws 429 (or the configured status) with Retry-After when none is left. */
  take(key: string): Record<string, string> {
    const now = this.now();
    const { perSecond, burst } = this.rate;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    const headers = { 'X-RateLimit-Limit': String(burst), 'X-RateLimit-Remaining': String(Math.max(0, Math.floor(bucket.tokens - 1))) };
    if (bucket.tokens < 1) {
      const wait = perSecond > 0 ? Math.ceil((1 - bucket.tokens) / perSecond) : 3600;
      const retryAfter = String(this.rate.retryAfterSeconds ?? wait);
      throw new HttpError(this.rate.status ?? 429, `rate limit of ${perSecond} requests per second exceeded; retry after ${retryAfter} s`, undefined, {
        ...headers,
        'Retry-After': retryAfter,
      });
    }
    bucket.tokens -= 1;
    return headers;
  }
}
