// Before any worker starts (global setup), the run settles the send and command body shapes (spec §4.2: not shown)
// once: configured, or discovered and verified by their effect; every test then uses that one shape. A worker of
// its own for this cost a second of every run. It never fails on the target's answers: what went wrong is recorded,
// and each test that needs a shape says why it has none.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { canonicalTemplate } from '../../http/body-template.ts';
import { redactKnownIn } from '../../http/redact.ts';
import { undetermined, type DiscoveryResult, type ShapeFinding } from '../../http/body-discovery.ts';
import { contractValidators } from '../../openapi/validators.ts';
import { PaceLink, startPaceServer } from '../target/pace-link.ts';
import { RunPace } from '../../http/run-pace.ts';
import { ApiClient, type Exchange } from '../target/client.ts';
import { TargetTransport } from '../target/target-transport.ts';
import type { Observation } from '../core/observation.ts';
import { shapesTarget, writeRequestShapes } from '../core/request-shapes.ts';
import { discoverShapes, type DiscoveryConfig } from '../api/shape-discovery.ts';
import { appendJsonl, runStartedAt } from '../core/run-records.ts';
import { journal } from '../core/journal.ts';
import { RunThrottle, type PaceAt } from '../target/run-throttle.ts';
import { RunHealth } from '../target/run-health.ts';
import { CREATED_DIALOGS_FILE } from '../target/leftover-dialogs.ts';
import { applicationObserved, clockText, OFFSET_WARNING_MS, offsetObserved, runVendorClock, vendorClockOf, type VendorClock } from '../clock/vendor-clock.ts';
import { applicationClock, readingsText, type ApplicationClock } from './application-clock.ts';
import { createdSinceIn, listedItems, readEnvelope } from '../api/lists.ts';
import { USUAL_PAGING, type ListPaging } from '../core/list-paging.ts';
import { firstPageNumber } from '../../checks/pagination.ts';
import type { Query } from '../target/client.ts';
import { markPart, PART, timed } from '../core/run-timing.ts';

/** Where the run reporter finds what the setup observed, and how reports name its place. */
export const SETUP_OBSERVATIONS = join('run', 'setup-observations.json');
export const SETUP_TITLE = '[global setup] settles the send and command body shapes the target takes, verified by their effect';

const evidence = (finding: ShapeFinding) =>
  [finding.how, ...finding.tried.map((t) => `tried ${canonicalTemplate(t.template)} → ${t.status}, effect: ${t.effect}`)].join('\n');

/** What names a run's records (RUN_ID, RUN_STARTED_AT) and the vendor's clock as known before the discovery. */
export interface RunIdentity {
  id: string | undefined;
  startedAt: number;
  clock: VendorClock;
}

/**
 * The send and command shapes, configured or discovered through the suite's client (throttled, its exchanges and the
 * dialogs it made recorded under `reportsDir` as `title`'s), and the application's clock read from what the discovery
 * stamped (contract/run/application-clock.ts); the discovery dialog ends stopped. Its searches use `run.clock` as
 * unverified, however it was known. Its requests are paced by `pace`, the run's; without one, by a pace of its own
 * at MAX_RPS. Never throws on the target's answers: a discovery that stopped says why in each
 * shape, a clock that could not be read is not verified.
 */
export async function discoverRunShapes(
  config: DiscoveryConfig,
  reportsDir: string,
  title: string,
  run: RunIdentity = { id: process.env.RUN_ID, startedAt: runStartedAt(), clock: runVendorClock() },
  pace?: PaceAt,
): Promise<DiscoveryResult & { clock: ApplicationClock; paging: ListPaging }> {
  const line = (file: string, row: unknown) => appendJsonl(join(reportsDir, file), row);
  const ownPace = pace ? undefined : new RunPace(undefined, config.maxRps);
  const own = ownPace && (await startPaceServer({ pace: ownPace, changed: () => {} }));
  const at = pace ?? { address: own!.address, paced: ownPace!.limit !== undefined };
  const link = new PaceLink(at.address, at.paced);
  const transport = new TargetTransport(config.baseUrl, config, link);
  let result: DiscoveryResult;
  let clock: ApplicationClock;
  let paging = USUAL_PAGING;
  try {
    const throttle = new RunThrottle(config.throttle, link, reportsDir, run.startedAt);
    // Its exchanges count for the coverage matrix like any test's.
    const record = (e: Exchange) => journal(reportsDir, 'exchange', { ...e, test: title });
    const health = new RunHealth(reportsDir, run.startedAt, config.health);
    // Its discovery sends bodies of shapes the spec does not show, on purpose: its answers are observations.
    const hooks = { probing: "the run's setup: body shapes, paging and clock (§4.2, §4.1: not shown)" };
    const api = new ApiClient(transport, { spec: contractValidators(), learned: null }, 'valid', throttle, health, record, hooks, false);
    const startedAt = Date.now();
    // Nothing is verified yet: the discovery's list reads allow the unverified margin around the hint.
    const hint = { ...run.clock, verified: false };
    // How its lists page, before anything searches one (the discovery's own reads included).
    paging = await listPagingOf(api, { BotID: config.botId }).catch(() => USUAL_PAGING);
    try {
      result = await discoverShapes(api, config, createdSinceIn(hint), paging.pageSize);
    } catch (err) {
      const why = `the discovery stopped: ${(err as Error).message.split('\n')[0]}`;
      result = { send: undetermined(why), command: undetermined(why), dialogs: [] };
    }
    markPart(reportsDir, PART.shapes, startedAt);
    const stamps = result.stamps;
    clock = await timed(reportsDir, PART.clock, () => applicationClock(api, hint, stamps));
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
    transport.close();
    link.close();
    await own?.close();
  }
  return { ...result, clock, paging };
}

/**
 * The target's paging from at most three reads of `query` (the bot's dialogs): PageCount 40 (refused: the page size
 * without one; capped: what it serves), then PageNumber 0 against PageNumber 1 (contract/judging/pagination-meaning.ts).
 */
export async function listPagingOf(api: ApiClient, query: Query): Promise<ListPaging> {
  const wanted = USUAL_PAGING.pageSize;
  let first = await api.call('getV2Conversations', { query: { ...query, PageCount: wanted, PageNumber: 1 } });
  let pageSize = wanted;
  if (first.status !== 200) {
    first = await api.call('getV2Conversations', { query: { ...query, PageNumber: 1 } });
  }
  const perPage = readEnvelope(first.json<Record<string, unknown>>() ?? {}).pagination?.per_page;
  if (typeof perPage === 'number' && perPage > 0 && perPage < wanted) pageSize = perPage;
  const zero = await api.call('getV2Conversations', { query: { ...query, PageCount: pageSize, PageNumber: 0 } });
  const ids = (res: typeof first) => listedItems(res).map((item) => String(item.id));
  return { firstPage: firstPageNumber({ status: zero.status, ids: ids(zero) }, ids(first)), pageSize };
}

/** The lines that say the application's clock: first when it is not verified, a warning when the Date header is not its. */
function clockLines(hint: VendorClock, read: ApplicationClock): { first: string[]; warnings: string[] } {
  const { clock } = read;
  if (!clock.verified)
    return {
      first: [
        `dialog-contract: the vendor's application clock is not verified (${applicationObserved(read).replace(/^not verified: /, '')}): ${clockText(clock)}; the time filters are judged that coarsely`,
      ],
      warnings: [],
    };
  if (read.disagreeing.some((r) => r.source === 'Date header'))
    return {
      first: [],
      warnings: [
        `dialog-contract: the Date header's clock (${offsetObserved(hint)}, ±${(hint.uncertaintyMs / 1000).toFixed(1)} s) is not the application's: ${clockText(clock)}; a gateway in front writes its own Date, and every time window is sent in the application's clock`,
      ],
    };
  if (Math.abs(clock.offsetMs) > OFFSET_WARNING_MS)
    return { first: [], warnings: [`dialog-contract: the vendor's ${clockText(clock).replace(/^vendor /, '')}: every time window is sent in its clock`] };
  return { first: [], warnings: [] };
}

/**
 * The vendor's clock and the run's body shapes, recorded under `reportsDir`, paced by the run's pace (`pace`):
 * the clock (for CLOCK_ENV) and the lines that say them. Nothing global: the runs of a several-run invocation are set
 * up side by side.
 */
export async function settleRequestShapes(
  config: SuiteConfig,
  reportsDir: string,
  run: Omit<RunIdentity, 'clock'>,
  pace: PaceAt,
): Promise<{ clock: VendorClock; paging: ListPaging; line: string }> {
  const validators = contractValidators();
  // The Date header's clock, a hint for the discovery's searches until the application's stamps verify one.
  const hint = await timed(reportsDir, PART.clock, () => vendorClockOf(config));
  const { clock: read, paging, ...result } = await discoverRunShapes(config, reportsDir, SETUP_TITLE, { ...run, clock: hint }, pace);
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
  const listLabel = validators.operation('getV2Conversations').label;
  observations.push(
    {
      id: 'clock.offset',
      section: '4.1',
      operation: listLabel,
      item: "the vendor's application clock against the runner's (the time filters compare with its stamps), and the stamps that verified it",
      observed: applicationObserved(read),
      evidence: `${clockText(read.clock)}\n${readingsText(read)}`,
    },
    {
      id: 'clock.date-header',
      section: '4.1',
      operation: listLabel,
      item: "the clock of the HTTP Date header against the runner's (a gateway in front may write its own)",
      observed: offsetObserved(hint),
      evidence: clockText(hint),
    },
  );
  writeFileSync(join(reportsDir, SETUP_OBSERVATIONS), JSON.stringify(redactKnownIn(observations)));
  const shown = (f: ShapeFinding) => `${f.template ?? 'none'} (${f.verifiedBy ? `verified by ${f.verifiedBy}` : f.how})`;
  const missing = (['send', 'command'] as const).filter((kind) => result[kind].template === null);
  // Loud from the first line: the tests that need a missing shape will not run (the run's last lines count them).
  const warning = missing.map(
    (kind) =>
      `\ndialog-contract: no ${kind} body shape could be established (${result[kind].how}): the tests that need it will not run; set ${kind === 'send' ? 'SEND_BODY' : 'COMMAND_BODY'} (.env.example)${config.requireShapes ? '; REQUIRE_SHAPES=1 fails the run' : ', or REQUIRE_SHAPES=1 to fail the run instead'}`,
  );
  const lines = clockLines(hint, read);
  const shapes = `request shapes: send ${shown(result.send)}, command ${shown(result.command)}${warning.join('')}`;
  return { clock: read.clock, paging, line: [...lines.first, shapes, ...lines.warnings].join('\n') };
}
