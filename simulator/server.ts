// startSimulator(): the programmatic entry point (the CLI in main.ts and the tests use it).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CustomBlocks } from './callbacks.ts';
import { resolveConfig, type DeepPartial, type SimulatorConfig } from './config.ts';
import { resolveDrifts } from './drifts/index.ts';
import { createHandlers } from './handlers/create.ts';
import { dialogHandlers } from './handlers/dialogs.ts';
import { fileHandlers } from './handlers/files.ts';
import { listHandler } from './handlers/lists.ts';
import { vertexHandlers } from './handlers/vertex.ts';
import { createPipeline } from './http.ts';
import { LiveStream, type LiveControl, type LiveOptions } from './live.ts';
import { loadProfile } from './profiles.ts';
import { makeFaker, seedStore } from './seed.ts';
import { Simulation } from './simulation.ts';
import { Store } from './store.ts';

export interface SimulatorOptions {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  host?: string;
  seed?: number;
  dialogs?: number;
  /** A vendor profile (simulator/profiles/NAME.json), merged over the defaults before `config`. */
  profile?: string;
  config?: DeepPartial<SimulatorConfig>;
  /** URL of every bot's custom block (default http://127.0.0.1:4011/callback, the suite's listener). */
  callbackUrl?: string;
  /** Drift mode names (see drifts/index.ts). */
  drifts?: string[];
  /** Clock in epoch ms; tests pin it to make whole sessions reproducible. Default Date.now. */
  now?: () => number;
  /** Where operational lines go (callback failures, internal errors). Default stderr. */
  log?: (line: string) => void;
  /** A seeded background stream of changes, like other people's dialogs on a live system (live.ts). Default off. */
  live?: LiveOptions;
}

export interface RunningSimulator {
  /** Base URL without /api, e.g. http://127.0.0.1:4010. */
  url: string;
  port: number;
  /** The configuration it runs with (defaults, profile, config, drifts): credentials, bots, callback shape. */
  config: SimulatorConfig;
  /** The live stream, when `live` was given: its change counter, and step() to drive it without the timer. */
  live?: LiveControl;
  close(): Promise<void>;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const seed = opts.seed ?? 1;
  const drifts = resolveDrifts(opts.drifts ?? []);
  // The profile over the defaults, the user's config over both, then what the drifts force over all.
  const profile = opts.profile === undefined ? undefined : loadProfile(opts.profile).patch;
  const resolved = resolveConfig(profile, opts.config, ...drifts.map((d) => d.config));
  // A new object, never an assignment: without patches `resolved` is DEFAULT_CONFIG itself, shared by every
  // simulator of the process (the mutation run starts several side by side, each with its own callback URL).
  const config =
    opts.callbackUrl === undefined
      ? resolved
      : { ...resolved, bots: resolved.bots.map((b) => (b.customBlockUrl === null ? b : { ...b, customBlockUrl: opts.callbackUrl! })) };
  const offset = config.clock.offsetSeconds * 1000;
  const clock = opts.now ?? Date.now;
  const now = offset === 0 ? clock : () => clock() + offset;
  const log = opts.log ?? ((line: string) => process.stderr.write(`simulator: ${line}\n`));
  const store = new Store(config);
  store.clock = now;
  seedStore(store, config, seed, opts.dialogs ?? 120, now());
  // Service-time randomness has its own stream, so created dialogs never shift the seeded ones.
  const faker = makeFaker(seed);
  faker.seed([seed, 2]);
  const blocks = new CustomBlocks(config, faker, log);
  const sim = new Simulation(
    config,
    store,
    faker,
    now,
    blocks,
    drifts.flatMap((d) => (d.change ? [d.change] : [])),
    drifts.flatMap((d) => (d.pageOffset ? [d.pageOffset] : [])),
  );
  const live = opts.live && new LiveStream(config, store, seed, now, opts.live.perSecond);
  const handlers = {
    getV1Conversations: listHandler(sim, 'v1'),
    getV2Conversations: listHandler(sim, 'v2'),
    ...dialogHandlers(sim),
    ...createHandlers(sim),
    ...fileHandlers(sim),
    ...vertexHandlers(sim),
  };
  const pipeline = createPipeline(sim, handlers, drifts, log);
  const server = createServer(pipeline.onRequest);
  server.on('clientError', pipeline.onClientError);

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  store.linkBase = url;
  live?.start();
  return {
    url,
    port,
    config,
    live,
    close: () =>
      new Promise<void>((resolve, reject) => {
        live?.close();
        blocks.close();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
