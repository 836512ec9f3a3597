// The k6-operator examples (load/k8s/testrun-*.yaml) are valid TestRuns: checked against the operator's own CRD
// (load/k8s/crd/, v1.6.0) with unknown fields refused, as `kubectl apply --validate=strict` does, and against what
// the scripts need: one example per script, a parallelism the script supports, the password from a Secret, every
// variable one the scripts read (load/README.md), the target's host on the allow list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse, parseAllDocuments } from 'yaml';
import { MAX_RUNNERS } from '../discovery/execution-segment.ts';
import { hostOf } from './safety.ts';
import { SCRIPTS } from './build.ts';

const DIR = fileURLToPath(new URL('./k8s/', import.meta.url));
const README = readFileSync(fileURLToPath(new URL('./README.md', import.meta.url)), 'utf8');

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: unknown;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  [k: string]: unknown;
};

/** The schema with every object that lists its properties closed to others (Kubernetes' strict field validation). */
function strict(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, strict(v)]));
    if (out.additionalProperties === undefined && !schema['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  }
  if (schema.items) out.items = strict(schema.items);
  return out;
}

const crd = parseAllDocuments(readFileSync(join(DIR, 'crd', 'k6.io_testruns.yaml'), 'utf8')).map((d) => d.toJS())[0] as {
  spec: { group: string; names: { kind: string }; versions: Array<{ name: string; served: boolean; schema: { openAPIV3Schema: Schema } }> };
};
const version = crd.spec.versions.find((v) => v.served)!;
// The CRD's schema is OpenAPI 3's subset with Kubernetes' x- keywords: no strict keyword checking.
const validate = new Ajv({ strict: false, allErrors: true }).compile(strict(version.schema.openAPIV3Schema));

interface Env {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface TestRun {
  apiVersion: string;
  kind: string;
  spec: { parallelism: number; script: { configMap: { file: string } }; runner: { env: Env[] } };
}

const examples = readdirSync(DIR)
  .filter((f) => /^testrun-.*\.yaml$/.test(f))
  .map((file) => ({ file, run: parse(readFileSync(join(DIR, file), 'utf8')) as TestRun }));

test("every example is a TestRun the operator's CRD accepts, unknown fields refused", () => {
  for (const { file, run } of examples) {
    assert.equal(run.apiVersion, `${crd.spec.group}/${version.name}`, file);
    assert.equal(run.kind, crd.spec.names.kind, file);
    assert.ok(validate(run), `${file}: ${JSON.stringify(validate.errors)}`);
  }
  const misspelled = { ...examples[0]!.run, spec: { ...examples[0]!.run.spec, paralelism: 2 } };
  assert.ok(!validate(misspelled), 'a misspelled field is refused');
  assert.ok(!validate({ ...examples[0]!.run, spec: { ...examples[0]!.run.spec, parallelism: 'four' } }), 'a wrong type is refused');
});

test('one example per script, each with a parallelism the script supports', () => {
  const byScript = Object.fromEntries(examples.map(({ file, run }) => [run.spec.script.configMap.file.replace(/\.js$/, ''), { file, run }]));
  assert.deepEqual(Object.keys(byScript).sort(), [...SCRIPTS].sort());
  for (const { file, run } of examples) assert.ok(run.spec.parallelism >= 1 && run.spec.parallelism <= MAX_RUNNERS, file);
  assert.equal(byScript['size-limits']!.run.spec.parallelism, 1, 'the size searches cannot be split');
});

test('each example names the target, allows its host, takes the password from a Secret and sets only variables the scripts read', () => {
  for (const { file, run } of examples) {
    const env = Object.fromEntries(run.spec.runner.env.map((e) => [e.name, e]));
    for (const name of ['API_BASE_URL', 'LOAD_ALLOW_HOSTS', 'API_LOGIN', 'API_PASSWORD']) assert.ok(env[name], `${file}: ${name}`);
    assert.equal(env.API_PASSWORD!.value, undefined, `${file}: never a literal password`);
    assert.ok(env.API_PASSWORD!.valueFrom?.secretKeyRef, file);
    assert.ok(env.LOAD_ALLOW_HOSTS!.value!.split(',').includes(hostOf(env.API_BASE_URL!.value!)), file);
    if (!file.includes('list')) assert.ok(env.BOT_ID, `${file}: the script creates dialogs on BOT_ID`);
    for (const name of Object.keys(env)) assert.match(README, new RegExp(`\\b${name}\\b`), `${file}: ${name} is no variable load/README.md documents`);
  }
});
