// What a Playwright worker holds for each run it works for: the run's configuration and what is made from it (request
// contexts through the run's auth proxy, throttling, health, records, body shapes), made on the run's first test in
// the worker and kept for the worker's life. A worker of a run of its own holds one. In an invocation of several runs (RUNS_ENV)
// a worker takes tests of any run, so a worker process (a second of CPU to start) is paid per worker, not per run.
import { request, type APIRequestContext } from '@playwright/test';
import { join } from 'node:path';
import type { ContractValidators } from '../openapi/validators.ts';
import { secretsOf, type SuiteConfig } from '../config/suite-config.ts';
import { rememberSecrets } from '../http/redact.ts';
import { RequestBodies } from '../http/request-bodies.ts';
import type { Contracts } from './api-response.ts';
import type { AuthMode } from './auth-proxy.ts';
import { CreateLock } from './create-lock.ts';
import type { Exchange } from './client.ts';
import { enterRun, loadSuiteConfig, REPORTS_DIR } from './env.ts';
import { readLearnedContract } from './learned-contract.ts';
import { ProbeBudget } from './probes/budget.ts';
import { readRequestShapes } from './request-shapes.ts';
import { RunHealth } from './run-health.ts';
import { appendJsonl, EXCHANGES_DIR, runStartedAt } from './run-records.ts';
import { RUN_PROXY_ENV, RunThrottle, runPaceAt } from './run-throttle.ts';
import type { readBaseline } from './reporters/baselines.ts';

type SavedBaseline = ReturnType<typeof readBaseline>;

/** One run's share of a worker: everything in it reads and writes that run's reports folder. */
export class WorkerRun {
  readonly config: SuiteConfig;
  readonly contracts: Contracts;
  readonly throttle: RunThrottle;
  readonly health: RunHealth;
  readonly bodies: RequestBodies;
  private readonly reportsDir = REPORTS_DIR;
  private readonly exchangesFile: string;
  private readonly proxy: string;
  private readonly contexts = new Map<AuthMode, Promise<APIRequestContext>>();
  private budget?: ProbeBudget;
  private baseline?: Promise<SavedBaseline | undefined>;
  /** The run's dialog creations one at a time across its workers (contract/create-lock.ts). */
  readonly createLock: CreateLock;

  /** Made while the run is entered (contract/env.ts enterRun): the configuration and reports folder are its own. */
  constructor(worker: { name: string }, validators: ContractValidators) {
    const config = loadSuiteConfig();
    rememberSecrets(secretsOf(config));
    this.config = config;
    this.contracts = { spec: validators, learned: readLearnedContract(config) };
    // The run's pace is its proxy's: one for every worker.
    const pace = runPaceAt();
    this.proxy = pace.proxy;
    this.throttle = new RunThrottle(config.throttle, pace, this.reportsDir, worker.name, runStartedAt());
    this.health = new RunHealth(this.reportsDir, worker.name, runStartedAt(), config.health);
    this.bodies = new RequestBodies(readRequestShapes(this.reportsDir, config));
    // One file per worker, so workers never interleave writes: the run's HAR, read by the coverage matrix and overlay check.
    this.exchangesFile = join(this.reportsDir, EXCHANGES_DIR, `${worker.name}.jsonl`);
    this.createLock = new CreateLock(join(this.reportsDir, 'run', 'create.lock'));
  }

  readonly recordExchange = (exchange: Exchange & { test: string }): void => appendJsonl(this.exchangesFile, exchange);

  /**
   * The --contract-from baseline, read once for the run where a test holds an effect to it. Loaded, not imported:
   * the baselines' module brings the drift report's, which a worker has no other use for.
   */
  contractBaseline(): Promise<SavedBaseline | undefined> {
    const name = this.config.contractFrom;
    this.baseline ??= name ? import('./reporters/baselines.ts').then(({ readBaseline }) => readBaseline(name)) : Promise.resolve(undefined);
    return this.baseline;
  }

  /** The probes' budget, made where a probe runs. */
  get probeBudget(): ProbeBudget {
    this.budget ??= ProbeBudget.forRun(this.reportsDir, this.config.probeBudget);
    return this.budget;
  }

  /** Base URL of the run's auth proxy, the only holder of its credentials (started by the run's global setup). */
  authProxy(): string {
    if (!this.proxy) throw new Error(`${RUN_PROXY_ENV} is not set: the run's global setup starts its proxy (run the suite through playwright.config.ts)`);
    return this.proxy;
  }

  /** One request context per auth mode for the worker's life: creating one per test cost more than its requests. */
  requestContext(auth: AuthMode): Promise<APIRequestContext> {
    let context = this.contexts.get(auth);
    if (!context) {
      // Only the base URL and auth live here; tests use operationIds (paths come from the document).
      context = request.newContext({ baseURL: `${this.authProxy()}/${auth}/api/` });
      this.contexts.set(auth, context);
    }
    return context;
  }

  async close(): Promise<void> {
    await Promise.all([...this.contexts.values()].map(async (c) => (await c).dispose()));
  }
}

/** The runs a worker works for, each made on its first test; `enter` makes the process work for the test's run. */
export class WorkerRuns {
  private readonly held = new Map<string, WorkerRun>();

  constructor(
    private readonly worker: { name: string },
    private readonly validators: ContractValidators,
  ) {}

  /**
   * The run of a test: `name` is the run eachRun registered it in (contract/api-test.ts), none in a run of its own.
   * A run of several is entered first, so everything the test reads is that run's.
   */
  enter(name: string | undefined): WorkerRun {
    if (name !== undefined) enterRun(name);
    const key = name ?? '';
    let run = this.held.get(key);
    if (!run) {
      run = new WorkerRun(this.worker, this.validators);
      this.held.set(key, run);
    }
    return run;
  }

  async close(): Promise<void> {
    await Promise.all([...this.held.values()].map((run) => run.close()));
  }
}
