// Options every script shares: the thresholds that make a run fail honestly, and no redirects (a redirect could
// leave the allow list).
import { check } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import { evidenceCheckName } from '../../../discovery/load-summary.ts';

/**
 * k6 logs an iteration that throws and goes on, and exits 0. Each iteration is counted: one that ran through in
 * completed_iterations (count>0: a run where all of them threw fails), one that threw in iteration_errors
 * (count==0: a single one fails the run, at once).
 */
const completedIterations = new Counter('completed_iterations');
const iterationErrors = new Counter('iteration_errors');

export function completing<A extends unknown[]>(body: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      body(...args);
    } catch (err) {
      iterationErrors.add(1);
      throw err;
    }
    completedIterations.add(1);
  };
}

export function loadOptions(scenarios: Record<string, Scenario>, thresholds: Options['thresholds'] = {}): Options {
  return {
    scenarios,
    thresholds: {
      checks: ['rate>0.99'],
      completed_iterations: ['count>0'],
      iteration_errors: [{ threshold: 'count==0', abortOnFail: true }],
      // Unexpected statuses (5xx, and 4xx other than those expectStatuses() allows) stop the run early.
      http_req_failed: [{ threshold: 'rate<0.02', abortOnFail: true, delayAbortEval: '5s' }],
      ...thresholds,
    },
    maxRedirects: 0,
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  };
}

/** p95 budgets per operation; they also put each operation's latency into the summary. */
export function latencyThresholds(operationIds: readonly string[], p95Ms: number): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {};
  for (const id of operationIds) thresholds[`http_req_duration{operation:${id}}`] = [`p(95)<${p95Ms}`];
  return thresholds;
}

/** 2xx plus the given statuses count as expected, i.e. not in http_req_failed. */
export function expectStatuses(...statuses: number[]): void {
  http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, ...statuses));
}

/** Hands a value to handleSummary (see discovery/load-summary.ts: evidence channel). */
export function recordEvidence(kind: string, value: unknown): void {
  check(null, { [evidenceCheckName(kind, value)]: () => true });
}
