// The Node that users copy and that CI runs must be one the project supports: every job of the example CI files
// (docs/ci.md) pins a Node major that package.json's engines names and that has not reached end of life on the day
// the test runs, and .ci/run tests the lowest version of each line engines names. A date passing fails it untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** End of life of each Node major (nodejs.org, "Previous releases"); a major not listed is refused until it is added. */
const END_OF_LIFE: Readonly<Record<number, string>> = {
  16: '2023-09-11',
  17: '2022-06-01',
  18: '2025-04-30',
  19: '2023-06-01',
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

/** A file of the project, by its path from the root (this file sits one folder below it). */
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** Where a Node version is named, and the version as written there (undefined: none named). */
type Pin = { where: string; version: unknown };

/** Why `pin` is refused on `day` (YYYY-MM-DD) where engines names the majors `supported`; undefined when it is not. */
function refusal({ where, version }: Pin, supported: readonly number[], day: string): string | undefined {
  if (version === undefined || version === null || version === '') return `${where}: no Node version`;
  const major = Number(/^(\d+)(?:\.(?:\d+|x)){0,2}$/.exec(String(version))?.[1]);
  if (!major) return `${where}: Node "${version}" is not pinned: name a major (24) or a version (24.21.0)`;
  const endOfLife = END_OF_LIFE[major];
  if (!endOfLife) return `${where}: Node ${major} has no end-of-life date in scripts/node-versions.test.ts: add it`;
  if (day >= endOfLife) return `${where}: Node ${major} reached end of life on ${endOfLife}`;
  if (!supported.includes(major)) return `${where}: Node ${major} is not in package.json's engines`;
  return undefined;
}

/** The version in an image of Node's official one (`node:24-bookworm` → 24); the tag as is when it names none. */
function imageVersion(image: unknown): unknown {
  const name = typeof image === 'object' && image !== null ? (image as { name?: unknown }).name : image;
  const tag = /(?:^|\/)node(?::([^@]+))?(?:@.+)?$/.exec(String(name ?? ''));
  if (!tag) return undefined;
  return /^(\d+(?:\.\d+){0,2})(?:-[\w.-]+)?$/.exec(tag[1] ?? '')?.[1] ?? tag[1] ?? 'latest';
}

/** Each job of a GitHub workflow with the node-version of its actions/setup-node steps (none: the job names none). */
function githubPins(file: string): Pin[] {
  const jobs = (parse(read(file)) as { jobs: Record<string, { steps?: Array<{ uses?: string; with?: Record<string, unknown> }> }> }).jobs;
  return Object.entries(jobs).flatMap(([job, { steps = [] }]) => {
    const setups = steps.filter((s) => s.uses?.startsWith('actions/setup-node@'));
    return (setups.length > 0 ? setups : [{}]).map((s: { with?: Record<string, unknown> }) => ({ where: `${file} ${job}`, version: s.with?.['node-version'] }));
  });
}

/** GitLab's top-level keywords: every other key not starting with a dot is a job. */
const GITLAB_KEYWORDS = new Set([
  'default',
  'include',
  'stages',
  'variables',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
  'spec',
]);

/** Each job of a GitLab CI file with the Node version of its image: its own, else what it extends, else the default. */
function gitlabPins(file: string): Pin[] {
  type Job = { image?: unknown; extends?: string | string[] };
  const config = parse(read(file)) as Record<string, Job>;
  // The global image is deprecated in favour of default's, and still read.
  const fallback = config.default?.image ?? (config as { image?: unknown }).image;
  const imageOf = (job: Job): unknown =>
    job.image ??
    [job.extends ?? []]
      .flat()
      .reverse()
      .map((name) => imageOf(config[name] ?? {}))
      .find((i) => i !== undefined);
  return Object.entries(config)
    .filter(([key]) => !key.startsWith('.') && !GITLAB_KEYWORDS.has(key))
    .map(([job, body]) => ({ where: `${file} ${job}`, version: imageVersion(imageOf(body) ?? fallback) }));
}

const ENGINES = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
/** The lowest version of each line engines names (`^22.23.3 || ^24.21.0`). */
const ENGINE_FLOORS = [...ENGINES.matchAll(/\^(\d+\.\d+\.\d+)/g)].map((m) => m[1]!);
const SUPPORTED = ENGINE_FLOORS.map((v) => Number.parseInt(v, 10));
/** The versions .ci/run installs and tests (NODE_DOCUMENTED=24.21.0). */
const CI_VERSIONS = [...read('.ci/run').matchAll(/^NODE_(?:DOCUMENTED|SUPPORTED)=(\S+)$/gm)].map((m) => m[1]!);
const TODAY = new Date().toISOString().slice(0, 10);

test('both example CI files run each of their two jobs on a pinned Node that engines names and that is not at end of life', () => {
  const pins = [...githubPins('.github/workflows/contract.yml'), ...gitlabPins('examples/gitlab/.gitlab-ci.yml')];
  assert.deepEqual(
    pins.map((p) => p.where),
    [
      '.github/workflows/contract.yml contract',
      '.github/workflows/contract.yml load-smoke',
      'examples/gitlab/.gitlab-ci.yml contract',
      'examples/gitlab/.gitlab-ci.yml load-smoke',
    ],
  );
  assert.deepEqual(pins.map((p) => refusal(p, SUPPORTED, TODAY)).filter(Boolean), []);
});

test('.ci/run tests the lowest version of each line engines names, none at end of life', () => {
  assert.match(ENGINES, /^\^\d+\.\d+\.\d+( \|\| \^\d+\.\d+\.\d+)*$/, 'engines is a list of lines (^A.B.C || ^D.E.F)');
  assert.deepEqual([...CI_VERSIONS].sort(), [...ENGINE_FLOORS].sort());
  assert.deepEqual(CI_VERSIONS.map((version) => refusal({ where: '.ci/run', version }, SUPPORTED, TODAY)).filter(Boolean), []);
});

test('a version is refused when missing, unpinned, unknown, past its end of life or outside engines', () => {
  const judge = (version: unknown, day = '2026-11-26') => refusal({ where: 'job', version }, [22, 24], day);
  assert.equal(judge(24), undefined);
  assert.equal(judge('22.23.3'), undefined);
  assert.equal(judge('24.x'), undefined);
  assert.equal(judge(undefined), 'job: no Node version');
  for (const loose of ['lts/*', 'latest', 'node', '>=22', 'current']) {
    assert.equal(judge(loose), `job: Node "${loose}" is not pinned: name a major (24) or a version (24.21.0)`);
  }
  assert.equal(judge(27), 'job: Node 27 has no end-of-life date in scripts/node-versions.test.ts: add it');
  assert.equal(judge(20), 'job: Node 20 reached end of life on 2026-04-30');
  assert.equal(judge(22, '2027-04-30'), 'job: Node 22 reached end of life on 2027-04-30');
  assert.equal(judge(22, '2027-04-29'), undefined);
  assert.equal(judge(26), "job: Node 26 is not in package.json's engines");
});

test("the Node version is read from an image's tag, a variant or digest after it; none where the image is no Node", () => {
  assert.equal(imageVersion('node:24-bookworm'), '24');
  assert.equal(imageVersion({ name: 'node:24.21.0-alpine' }), '24.21.0');
  assert.equal(imageVersion('registry.example.com/mirror/node:22@sha256:0123'), '22');
  assert.equal(imageVersion('node:lts-slim'), 'lts-slim');
  assert.equal(imageVersion('node'), 'latest');
  assert.equal(imageVersion('python:3.13'), undefined);
  assert.equal(imageVersion(undefined), undefined);
});
