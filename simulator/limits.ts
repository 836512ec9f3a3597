// Hidden limits (spec §8: not shown): each is off until config sets it, and answers its configured status/body.
import type { LimitConfig, PageCountLimit, RateLimitConfig } from './config.ts';
import { HttpError } from './exchange.ts';

/** Throws the limit's rejection when `actual` exceeds the configured maximum. */
export function enforceLimit(limit: LimitConfig | null, actual: number, what: string): void {
  if (limit && actual > limit.value) {
    throw new HttpError(limit.status ?? 400, `${what} is ${actual}, above the limit of ${limit.value}`, limit.body);
  }
}

/** The page size served for a requested PageCount: clamped to the maximum, or refused above it. */
export function pageSize(limit: PageCountLimit | null, requested: number): number {
  if (limit?.clamp) return Math.min(requested, limit.value);
  enforceLimit(limit, requested, 'PageCount');
  return requested;
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

  /** Takes one token for `key`; throws 429 (or the configured status), with Retry-After as configured, when none is left. */
  take(key: string): Record<string, string> {
    const now = this.now();
    const { perSecond, burst } = this.rate;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    const limited = bucket.tokens < 1;
    if (!limited) bucket.tokens -= 1;
    const headers = this.headers(bucket.tokens);
    if (!limited) return headers;
    // Seconds until a token is back; a fixed retryAfterSeconds replaces it.
    const wait = this.rate.retryAfterSeconds ?? (perSecond > 0 ? (1 - bucket.tokens) / perSecond : 3600);
    const seconds = Math.ceil(wait);
    const form = this.rate.retryAfter ?? 'seconds';
    // An HTTP-date has whole seconds: the moment is rounded up, so a client waiting until then finds a token.
    if (form === 'seconds') headers['Retry-After'] = String(seconds);
    if (form === 'http-date') headers['Retry-After'] = new Date(Math.ceil((now + wait * 1000) / 1000) * 1000).toUTCString();
    const when = form === 'seconds' ? `after ${seconds} s` : form === 'http-date' ? `at ${headers['Retry-After']}` : 'later';
    throw new HttpError(this.rate.status ?? 429, `rate limit of ${perSecond} requests per second exceeded; retry ${when}`, undefined, headers);
  }

  /** The quota headers of an answer, `tokens` being what is left after it. */
  private headers(tokens: number): Record<string, string> {
    const { perSecond, burst } = this.rate;
    const remaining = String(Math.max(0, Math.floor(tokens)));
    switch (this.rate.headers ?? 'x-ratelimit') {
      case 'x-ratelimit':
        return { 'X-RateLimit-Limit': String(burst), 'X-RateLimit-Remaining': remaining };
      case 'ratelimit': {
        // RateLimit-Reset: seconds until the bucket is full again.
        const reset = perSecond > 0 ? Math.ceil((burst - tokens) / perSecond) : 3600;
        return { 'RateLimit-Limit': String(burst), 'RateLimit-Remaining': remaining, 'RateLimit-Reset': String(reset) };
      }
      case 'none':
        return {};
    }
  }
}
