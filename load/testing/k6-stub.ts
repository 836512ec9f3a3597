// A stand-in for the k6 modules, so Node tests can evaluate a bundle (its options, its exported functions, its
// handleSummary) without the k6 binary. Everything it does goes through the harness on globalThis (see
// k6-harness.ts), which the test sets up before importing the bundle.
import type { K6Harness } from './k6-harness.ts';

const harness = (): K6Harness => {
  const h = (globalThis as { __k6Harness?: K6Harness }).__k6Harness;
  if (!h) throw new Error('set up a K6Harness before importing a bundle');
  return h;
};

export function check<T>(value: T, sets: Record<string, (v: T) => boolean>, tags?: Record<string, string>): boolean {
  let all = true;
  for (const [name, predicate] of Object.entries(sets)) {
    const ok = Boolean(predicate(value));
    harness().checks.push({ name, ok, tags });
    all &&= ok;
  }
  return all;
}

/** Blocks like k6's sleep does. */
export function sleep(seconds: number): void {
  harness().sleeps.push(seconds);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, seconds * 1000);
}

export class Counter {
  constructor(private readonly name: string) {}
  add(value: number): void {
    const counters = harness().counters;
    counters[this.name] = (counters[this.name] ?? 0) + value;
  }
}

export const http = {
  request(
    method: string,
    url: string,
    body: string | null,
    params: { headers?: Record<string, string>; tags?: Record<string, string>; responseCallback?: unknown } = {},
  ) {
    const h = harness();
    h.requests.push({ method, url, tags: params.tags ?? {}, ...(params.responseCallback ? { expected: params.responseCallback } : {}) });
    return h.respond(method, url, body, params.headers ?? {});
  },
  setResponseCallback(callback: unknown): void {
    harness().responseCallback = callback;
  },
  expectedStatuses(...statuses: unknown[]): unknown {
    return { expectedStatuses: statuses };
  },
};

export const exec = {
  test: {
    get options() {
      return harness().consolidatedOptions;
    },
    abort(reason?: string): never {
      harness().aborted = reason ?? 'aborted';
      throw new Error(`test aborted: ${reason}`);
    },
  },
  scenario: {
    get iterationInTest() {
      return harness().iterationInTest;
    },
    get name() {
      return harness().scenarioName;
    },
  },
  vu: {
    get idInInstance() {
      return harness().vuIdInInstance;
    },
  },
};
