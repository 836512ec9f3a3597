// Shared by the pace's tests: the limiters a target may use, on a clock the test moves (times in ms), and what the
// run would read of them.
import type { Met } from './found-window.ts';

/** Whether a request arriving at `at` ms passes, what its counter shows after it, and in how many seconds the counter is whole again (rounded up, as gateways send it). */
export type Limiter = (at: number) => { ok: boolean; remaining: number; resetSeconds: number };

/** A token bucket of `rate` per second and `burst` at once; its counter is the whole tokens left. */
export function bucket(rate: number, burst: number): Limiter {
  let tokens = burst;
  let filledAt = 0;
  return (at) => {
    tokens = Math.min(burst, tokens + ((at - filledAt) / 1000) * rate);
    filledAt = at;
    const ok = tokens >= 1;
    if (ok) tokens -= 1;
    return { ok, remaining: Math.floor(tokens), resetSeconds: Math.ceil((burst - tokens) / rate) };
  };
}

/** `perSecond` requests in each whole second of the clock. */
export function fixedWindow(perSecond: number): Limiter {
  let window = -1;
  let count = 0;
  return (at) => {
    if (Math.floor(at / 1000) !== window) [window, count] = [Math.floor(at / 1000), 0];
    const ok = count < perSecond;
    if (ok) count++;
    return { ok, remaining: perSecond - count, resetSeconds: Math.ceil((1000 - (at % 1000)) / 1000) };
  };
}

/** `perSecond` requests in any second (a log of those accepted). */
export function slidingWindow(perSecond: number): Limiter {
  const log: number[] = [];
  return (at) => {
    while (log.length > 0 && log[0]! <= at - 1000) log.shift();
    const ok = log.length < perSecond;
    if (ok) log.push(at);
    return { ok, remaining: perSecond - log.length, resetSeconds: log.length > 0 ? Math.ceil((log.at(-1)! + 1000 - at) / 1000) : 0 };
  };
}

/** What a run reads of `limiter` for requests arriving at `arrivals`: each answer and its counter, and its Reset where `reset` (X-RateLimit-* often send none). */
export function metBy(limiter: Limiter, arrivals: number[], reset = false): Met[] {
  return arrivals.map((atMs) => {
    const { ok, remaining, resetSeconds } = limiter(atMs);
    return { atMs, accepted: ok, remaining, ...(reset ? { resetSeconds } : {}) };
  });
}

/** Arrival times `everyMs` apart from `fromMs` until before `toMs`. */
export function steady(everyMs: number, fromMs: number, toMs: number): number[] {
  const times: number[] = [];
  for (let at = fromMs; at < toMs; at += everyMs) times.push(at);
  return times;
}
