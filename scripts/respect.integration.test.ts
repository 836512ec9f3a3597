// npm run respect proves itself: its Arazzo workflow lints clean and names only operations of the document; Redocly
// Respect runs it green against the default simulator and every vendor profile (each configured as its users would,
// the rest discovered) without a secret in its output or reports, and red against drifted simulators at the drifted
// step; a target whose body shape cannot be settled is a run that could not judge (exit 2, one line naming the fix).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { secretsOf, parseSuiteConfig } from '../config/suite-config.ts';
import { PROJECT_ROOT, SUITE_ENVIRONMENT } from '../contract/core/env.ts';
import { findSecrets } from '../contract/reporters/secret-scan.ts';
import { OPERATIONS } from '../openapi/operations.generated.ts';
import { PROFILE_CONFIGURES } from '../power/profile-choices.ts';
import { listProfiles } from '../simulator/profiles.ts';
import { bodyTemplatesOf, suiteEnvFor } from '../simulator/suite-env.ts';
import { pool } from '../lib/pool.ts';
import { startRunSimulator } from './suite-run.ts';

const WORKFLOW = join(PROJECT_ROOT, 'workflows', 'dialog-lifecycle.arazzo.yaml');
const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface Step {
  stepId: string;
  operationId?: string;
  successCriteria?: Array<{ condition: string }>;
}
const document = parse(readFileSync(WORKFLOW, 'utf8')) as {
  sourceDescriptions: Array<{ url: string }>;
  workflows: Array<{ workflowId: string; steps: Step[] }>;
};

test('the workflow lints clean with Redocly and names only operations of the OpenAPI document', () => {
  const lint = spawnSync(process.execPath, [REDOCLY, 'lint', WORKFLOW, '--config', 'redocly.yaml', '--format', 'codeframe'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  // Clean means no warning either: Redocly exits 0 on warnings.
  assert.doesNotMatch(lint.stdout + lint.stderr, /You have \d+ warnings?/);
  assert.equal(resolve(PROJECT_ROOT, 'workflows', document.sourceDescriptions[0]!.url), join(PROJECT_ROOT, 'openapi', 'dialog-bot.openapi.yaml'));
  const steps = document.workflows.flatMap((w) => w.steps.map((s) => ({ ...s, key: `${w.workflowId}/${s.stepId}` })));
  assert.deepEqual(
    steps.filter((s) => !s.operationId || !(s.operationId in OPERATIONS)).map((s) => s.key),
    [],
  );
  // Every step but the cleanup states the status the specification documents for it.
  assert.deepEqual(
    steps.filter((s) => !s.successCriteria?.some((c) => c.condition.startsWith('$statusCode'))).map((s) => s.key),
    ['lifecycle/cleanup'],
  );
});

/** `npm run respect` against a simulator started here, as a user points it at a target. */
async function respect(simulator: { profile?: string; drifts?: string[] }, configure: ReadonlyArray<'SEND_BODY' | 'COMMAND_BODY'>) {
  const { sim } = await startRunSimulator(simulator);
  const templates = bodyTemplatesOf(sim.config);
  const reports = mkdtempSync(join(tmpdir(), 'respect-'));
  const env = {
    ...process.env,
    SEND_BODY: '',
    COMMAND_BODY: '',
    ...suiteEnvFor(sim.config),
    ...Object.fromEntries(configure.map((name) => [name, templates[name]])),
    API_BASE_URL: sim.url,
    REPORTS_DIR: reports,
  };
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/respect.ts'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const status = await new Promise<number | null>((done) => child.once('exit', done));
    return { status, output, reports, secrets: secretsOf(parseSuiteConfig(env, SUITE_ENVIRONMENT)) };
  } finally {
    await sim.close();
  }
}

const BOTH = ['SEND_BODY', 'COMMAND_BODY'] as const;

test('green against the default simulator and every vendor profile, with no secret in its output or reports', async () => {
  // Each profile configured as its users configure it; a run that cannot discover a shape is told to set it (below).
  const configured: Record<string, ReadonlyArray<'SEND_BODY' | 'COMMAND_BODY'>> = { ...PROFILE_CONFIGURES, 'bearer-ids': ['COMMAND_BODY'] };
  const runs = await pool(listProfiles(), 2, async (profile) => ({ profile, ...(await respect({ profile }, configured[profile] ?? [])) }));
  for (const run of runs) {
    assert.equal(run.status, 0, `${run.profile}:\n${run.output.slice(-1500)}`);
    assert.match(run.output, /^respect: green/m, run.profile);
    assert.deepEqual(findSecrets([run.reports], run.secrets), [], run.profile);
    assert.ok(
      run.secrets.every((s) => !run.output.includes(s)),
      `${run.profile}: a secret in the output`,
    );
  }
});

test('a target whose command shape cannot be discovered could not be judged: exit 2, one line naming COMMAND_BODY', async () => {
  const run = await respect({ profile: 'bearer-ids' }, ['SEND_BODY']);
  assert.equal(run.status, 2, run.output.slice(-1500));
  assert.match(run.output, /^respect: no command body shape for .*: set COMMAND_BODY/m);
});

// A drift of each kind of check the workflow makes: a status, a state read back, a list read, the two error
// flows, and a schema of the document (Respect's own check).
const DRIFTED: ReadonlyArray<[drift: string, failedStep: string]> = [
  ['start-200-with-body', 'lifecycle/start'],
  ['stop-keeps-status', 'lifecycle/readAfterStop'],
  ['command-ignored', 'lifecycle/listedUnderTarget'],
  ['unknown-dialog-200', 'unknownDialog/read'],
  ['wrong-password-403', 'credentials/wrongPasswordV2'],
  ['v2-source-removed', 'lifecycle/readAfterStart'],
];

test('red against drifted simulators, naming the drifted step', async () => {
  const runs = await pool(DRIFTED, 2, async ([drift, step]) => ({ drift, step, ...(await respect({ drifts: [drift] }, BOTH)) }));
  for (const run of runs) {
    assert.equal(run.status, 1, `${run.drift}:\n${run.output.slice(-1500)}`);
    assert.match(run.output, new RegExp(`^respect: FAILED ${run.step}: `, 'm'), `${run.drift}:\n${run.output.slice(-1500)}`);
  }
});
