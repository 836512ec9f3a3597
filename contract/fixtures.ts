// Playwright fixtures of the contract suite: clients for each auth mode, the validators, a seeded faker, the dialog
// factory with cleanup, the custom-block inbox, and `observe` for what the spec leaves unsaid.
import { test as base, request, type APIRequestContext, type TestInfo } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Faker } from '@faker-js/faker';
import { contractValidators, type ContractValidators } from '../openapi/validators.ts';
import { seededFaker, seedFrom } from '../fixtures/builders.ts';
import { ApiClient, type AuthMode, type Exchange } from './client.ts';
import { claimCallback, type ClaimedCallback } from './callback-inbox.ts';
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
};

function authHeader(config: SuiteConfig, auth: AuthMode): Record<string, string> {
  if (auth === 'none') return {};
  const password = auth === 'valid' ? config.password : `${config.password}-wrong`;
  return { authorization: `Basic ${Buffer.from(`${config.login}:${password}`).toString('base64')}` };
}

function appendJsonl(file: string, row: unknown): void {
  appendFileSync(file, `${JSON.stringify(row)}\n`);
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  config: [async ({}, use) => use(loadSuiteConfig()), { scope: 'worker' }],
  validators: [async ({}, use) => use(contractValidators()), { scope: 'worker' }],

  // Every exchange, for the coverage matrix: one file per worker, so workers never interleave writes.
  recordExchange: [
    async ({}, use, workerInfo) => {
      const dir = join(REPORTS_DIR, 'exchanges');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${workerInfo.project.name}-${workerInfo.workerIndex}-${process.pid}.jsonl`);
      await use((exchange) => appendJsonl(file, exchange));
    },
    { scope: 'worker' },
  ],

  clientFor: async ({ config, validators, recordExchange }, use, testInfo) => {
    const contexts: APIRequestContext[] = [];
    await use(async (auth) => {
      // Only the base URL and auth live here; tests use operationIds (paths come from the document).
      const context = await request.newContext({ baseURL: `${config.baseUrl}/api/`, extraHTTPHeaders: authHeader(config, auth) });
      contexts.push(context);
      return new ApiClient(context, validators, auth, (e) => recordExchange({ ...e, test: testInfo.titlePath.join(' › ') }));
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

  observe: async ({}, use, testInfo: TestInfo) => {
    await use((observation) => testInfo.annotations.push({ type: OBSERVATION, description: JSON.stringify(observation) }));
  },

  waitForCallback: async ({ config }, use) => {
    await use((dialog, after) =>
      claimCallback(config.callbackPort, [dialog.uuid, ...(dialog.v1Id === undefined ? [] : [String(dialog.v1Id)])], after, 10_000),
    );
  },
});
