// Evaluates a k6 bundle in Node: re-bundles it with the k6 modules mapped to k6-stub.ts and imports it. The harness
// records checks, requests, sleeps and counters, and answers requests through `respond` (by default: none allowed).
import { build, type Plugin } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SummaryData } from '../../discovery/load-summary.ts';

export interface StubResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** k6's transport error, on a request that got no answer (status 0). */
  error?: string;
  error_code?: number;
}

export interface K6Harness {
  env: Record<string, string>;
  checks: Array<{ name: string; ok: boolean; tags?: Record<string, string> }>;
  /** `expected`: the request's own responseCallback (what http.expectedStatuses() made), when it has one. */
  requests: Array<{ method: string; url: string; tags: Record<string, string>; expected?: unknown }>;
  sleeps: number[];
  counters: Record<string, number>;
  iterationInTest: number;
  /** exec.scenario.name and exec.vu.idInInstance as k6 would give them to the iteration being called. */
  scenarioName: string;
  vuIdInInstance: number;
  /** What exec.test.options answers: the script's options unless a test pretends CLI flags changed them. */
  consolidatedOptions?: unknown;
  responseCallback?: unknown;
  aborted?: string;
  respond(method: string, url: string, body: string | null, headers: Record<string, string>): StubResponse;
}

export function newHarness(env: Record<string, string>, respond?: K6Harness['respond']): K6Harness {
  return {
    env,
    checks: [],
    requests: [],
    sleeps: [],
    counters: {},
    iterationInTest: 0,
    scenarioName: 'default',
    vuIdInInstance: 1,
    respond:
      respond ??
      ((method, url) => {
        throw new Error(`unexpected request ${method} ${url}`);
      }),
  };
}

const STUB = fileURLToPath(new URL('./k6-stub.ts', import.meta.url));
const DEFAULT_EXPORT: Record<string, string> = { 'k6/http': 'http', 'k6/execution': 'exec' };

const k6Stub: Plugin = {
  name: 'k6-stub',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'k6-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'k6-stub' }, (args) => ({
      contents: `export * from ${JSON.stringify(STUB)};${DEFAULT_EXPORT[args.path] ? ` export { ${DEFAULT_EXPORT[args.path]} as default } from ${JSON.stringify(STUB)};` : ''}`,
      resolveDir: '/',
      loader: 'js',
    }));
  },
};

let counter = 0;

/** Imports `bundle` as k6 would run its init context, with `harness` installed and __ENV set from it. */
export async function importBundle(bundle: string, harness: K6Harness): Promise<Record<string, unknown>> {
  const out = join(mkdtempSync(join(tmpdir(), 'k6-bundle-')), `bundle-${++counter}.mjs`);
  await build({ entryPoints: [bundle], outfile: out, bundle: true, format: 'esm', platform: 'node', plugins: [k6Stub], logLevel: 'error' });
  const globals = globalThis as { __k6Harness?: K6Harness; __ENV?: Record<string, string> };
  globals.__k6Harness = harness;
  globals.__ENV = harness.env;
  return (await import(pathToFileURL(out).href)) as Record<string, unknown>;
}

/** What handleSummary would get after the calls made so far: the checks (with evidence) and the request count. */
export function summaryOf(harness: K6Harness): SummaryData {
  const checks = new Map<string, { name: string; passes: number; fails: number }>();
  for (const { name, ok } of harness.checks) {
    const entry = checks.get(name) ?? { name, passes: 0, fails: 0 };
    entry[ok ? 'passes' : 'fails']++;
    checks.set(name, entry);
  }
  return {
    metrics: { http_reqs: { type: 'counter', values: { count: harness.requests.length, rate: 0 } } },
    root_group: { name: '', checks: [...checks.values()], groups: [] },
    state: { testRunDurationMs: 0 },
  };
}
