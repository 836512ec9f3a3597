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

/** Where a credential's quota stands after a request: whether it was refused, what is left, and the seconds until a refused one could pass and until the quota is whole again. */
interface Quota {
  limited: boolean;
  remaining: number;
  waitSeconds: number;
  resetSeconds: number;
}

/**
 * Per credential, one of the limiters gateways use: a token bucket (`burst` requests at once, refilled at
 * `perSecond`), a fixed window (`perSecond` requests in each whole second of the clock, e.g. nginx-style counters)
 * or a sliding-window log (`perSecond` requests in any second). Refused requests count against no quota.
 */
export class RateLimiter {
  private readonly tokens = new Map<string, { tokens: number; at: number }>();
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly logs = new Map<string, number[]>();

  constructor(
    private readonly rate: RateLimitConfig,
    private readonly now: () => number,
  ) {}

  /** Takes one request of `key`'s quota; throws 429 (or the configured status), with Retry-After as configured, when none is left. */
  take(key: string): Record<string, string> {
    const now = this.now();
    const quota = this.quota(key, now);
    const headers = this.headers(quota);
    if (!quota.limited) return headers;
    // A fixed retryAfterSeconds replaces the seconds until a request could pass.
    const wait = this.rate.retryAfterSeconds ?? quota.waitSeconds;
    const seconds = Math.ceil(wait);
    const form = this.rate.retryAfter ?? 'seconds';
    // An HTTP-date has whole seconds: the moment is rounded up, so a client waiting until then finds a token.
    if (form === 'seconds') headers['Retry-After'] = String(seconds);
    if (form === 'http-date') headers['Retry-After'] = new Date(Math.ceil((now + wait * 1000) / 1000) * 1000).toUTCString();
    const when = form === 'seconds' ? `after ${seconds} s` : form === 'http-date' ? `at ${headers['Retry-After']}` : 'later';
    throw new HttpError(this.rate.status ?? 429, `rate limit of ${this.rate.perSecond} requests per second exceeded; retry ${when}`, undefined, headers);
  }

  private quota(key: string, now: number): Quota {
    const { perSecond, burst } = this.rate;
    switch (this.rate.kind ?? 'token-bucket') {
      case 'token-bucket': {
        const bucket = this.tokens.get(key) ?? { tokens: burst, at: now };
        bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
        bucket.at = now;
        this.tokens.set(key, bucket);
        const limited = bucket.tokens < 1;
        if (!limited) bucket.tokens -= 1;
        const refill = (tokens: number) => (perSecond > 0 ? tokens / perSecond : 3600);
        return { limited, remaining: bucket.tokens, waitSeconds: refill(1 - bucket.tokens), resetSeconds: refill(burst - bucket.tokens) };
      }
      case 'fixed-window': {
        const start = Math.floor(now / 1000) * 1000;
        const window = this.windows.get(key);
        const current = window && window.start === start ? window : { start, count: 0 };
        this.windows.set(key, current);
        const limited = current.count + 1 > perSecond;
        if (!limited) current.count++;
        const toNext = (start + 1000 - now) / 1000;
        return { limited, remaining: perSecond - current.count, waitSeconds: toNext, resetSeconds: toNext };
      }
      case 'sliding-window': {
        const log = (this.logs.get(key) ?? []).filter((at) => at > now - 1000);
        this.logs.set(key, log);
        const limited = log.length + 1 > perSecond;
        if (!limited) log.push(now);
        // A request passes once enough of the logged ones are a second old; the log is empty a second after its last.
        const freed = log[Math.max(0, log.length - Math.floor(perSecond))];
        return {
          limited,
          remaining: perSecond - log.length,
          waitSeconds: freed === undefined ? 3600 : (freed + 1000 - now) / 1000,
          resetSeconds: log.length ? (log[log.length - 1]! + 1000 - now) / 1000 : 0,
        };
      }
    }
  }

  /** The quota headers of an answer. */
  private headers(quota: Quota): Record<string, string> {
    const { perSecond, burst, lying } = this.rate;
    const bucket = (this.rate.kind ?? 'token-bucket') === 'token-bucket';
    // What a client may send at once: the bucket's burst, a window's count; lying, twice that, and as much more left.
    const size = (bucket ? burst : perSecond) * (lying ? 2 : 1);
    const remaining = String(Math.max(0, Math.floor(quota.remaining)) + (lying ? size / 2 : 0));
    const reset = String(Math.ceil(quota.resetSeconds));
    switch (this.rate.headers ?? 'x-ratelimit') {
      case 'x-ratelimit':
        return { 'X-RateLimit-Limit': String(size), 'X-RateLimit-Remaining': remaining };
      case 'ratelimit':
        // RateLimit-Reset: seconds until the quota is whole again.
        return { 'RateLimit-Limit': String(size), 'RateLimit-Remaining': remaining, 'RateLimit-Reset': reset };
      case 'ietf': {
        // A policy's window is whole seconds: a bucket's rate over the shortest window that holds its burst.
        const window = bucket ? Math.max(1, Math.ceil(burst / perSecond)) : 1;
        const q = Math.round(perSecond * window) * (lying ? 2 : 1);
        return { 'RateLimit-Policy': `"default";q=${q};w=${window}`, RateLimit: `"default";r=${remaining};t=${reset}` };
      }
      case 'none':
        return {};
    }
  }
}
