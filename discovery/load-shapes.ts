// Named load shapes of the k6 scripts, as plain scenario objects (assignable to k6's scenario options). Pure, so the
// rate-limit script's handleSummary can rebuild the very ladder it ran from the same inputs, and tests can check it.
import type { OperationId } from '../openapi/operations.generated.ts';
import { MAX_RUNNERS } from './execution-segment.ts';

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

export interface SearchScenario {
  executor: 'per-vu-iterations';
  exec: string;
  vus: number;
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
 * law), plus one per runner for a request that waits out its phase (discovery/ladder-analysis.ts, phaseJitter).
 * Beyond that, k6 drops iterations, which the ladder analysis reads as under-delivery. k6 splits VUs among the
 * runners of a split test like the rate, and a runner left without a VU skips the scenario: so never fewer than
 * MAX_RUNNERS, allocated up front.
 */
export function vusFor(rate: number, latencyBudgetMs = 250): { preAllocatedVUs: number; maxVUs: number } {
  const needed = Math.ceil((rate * latencyBudgetMs) / 1000);
  return { preAllocatedVUs: Math.max(MAX_RUNNERS, Math.ceil(needed / 4)), maxVUs: needed + MAX_RUNNERS };
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

/**
 * For searches that must ask one question at a time (size limits): one iteration on each of MAX_RUNNERS VUs, so that
 * k6 leaves no runner of a split test without one (it would skip the scenario there, and the runner could not say
 * why); the script lets only the first VU of the first runner search (isFirst, exec.vu.idInInstance).
 */
export function sequentialSearch(exec: string, maxDuration = '5m'): SearchScenario {
  return { executor: 'per-vu-iterations', exec, vus: MAX_RUNNERS, iterations: 1, maxDuration, gracefulStop: '10s' };
}
