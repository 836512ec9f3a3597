// Before any worker starts (global setup), the run settles the send and command body shapes (spec §4.2: not shown)
// once: configured, or discovered and verified by their effect; every test then uses that one shape. A worker of
// its own for this cost a second of every run. It never fails on the target's answers: what went wrong is recorded,
// and each test that needs a shape says why it has none.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '@playwright/test';
import type { SuiteConfig } from '../config/suite-config.ts';
import { canonicalTemplate } from '../http/body-template.ts';
import { redactKnownIn } from '../http/redact.ts';
import { undetermined, type DiscoveryResult, type ShapeFinding } from '../http/body-discovery.ts';
import { contractValidators } from '../openapi/validators.ts';
import { startAuthProxy } from './auth-proxy.ts';
import { ApiClient, type Exchange } from './client.ts';
import type { Observation } from './observation.ts';
import { shapesTarget, writeRequestShapes } from './request-shapes.ts';
import { discoverShapes, type DiscoveryConfig } from './shape-discovery.ts';
import { appendJsonl, EXCHANGES_DIR, runStartedAt } from './run-records.ts';
import { RunThrottle } from './run-throttle.ts';
import { RunHealth } from './run-health.ts';
import { CREATED_DIALOGS_FILE } from './leftover-dialogs.ts';
import { OFFSET_WARNING_MS, offsetObserved, runVendorClock, vendorClockOf, type VendorClock } from './vendor-clock.ts';
import { createdSinceIn } from './lists.ts';

/** Where the run reporter finds what the setup observed, and how reports name its place. */
export const SETUP_OBSERVATIONS = join('run', 'setup-observations.json');
export const SETUP_TITLE = '[global setup] settles the send and command body shapes the target takes, verified by their effect';

const evidence = (finding: ShapeFinding) =>
  [finding.how, ...finding.tried.map((t) => `tried ${canonicalTemplate(t.template)} → ${t.status}, effect: ${t.effect}`)].join('\n');

/** What names a run's records (RUN_ID, RUN_STARTED_AT) and the vendor's clock as measured for it. */
export interface RunIdentity {
  id: string | undefined;
  startedAt: number;
  clock: VendorClock;
}

/**
 * The send and command shapes, configured or discovered through the suite's client (throttled, its exchanges and the
 * dialogs it made recorded under `reportsDir` as `title`'s); the discovery dialog ends stopped. Never throws on the
 * target's answers: a discovery that stopped says why in each shape.
 */
export async function discoverRunShapes(
  config: DiscoveryConfig,
  reportsDir: string,
  title: string,
  run: RunIdentity = { id: process.env.RUN_ID, startedAt: runStartedAt(), clock: runVendorClock() },
): Promise<DiscoveryResult> {
  const line = (file: string, row: unknown) => appendJsonl(join(reportsDir, file), row);
  const proxy = await startAuthProxy(config.baseUrl, config);
  const context = await request.newContext({ baseURL: `${proxy.url}/valid/api/` });
  let result: DiscoveryResult;
  try {
    const throttle = new RunThrottle(config.throttle, config.maxRps, reportsDir, 'setup', run.startedAt);
    // Its exchanges count for the coverage matrix like any test's.
    const record = (e: Exchange) => line(join(EXCHANGES_DIR, 'setup.jsonl'), { ...e, test: title });
    const health = new RunHealth(reportsDir, 'setup', run.startedAt, config.health);
    const api = new ApiClient(context, { spec: contractValidators(), learned: null }, 'valid', throttle, health, record, {}, false);
    const startedAt = Date.now();
    try {
      result = await discoverShapes(api, config, createdSinceIn(run.clock));
    } catch (err) {
      const why = `the discovery stopped: ${(err as Error).message.split('\n')[0]}`;
      result = { send: undetermined(why), command: undetermined(why), dialogs: [] };
    }
    // The discovery dialog ends stopped, as the dialog factory leaves every dialog a test made.
    for (const uuid of result.dialogs) {
      const stopped = await api.call('postV2ConversationStop', { path: { uuid } }).catch(() => undefined);
      line(CREATED_DIALOGS_FILE, {
        runId: run.id,
        uuid,
        botId: config.botId,
        via: 'v1-get',
        createdAfter: startedAt,
        test: title,
        cleanupStatus: stopped?.status ?? 0,
      });
    }
  } finally {
    await context.dispose();
    await proxy.close();
  }
  return result;
}

/**
 * The vendor's clock and the run's body shapes, recorded under `reportsDir`: the clock (for CLOCK_ENV) and the line
 * that says them. Nothing global: the runs of a several-run invocation are set up side by side.
 */
export async function settleRequestShapes(
  config: SuiteConfig,
  reportsDir: string,
  run: Omit<RunIdentity, 'clock'>,
): Promise<{ clock: VendorClock; line: string }> {
  const validators = contractValidators();
  // The vendor's clock, before anything computes a time window in it (contract/vendor-clock.ts).
  const clock = await vendorClockOf(config);
  const skewed =
    Math.abs(clock.offsetMs) > OFFSET_WARNING_MS
      ? [
          `\ndialog-contract: the vendor's clock is ${offsetObserved(clock)} (±${(clock.uncertaintyMs / 1000).toFixed(1)} s, from its Date header): every time window is sent in its clock`,
        ]
      : [];
  const result = await discoverRunShapes(config, reportsDir, SETUP_TITLE, { ...run, clock });
  writeRequestShapes(reportsDir, result, shapesTarget(config));
  const observations: Observation[] = (
    [
      ['send', 'postV2ConversationSend', 'name and type of the send body field'],
      ['command', 'postV2ConversationCommand', 'names and types of the command body fields'],
    ] as const
  ).map(([kind, operationId, item]) => {
    const finding = result[kind];
    const observed = finding.template === null ? null : canonicalTemplate(finding.template);
    return { id: `body.${kind}.accepted`, section: '4.2', operation: validators.operation(operationId).label, item, observed, evidence: evidence(finding) };
  });
  observations.push({
    id: 'clock.offset',
    section: '4.1',
    operation: validators.operation('getV2Conversations').label,
    item: "the vendor's clock against the runner's (the time filters compare with its stamps)",
    observed: offsetObserved(clock),
  });
  writeFileSync(join(reportsDir, SETUP_OBSERVATIONS), JSON.stringify(redactKnownIn(observations)));
  const shown = (f: ShapeFinding) => `${f.template ?? 'none'} (${f.verifiedBy ? `verified by ${f.verifiedBy}` : f.how})`;
  const missing = (['send', 'command'] as const).filter((kind) => result[kind].template === null);
  // Loud from the first line: the tests that need a missing shape will not run (the run's last lines count them).
  const warning = missing.map(
    (kind) =>
      `\ndialog-contract: no ${kind} body shape could be established (${result[kind].how}): the tests that need it will not run; set ${kind === 'send' ? 'SEND_BODY' : 'COMMAND_BODY'} (.env.example)${config.requireShapes ? '; REQUIRE_SHAPES=1 fails the run' : ', or REQUIRE_SHAPES=1 to fail the run instead'}`,
  );
  return { clock, line: `request shapes: send ${shown(result.send)}, command ${shown(result.command)}${warning.join('')}${skewed.join('')}` };
}
