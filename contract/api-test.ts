// Playwright fixtures of the contract suite: clients for each auth mode (throttled and paced for the run), the
// contracts answers are held to (the document, and a baseline's learned one), the run's send/command body shapes, a
// seeded faker, the dialog factory with cleanup, the custom-block inbox, `observe` for what the spec leaves unsaid,
// `precondition` for what a run cannot set up, and what a run does with the contract failures a test recorded
// (acknowledged drifts, the mutation run's record mode): the state the matchers themselves never hold. What depends on
// the run is test-scoped, taken from the worker's hold of the test's run (contract/worker-runs.ts), so that one worker
// can serve several runs; `eachRun` registers a spec file's tests for each of them.
// The root test type, without the browser fixtures `test` adds: their per-test artifacts recorder and a report step
// per request cost a tenth of a run's CPU, and the suite has no browser, makes its own request contexts, and records
// its own redacted exchanges (traces stay off: they would carry the Authorization header).
import { _baseTest as base, type APIRequestContext, type TestInfo } from '@playwright/test';
import { join } from 'node:path';
import type { Faker } from '@faker-js/faker';
import type { Operation } from '../openapi/document.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import { contractValidators, type ContractValidators } from '../openapi/validators.ts';
import { CONTRACT_FAILURE, failureId, type Failure } from '../lib/failure.ts';
import { acknowledgementOf, acknowledgementText, utcDay, type Acknowledgement } from '../report/acknowledged.ts';
import { readAcknowledgements } from './acknowledgements.ts';
import type { Contracts } from './api-response.ts';
import { seededFaker, seedFrom } from '../fixtures/builders.ts';
import type { SuiteConfig } from '../config/suite-config.ts';
import type { RequestBodies } from '../http/request-bodies.ts';
import { ApiClient, type ClientHooks, type Exchange } from './client.ts';
import { tokenOf } from './custom-block.ts';
import { expect } from './matchers.ts';
import type { ApiResponse } from './api-response.ts';
import type { CallPlace, ObservationId, ObservationPayloads } from '../lib/observations.ts';
import type { SemanticCheck } from '../lib/failure.ts';
import { additiveObservations } from './additive-fields.ts';
import { claimCallback, inboxAddress, type ClaimedCallback } from './callback-inbox.ts';
import type { AuthMode } from './auth-proxy.ts';
import { laneTag, REPORTS_DIR, runSpecs } from './env.ts';
import { DialogFactory, type Dialog } from './dialog-factory.ts';
import { OBSERVATION, type Observation, type Observe, type OperationObservation } from './observation.ts';
import { PRECONDITIONS_DIR, type PreconditionRow } from './preconditions.ts';
import { TRANSITIONS_DIR, type WalkedStep } from './state-table.ts';
import type { Walk } from './state-walk.ts';
import { appendJsonl } from './run-records.ts';
import { listenToRunWaits } from './run-waits.ts';
import { redactKnownIn, rememberSecrets } from '../http/redact.ts';
import type { RunThrottle } from './run-throttle.ts';
import { INCONCLUSIVE, RunStopped, type RunHealth } from './run-health.ts';
import { CREATED_DIALOGS_FILE, journalCreated, readJournal } from './leftover-dialogs.ts';
import type { ProbeBudget } from './probes/budget.ts';
import { WorkerRuns, type WorkerRun } from './worker-runs.ts';

export { expect };

/** What a test would have covered, listed with the reason it could not: pairs, observation ids, §3 pairs. */
type Covers = Partial<Pick<PreconditionRow, 'pairs' | 'observations' | 'transitions'>>;

/** Observations whose value is a word for what an effect did: the ones a baseline can hold a later run to. */
type EffectId = { [K in ObservationId]: ObservationPayloads[K] extends string ? K : never }[ObservationId];

type TestFixtures = {
  api: ApiClient;
  anonymousApi: ApiClient;
  wrongPasswordApi: ApiClient;
  /** A client for an auth mode (the configured credentials, none, or a wrong password). */
  clientFor: (auth: AuthMode) => Promise<ApiClient>;
  dialogs: DialogFactory;
  fake: Faker;
  observe: Observe;
  /**
   * An effect the spec leaves open but the --contract-from baseline saw (e.g. send.moves-updated): recorded as it is,
   * and, when the baseline saw it otherwise, a failure of severity learned at the response's operation, naming the
   * effect that is gone. Without CONTRACT_FROM it is only an observation.
   */
  heldEffect: (response: ApiResponse, effect: { id: EffectId; section: string; item: string; at: string; check: SemanticCheck; observed: string }) => void;
  /**
   * A state or setting the test needs: when it does not hold, the test is skipped with the reason, and what it
   * would have covered ((operation, status) pairs, observation ids) is listed with that reason in the coverage.
   */
  precondition: (holds: boolean, reason: string, covers?: Covers) => void;
  /** Records a step of spec §3's state table the test walked, for the state × trigger coverage. */
  walked: (step: Omit<WalkedStep, 'test'>) => void;
  /** What a walk of spec §3's state table needs (contract/state-walk.ts). */
  walk: Walk;
  /** The custom block's call for a dialog just started on CUSTOM_BLOCK_BOT_ID (waits up to CALLBACK_TIMEOUT_S). */
  waitForCallback: (dialog: Dialog, after: number) => Promise<ClaimedCallback | undefined>;
  /**
   * Starts a dialog on CUSTOM_BLOCK_BOT_ID and returns its block's call and integration token (spec §6.1). No call
   * is a failure (the call is documented); a call whose token cannot be told is a skip naming CALLBACK_TOKEN_FIELD.
   */
  customBlock: (covers: Covers) => Promise<{ dialog: Dialog; call: ClaimedCallback; token: string; tokenAt: CallPlace | null }>;
  /**
   * Before each test, whether the run still judges (a target gone down ends it: the test is not run); after it,
   * a test that could not judge (a lost answer of a request that must not be resent, the run stopped while it ran)
   * is inconclusive: expected to fail, with the reason, never a contract failure.
   */
  inconclusiveTests: void;
  /**
   * After each test, what the run does with the contract failures it recorded: an acknowledged one (with a vendor
   * ticket) gets an "acknowledged" annotation; in the mutation run's record mode the test is expected to fail, so
   * Playwright keeps its worker.
   */
  contractFailures: void;
  /** Each test's timeout grows by the waits the run chose in it (contract/run-waits.ts). */
  runPatience: void;
  /** Counting of requests and their place in the run's pace: none for contract tests; the probes override it with theirs. */
  requestHooks: Pick<ClientHooks, 'beforeRequest' | 'paceFirst'>;
};

type RunFixtures = {
  /** In an invocation of several runs (RUNS_ENV), the run eachRun registered the test in; none in a run of its own. */
  runName: string | undefined;
  /** The test's run as this worker holds it, entered first (contract/worker-runs.ts). */
  run: WorkerRun;
  config: SuiteConfig;
  /** What every answer is held to: the document, and with --contract-from the baseline's learned document. */
  contracts: Contracts;
  recordExchange: (exchange: Exchange & { test: string }) => void;
  /** The probes' budget for the run, made where a probe runs. */
  probeBudget: ProbeBudget;
  /** This worker's sends booked from the run's pace, and its 429/503 waits, recorded for the run. */
  throttle: RunThrottle;
  /** Transient failures resent, and the run's end when the target went down (contract/run-health.ts). */
  health: RunHealth;
  /** Base URL of the run's auth proxy in this worker, the only holder of the credentials. */
  authProxy: string;
  /** One request context per auth mode for the worker's life: creating one per test cost more than its requests. */
  requestContext: (auth: AuthMode) => Promise<APIRequestContext>;
  /** The send and command bodies of the run (configured, or discovered in the run's global setup). */
  bodies: RequestBodies;
};

type WorkerFixtures = {
  validators: ContractValidators;
  /**
   * baselines/acknowledged.yaml as this worker read it, on the first test that recorded a contract failure (a green
   * run never reads it); a broken file is the run reporter's to report.
   */
  acknowledgements: () => Acknowledgement[];
  /** The runs this worker works for (one, or any of a several-run invocation's), each made on its first test. */
  workerRuns: WorkerRuns;
};

// Plumbing fixtures are boxed out of the report: each fixture is a Playwright step (a message to the runner) per
// test, and these say nothing a reader of a failure needs. The dialog factory's cleanup stays visible.
const BOXED = { box: 'self' } as const;

/**
 * Registers a spec file's tests: as they are in a run of its own; in an invocation of several runs (RUNS_ENV), once
 * per run, each under its run's name and tagged with its lane, whose project's worker runs them.
 */
export function eachRun(register: () => void): void {
  const runs = runSpecs();
  if (!runs) {
    register();
    return;
  }
  for (const { name, lane } of runs) {
    test.describe(name, { tag: laneTag(lane) }, () => {
      test.use({ runName: name });
      register();
    });
  }
}

/** A test's title path as a run of its own would give it: without the describe eachRun puts it in. */
const testPath = (testInfo: TestInfo) => (runSpecs() ? testInfo.titlePath.filter((_, i) => i !== 1) : testInfo.titlePath).join(' › ');

export const test = base.extend<TestFixtures & RunFixtures, WorkerFixtures>({
  validators: [async ({}, use) => use(contractValidators()), { scope: 'worker' }],
  acknowledgements: [
    async ({}, use) => {
      let entries: Acknowledgement[] | undefined;
      await use(() => {
        try {
          entries ??= readAcknowledgements();
        } catch {
          // the run reporter says what is wrong with the file
          entries = [];
        }
        return entries;
      });
    },
    { scope: 'worker' },
  ],
  workerRuns: [
    async ({ validators }, use, workerInfo) => {
      const runs = new WorkerRuns({ name: `${workerInfo.project.name}-${workerInfo.workerIndex}-${process.pid}` }, validators);
      await use(runs);
      await runs.close();
    },
    { scope: 'worker' },
  ],

  runName: [undefined, { option: true }],
  // First, before anything reads the configuration or the reports folder.
  run: [async ({ runName, workerRuns }, use) => use(workerRuns.enter(runName)), { auto: true, box: true }],
  config: [async ({ run }, use) => use(run.config), BOXED],
  contracts: [async ({ run }, use) => use(run.contracts), BOXED],
  recordExchange: [async ({ run }, use) => use(run.recordExchange), BOXED],
  probeBudget: [async ({ run }, use) => use(run.probeBudget), BOXED],
  throttle: [async ({ run }, use) => use(run.throttle), BOXED],
  health: [async ({ run }, use) => use(run.health), BOXED],
  authProxy: [async ({ run }, use) => use(run.authProxy()), BOXED],
  requestContext: [async ({ run }, use) => use((auth) => run.requestContext(auth)), BOXED],
  bodies: [async ({ run }, use) => use(run.bodies), BOXED],
  requestHooks: [async ({}, use) => use({}), BOXED],

  contractFailures: [
    async ({ config, acknowledgements }, use, testInfo) => {
      await use();
      const failures = testInfo.annotations.filter((a) => a.type === CONTRACT_FAILURE).map((a) => JSON.parse(a.description ?? '{}') as Failure);
      const today = utcDay(Date.now());
      for (const id of new Set(failures.map(failureId))) {
        const known = acknowledgementOf(id, acknowledgements(), today);
        if (known) testInfo.annotations.push({ type: 'acknowledged', description: `${id}: ${acknowledgementText(known)}` });
      }
      if (config.recordFailures && failures.length > 0) testInfo.fail(true, 'CONTRACT_FAILURES=record: its contract failures are recorded');
    },
    { auto: true, box: true },
  ],

  runPatience: [
    async ({}, use, testInfo) => {
      // 0 is no timeout (a debugger's): left as it is.
      listenToRunWaits((ms) => testInfo.timeout > 0 && testInfo.setTimeout(testInfo.timeout + ms));
      await use();
      listenToRunWaits(() => {});
    },
    { auto: true, box: true },
  ],

  inconclusiveTests: [
    async ({ health }, use, testInfo) => {
      try {
        health.check();
      } catch (err) {
        if (!(err instanceof RunStopped)) throw err;
        test.skip(true, err.message);
      }
      await use();
      const reason = testInfo.annotations.find((a) => a.type === INCONCLUSIVE)?.description;
      if (reason === undefined || testInfo.status === 'passed' || testInfo.status === 'skipped') return;
      appendJsonl(join(REPORTS_DIR, PRECONDITIONS_DIR, `${process.pid}.jsonl`), {
        test: testPath(testInfo),
        reason,
        pairs: [],
        observations: [],
      } satisfies PreconditionRow);
      testInfo.fail(true, reason);
    },
    { auto: true, box: true },
  ],

  clientFor: [
    async ({ run, requestContext, contracts, validators, recordExchange, requestHooks, throttle, health, observe }, use, testInfo) => {
      // Fields the document does not declare are additive drift: recorded once per test and field, never failed.
      const additive = new Set<string>();
      const hooks: ClientHooks = {
        ...requestHooks,
        aroundCreate: (create) => run.createLock.hold(create),
        inconclusive: (reason) => {
          if (!testInfo.annotations.some((a) => a.type === INCONCLUSIVE)) testInfo.annotations.push({ type: INCONCLUSIVE, description: reason });
        },
        afterResponse: (res) => {
          for (const observation of additiveObservations(validators, res)) {
            if (additive.has(observation.id)) continue;
            additive.add(observation.id);
            observe(observation);
          }
        },
      };
      await use(async (auth) => {
        const context = await requestContext(auth);
        const record = (e: Exchange) => recordExchange({ ...e, test: testPath(testInfo) });
        return new ApiClient(context, contracts, auth, throttle, health, record, hooks);
      });
    },
    BOXED,
  ],
  api: [async ({ clientFor }, use) => use(await clientFor('valid')), BOXED],
  anonymousApi: [async ({ clientFor }, use) => use(await clientFor('none')), BOXED],
  wrongPasswordApi: [async ({ clientFor }, use) => use(await clientFor('wrong')), BOXED],

  dialogs: async ({ api, config }, use, testInfo) => {
    const file = join(REPORTS_DIR, CREATED_DIALOGS_FILE);
    const factory = new DialogFactory(api, config.botId, config.listSettleSeconds, {
      cleaned: (dialog, status) =>
        appendJsonl(file, {
          runId: process.env.RUN_ID,
          uuid: dialog.uuid,
          v1Id: dialog.v1Id,
          botId: dialog.botId,
          via: dialog.via,
          test: testInfo.title,
          cleanupStatus: status,
        }),
      created: (dialog) => journalCreated(REPORTS_DIR, { uuid: dialog.uuid, botId: dialog.botId, via: dialog.via, test: testInfo.title }),
      unidentified: (botId, reason) => appendJsonl(file, { runId: process.env.RUN_ID, uuid: null, botId, test: testInfo.title, unidentified: reason }),
      claimed: () => new Set(readJournal(REPORTS_DIR).map((d) => d.uuid.toLowerCase())),
    });
    await use(factory);
    await factory.cleanup();
  },

  fake: [
    async ({}, use, testInfo) => {
      const seed = process.env.FAKER_SEED ? Number(process.env.FAKER_SEED) : seedFrom(`${testPath(testInfo)}#${testInfo.repeatEachIndex}`);
      testInfo.annotations.push({ type: 'faker-seed', description: String(seed) });
      await use(seededFaker(seed));
      if (testInfo.status !== testInfo.expectedStatus) {
        console.log(`[faker] "${testInfo.title}" used seed ${seed}: replay with FAKER_SEED=${seed} npx playwright test -g "${testInfo.title}"`);
      }
    },
    BOXED,
  ],

  observe: [
    async ({ validators }, use, testInfo: TestInfo) => {
      const observe: Observe = (first: Observation | OperationId | Operation, second?: OperationObservation) => {
        const op = typeof first === 'string' ? validators.operation(first) : 'operationId' in first ? first : undefined;
        const recorded: Observation = op ? ofOperation(op, second!) : (first as Observation);
        // A value that is not there at all (a field the target left out) is recorded as such, not dropped from the JSON.
        // Observed values quote the vendor's answers: every secret the process knows is taken out of them too.
        const observation = redactKnownIn(recorded.observed === undefined ? { ...recorded, observed: '(absent)' } : recorded);
        testInfo.annotations.push({ type: OBSERVATION, description: JSON.stringify(observation) });
      };
      await use(observe);
    },
    BOXED,
  ],

  heldEffect: [
    async ({ run, observe }, use) => {
      const baseline = await run.contractBaseline();
      await use((response, effect) => {
        observe(response.operation, { id: effect.id, section: effect.section, item: effect.item, observed: effect.observed, evidence: response.evidence() });
        const before = baseline?.items.find((i) => i.id === effect.id)?.observed;
        if (baseline === undefined || before === undefined) return;
        expect.soft(response).toHold({
          check: effect.check,
          severity: 'learned',
          at: effect.at,
          section: effect.section,
          expected: `${String(before)}, as baseline ${baseline.name} observed (${effect.item})`,
          observed: effect.observed,
          holds: (seen) => seen === before,
          details: { baseline: baseline.name },
        });
      });
    },
    BOXED,
  ],

  precondition: [
    async ({}, use, testInfo) => {
      const record = (row: PreconditionRow) => appendJsonl(join(REPORTS_DIR, PRECONDITIONS_DIR, `${process.pid}.jsonl`), row);
      await use((holds, reason, covers = {}) => {
        if (holds) return;
        record({ test: testPath(testInfo), reason, pairs: covers.pairs ?? [], observations: covers.observations ?? [], transitions: covers.transitions ?? [] });
        test.skip(true, reason);
      });
    },
    BOXED,
  ],

  walked: [
    async ({}, use, testInfo) => {
      await use((step) => appendJsonl(join(REPORTS_DIR, TRANSITIONS_DIR, `${process.pid}.jsonl`), { ...step, test: testPath(testInfo) } satisfies WalkedStep));
    },
    BOXED,
  ],

  walk: [async ({ api, dialogs, bodies, config, fake, walked, precondition }, use) => use({ api, dialogs, bodies, config, fake, walked, precondition }), BOXED],

  waitForCallback: [
    async ({ config }, use) => {
      const inbox = inboxAddress(config.callbackHost, config.callbackPort);
      const key = process.env.DIALOG_CONTRACT_INBOX_KEY ?? '';
      await use((dialog, after) =>
        claimCallback(inbox, key, [dialog.uuid, ...(dialog.v1Id === undefined ? [] : [String(dialog.v1Id)])], after, config.callbackTimeoutSeconds * 1000),
      );
    },
    BOXED,
  ],

  customBlock: async ({ anonymousApi, dialogs, config, waitForCallback, precondition }, use) => {
    await use(async (covers) => {
      const after = Date.now();
      const { dialog, response } = await dialogs.create('v2-post', { botId: config.customBlockBotId });
      const call = await waitForCallback(dialog, after);
      // Every value that could be the token is secret here before anything can print it.
      rememberSecrets(call?.candidates.map((c) => c.value) ?? []);
      expect(response).toHold({
        check: 'custom_block_call',
        at: 'the call',
        section: '6.1',
        expected:
          "a call to the block URL with an integration token (check that the block's URL is CALLBACK_PUBLIC_URL and reaches " + 'CALLBACK_HOST:CALLBACK_PORT)',
        observed: call === undefined ? 'no call' : 'a call',
        holds: (seen) => seen === 'a call',
        details: { bot: config.customBlockBotId, waited: `${config.callbackTimeoutSeconds} s (CALLBACK_TIMEOUT_S)` },
      });
      const found = await tokenOf(anonymousApi, call!);
      precondition(found.token !== undefined, 'why' in found ? found.why : '', covers);
      return { dialog, call: call!, token: found.token!, tokenAt: 'at' in found ? found.at : null };
    });
  },
});

/** An operation's observation in the order every observation is written: id, section, operation, then the rest. */
function ofOperation(op: Operation, { id, section, ...rest }: OperationObservation): Observation {
  return { id, section: section ?? op.section, operation: op.label, ...rest };
}
