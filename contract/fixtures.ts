// Playwright fixtures of the contract suite: clients for each auth mode, the validators, a seeded faker, the dialog
// factory with cleanup, the custom-block inbox, and `observe` for what the spec leaves unsaid.
import { test as base, request, type APIRequestContext, type TestInfo, type WorkerInfo } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Faker } from '@faker-js/faker';
import { contractValidators, type ContractValidators } from '../openapi/validators.ts';
import { seededFaker, seedFrom } from '../fixtures/builders.ts';
import { ApiClient, type AuthMode, type ClientHooks, type Exchange } from './client.ts';
import { additiveObservations } from './additive-fields.ts';
import { claimCallback, type ClaimedCallback } from './callback-inbox.ts';
import { startAuthProxy } from './auth-proxy.ts';
import { loadSuiteConfig, REPORTS_DIR } from './env.ts';
import type { SuiteConfig } from './config.ts';
import { DialogFactory, type Dialog } from './dialog-factory.ts';
import { OBSERVATION, type Observation } from './observation.ts';

export { expect } from './matchers.ts';

type TestFixtures = {
  api: ApiClient;
  anonymousApi: ApiClient;
  wrongPasswordApi: ApiClient;
  clientFor: (auth: AuthMode) => Promise<ApiClient>;
  dialogs: DialogFactory;
  fake: Faker;
  observe: (observation: Observation) => void;
  waitForCallback: (dialog: Dialog, after: number) => Promise<ClaimedCallback | undefined>;
};

type WorkerFixtures = {
  config: SuiteConfig;
  validators: ContractValidators;
  recordExchange: (exchange: Exchange & { test: string }) => void;
  /** Ids of the observations recorded, for the check that every "not shown" item was observed. */
  recordObservation: (row: { id: string; test: string }) => void;
  /** Counting and pacing of requests: none for contract tests; the probes project overrides it. */
  requestHooks: Pick<ClientHooks, 'beforeRequest' | 'retryDelay'>;
  /** Base URL of the worker's auth proxy, the only holder of the credentials. */
  authProxy: string;
};

function appendJsonl(file: string, row: unknown): void {
  appendFileSync(file, `${JSON.stringify(row)}\n`);
}

/** An appender to one file per worker under reports/<dir>, so workers never interleave writes. */
function workerJsonl(dir: string, workerInfo: WorkerInfo): (row: unknown) => void {
  mkdirSync(join(REPORTS_DIR, dir), { recursive: true });
  const file = join(REPORTS_DIR, dir, `${workerInfo.project.name}-${workerInfo.workerIndex}-${process.pid}.jsonl`);
  return (row) => appendJsonl(file, row);
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  config: [async ({}, use) => use(loadSuiteConfig()), { scope: 'worker' }],
  validators: [async ({}, use) => use(contractValidators()), { scope: 'worker' }],

  // Every exchange, for the coverage matrix.
  recordExchange: [async ({}, use, workerInfo) => use(workerJsonl('exchanges', workerInfo)), { scope: 'worker' }],
  recordObservation: [async ({}, use, workerInfo) => use(workerJsonl('observations', workerInfo)), { scope: 'worker' }],
  requestHooks: [async ({}, use) => use({}), { scope: 'worker' }],
  authProxy: [
    async ({ config }, use) => {
      const proxy = await startAuthProxy(config.baseUrl, config);
      await use(proxy.url);
      await proxy.close();
    },
    { scope: 'worker' },
  ],

  clientFor: async ({ authProxy, validators, recordExchange, requestHooks, observe }, use, testInfo) => {
    const contexts: APIRequestContext[] = [];
    // Fields the document does not declare are additive drift: recorded once per test and field, never failed.
    const additive = new Set<string>();
    const hooks: ClientHooks = {
      ...requestHooks,
      afterResponse: (res) => {
        for (const observation of additiveObservations(validators, res)) {
          if (additive.has(observation.id)) continue;
          additive.add(observation.id);
          observe(observation);
        }
      },
    };
    await use(async (auth) => {
      // Only the base URL and auth live here; tests use operationIds (paths come from the document).
      const context = await request.newContext({ baseURL: `${authProxy}/${auth}/api/` });
      contexts.push(context);
      return new ApiClient(context, validators, auth, (e) => recordExchange({ ...e, test: testInfo.titlePath.join(' › ') }), hooks);
    });
    await Promise.all(contexts.map((c) => c.dispose()));
  },
  api: async ({ clientFor }, use) => use(await clientFor('valid')),
  anonymousApi: async ({ clientFor }, use) => use(await clientFor('none')),
  wrongPasswordApi: async ({ clientFor }, use) => use(await clientFor('wrong')),

  dialogs: async ({ api, config }, use, testInfo) => {
    const file = join(REPORTS_DIR, 'created-dialogs.jsonl');
    mkdirSync(REPORTS_DIR, { recursive: true });
    const factory = new DialogFactory(api, config.botId, (dialog, status) =>
      appendJsonl(file, { uuid: dialog.uuid, v1Id: dialog.v1Id, botId: dialog.botId, via: dialog.via, test: testInfo.title, cleanupStatus: status }),
    );
    await use(factory);
    await factory.cleanup();
  },

  fake: async ({}, use, testInfo) => {
    const seed = process.env.FAKER_SEED ? Number(process.env.FAKER_SEED) : seedFrom(`${testInfo.titlePath.join(' › ')}#${testInfo.repeatEachIndex}`);
    testInfo.annotations.push({ type: 'faker-seed', description: String(seed) });
    await use(seededFaker(seed));
    if (testInfo.status !== testInfo.expectedStatus) {
      console.log(`[faker] "${testInfo.title}" used seed ${seed}: replay with FAKER_SEED=${seed} npx playwright test -g "${testInfo.title}"`);
    }
  },

  observe: async ({ recordObservation }, use, testInfo: TestInfo) => {
    await use((observation) => {
      testInfo.annotations.push({ type: OBSERVATION, description: JSON.stringify(observation) });
      recordObservation({ id: observation.id, test: testInfo.titlePath.join(' › ') });
    });
  },

  waitForCallback: async ({ config }, use) => {
    await use((dialog, after) =>
      claimCallback(config.callbackPort, [dialog.uuid, ...(dialog.v1Id === undefined ? [] : [String(dialog.v1Id)])], after, 10_000),
    );
  },
});
