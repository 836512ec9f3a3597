// The goal for rate limits, checked without k6: a ladder of constant arrival rates (the load shape the k6
// rate-limit script runs, discovery/load-shapes.ts) offered to the simulator's hidden token bucket over real HTTP, read
// by the same analysis (discovery/ladder-analysis.ts). The estimate must land within ±10% of the hidden rate.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseLadder, type LadderStage, type ResponseSample } from '../discovery/ladder-analysis.ts';
import { ladder } from '../discovery/load-shapes.ts';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { startSimulator, type RunningSimulator } from '../simulator/server.ts';
import { nodeClient, type Send } from './node-client.ts';

const HIDDEN_RATE = { perSecond: 30, burst: 5 };
const RUNG_SECONDS = 1;

let simulator: RunningSimulator;
let send: Send;

before(async () => {
  simulator = await startSimulator({ port: 0, log: () => {}, config: { limits: { rate: HIDDEN_RATE } } });
  send = nodeClient(simulator.url, DEFAULT_CONFIG.auth.login, DEFAULT_CONFIG.auth.password);
});

after(() => simulator.close());

/** Offers `rate` requests per second for the rung's duration, open model (no waiting for answers), like k6 does. */
async function offer(rate: number, seconds: number, samples: ResponseSample[]): Promise<Omit<LadderStage, 'name'>> {
  const start = performance.now();
  const latencies: number[] = [];
  const stage = { targetRate: rate, durationSeconds: seconds, iterations: 0, droppedIterations: 0, ok: 0, rateLimited: 0, failed: 0, p95Ms: 0, share: 1 };
  const inFlight: Array<Promise<void>> = [];
  for (let i = 0; i < Math.round(rate * seconds); i++) {
    const due = start + (i * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    stage.iterations++;
    const sentAt = performance.now();
    inFlight.push(
      send({ operationId: 'getV2Conversations', pathParams: {}, query: { PageCount: '5' } }).then((response) => {
        latencies.push(performance.now() - sentAt);
        if (response.status === 200) stage.ok++;
        else if (response.status === 429) {
          stage.rateLimited++;
          samples.push(response);
        } else stage.failed++;
      }),
    );
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  stage.p95Ms = latencies[Math.floor(latencies.length * 0.95)] ?? 0;
  return stage;
}

test('a ladder finds the hidden token-bucket rate within ±10% and reports how it refuses', async () => {
  const plan = ladder('getV2Conversations', 'listRung', [15, 24, 38, 60], RUNG_SECONDS);
  const samples: ResponseSample[] = [];
  const stages: LadderStage[] = [];
  for (const step of plan.steps) stages.push({ name: step.scenario, ...(await offer(step.targetRate, step.durationSeconds, samples)) });

  const analysis = analyseLadder(stages, samples);
  const where = JSON.stringify(analysis.stages);
  assert.ok(analysis.estimatedLimit !== null, where);
  assert.ok(Math.abs(analysis.estimatedLimit - HIDDEN_RATE.perSecond) <= 0.1 * HIDDEN_RATE.perSecond, `estimated ${analysis.estimatedLimit}/s: ${where}`);
  assert.equal(analysis.sustainedRate, 24, where);
  assert.equal(analysis.firstLimited?.verdict, 'rate-limited');
  assert.equal(analysis.rejection?.status, 429);
  assert.notEqual(analysis.rejection?.retryAfter, null);
  assert.deepEqual(Object.keys(analysis.rejection?.rateLimitHeaders ?? {}).sort(), ['x-ratelimit-limit', 'x-ratelimit-remaining']);
});
