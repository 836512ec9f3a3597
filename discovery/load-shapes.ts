// Named load shapes of the k6 scripts, as plain scenario objects (assignable to k6's scenario options). Pure, so the
// rate-limit script's handleSummary can rebuild the very ladder it ran from the same inputs, and tests can check it.
import type { OperationId } from '../openapi/operations.generated.ts';

export interface ArrivalRateScenario {
  executor: 'constant-arrival-rate';
  exec: string;
  rate: number;
  timeUnit: '1s';
  duration: string;
  startTime: string;
  preAllocatedVUs: number;
  maxVUs: number;
  gracefulStop: string;
  tags: Record<string, string>;
}

export interface OneShotScenario {
  executor: 'per-vu-iterations';
  exec: string;
  vus: 1;
  iterations: 1;
  maxDuration: string;
  gracefulStop: string;
}

/** One rung of a ladder: which scenario ran which rate when. */
export interface LadderStep {
  scenario: string;
  /** The operationId the rung sends. */
  operation: OperationId;
  targetRate: number;
  startSeconds: number;
  durationSeconds: number;
}

export interface LadderPlan {
  scenarios: Record<string, ArrivalRateScenario>;
  steps: LadderStep[];
  endSeconds: number;
}

/**
 * VUs for an open-model rate: enough to keep `rate` requests/s going at `latencyBudgetMs` per request (Little's
 * law), never fewer than 2. Beyond that, k6 drops iterations, which the ladder analysis reads as under-delivery.
 */
export function vusFor(rate: number, latencyBudgetMs = 250): { preAllocatedVUs: number; maxVUs: number } {
  const needed = Math.ceil((rate * latencyBudgetMs) / 1000);
  return { preAllocatedVUs: Math.max(2, Math.ceil(needed / 4)), maxVUs: Math.max(2, needed) };
}

/** Integer rates from `from` to `to` growing by `factor` (k6 arrival rates are integers per time unit). */
export function geometricRates(from: number, to: number, factor: number): number[] {
  if (!(from >= 1 && to >= from && factor > 1)) throw new RangeError(`ladder needs 1 <= from <= to and factor > 1, got ${from}, ${to}, ${factor}`);
  const rates: number[] = [];
  for (let rate = from; Math.round(rate) <= to; rate *= factor) {
    const rounded = Math.round(rate);
    if (rounded !== rates[rates.length - 1]) rates.push(rounded);
  }
  return rates;
}

/** Steady load on one operation. */
export function steady(operation: string, exec: string, rate: number, durationSeconds: number, startSeconds = 0): ArrivalRateScenario {
  return {
    executor: 'constant-arrival-rate',
    exec,
    rate,
    timeUnit: '1s',
    duration: `${durationSeconds}s`,
    startTime: `${startSeconds}s`,
    ...vusFor(rate),
    gracefulStop: '5s',
    tags: { operation },
  };
}

/**
 * A ladder: one constant-arrival-rate scenario per rate, back to back from `startSeconds`. No graceful stop, so a
 * rung's stragglers never overlap the next rung's measurement.
 */
export function ladder(operation: OperationId, exec: string, rates: readonly number[], stageSeconds: number, startSeconds = 0): LadderPlan {
  const scenarios: Record<string, ArrivalRateScenario> = {};
  const steps: LadderStep[] = [];
  let t = startSeconds;
  const width = String(Math.max(...rates)).length;
  for (const rate of rates) {
    const scenario = `${operation}_r${String(rate).padStart(width, '0')}`;
    scenarios[scenario] = { ...steady(operation, exec, rate, stageSeconds, t), gracefulStop: '0s' };
    steps.push({ scenario, operation, targetRate: rate, startSeconds: t, durationSeconds: stageSeconds });
    t += stageSeconds;
  }
  return { scenarios, steps, endSeconds: t };
}

/** One VU, one iteration: for searches that must run in order (size limits). */
export function oneShot(exec: string, maxDuration = '5m'): OneShotScenario {
  return { executor: 'per-vu-iterations', exec, vus: 1, iterations: 1, maxDuration, gracefulStop: '10s' };
}
