// A team adds its own check without forking (CHECKS_MODULE): a module written to a folder of its own is listed by
// --list-checks, judged on every answer of a run against the simulator and failed, reported and ticketed like a
// check of the project; left out with --exclude-checks, the run passes and says the check was not run.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runEntry } from './package-scripts.ts';
import { runAgainstSimulator } from './suite-run.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'team-checks-'));
const module = join(dir, 'our-checks.ts');
// The folder of a team's module is an ES module scope, as the project's own folder is.
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
// The simulator's dialogs were started in the service "web": this team holds its vendor to "api".
writeFileSync(
  module,
  `import { defineCheck } from '${ROOT}checks/check.ts';
import { jsonOf, type ExchangeEvidence } from '${ROOT}checks/evidence.ts';

export default [
  defineCheck({
    name: 'acme.source_is_api',
    sections: ['2.1'],
    severity: 'medium',
    statement: 'every V2 list item was started through the API (source "api")',
    evidence: 'exchange',
    judge: (e: ExchangeEvidence) => {
      if (e.operationId !== 'getV2Conversations' || e.response.status !== 200) return [];
      const items = Object.entries(jsonOf(e) as Record<string, { source?: unknown }>).filter(([key]) => key !== 'meta');
      return items.map(([, item]) => ({ at: '/*/source', holds: item.source === 'api', expected: '"api"', observed: JSON.stringify(item.source) }));
    },
  }),
  defineCheck({
    name: 'acme.few_requests',
    sections: ['8.2'],
    severity: 'low',
    statement: 'a run sends fewer than ten requests',
    evidence: 'run',
    judge: (exchanges: readonly ExchangeEvidence[]) => [
      { at: 'requests', holds: exchanges.length < 10, expected: 'fewer than ten requests', observed: exchanges.length < 10 ? 'fewer' : 'ten or more' },
    ],
  }),
];
`,
);

const NARROW = ['--project', 'api', '-g', 'GET /v2/conversations without parameters'];
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;

test("a team's module of checks is listed with the project's, and a name of no check is one line, exit 2", async () => {
  // A refused selection or module writes the configuration error's reports: into a folder of the test's own.
  const env = { ...process.env, CHECKS_MODULE: module, FORCE_COLOR: '0', REPORTS_DIR: join(dir, 'listed') };
  const listed = await runEntry('scripts/contract.ts', ['--list-checks'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^not_a_server_error\n/);
  assert.match(listed.stdout, /\nacme\.source_is_api\n {2}§2\.1 · medium · one exchange\n {2}every V2 list item was started through the API/);
  const unknown = await runEntry('scripts/contract.ts', ['--exclude-checks', 'acme.source_is_web'], env);
  assert.equal(unknown.code, 2);
  assert.equal(
    unknown.stderr.trim(),
    'contract: --exclude-checks names no check: acme.source_is_web (npm run contract -- --list-checks lists them); see npm run contract -- --help',
  );
  const broken = join(dir, 'broken.ts');
  writeFileSync(broken, "export default [{ name: 'Acme Check' }];\n");
  const bad = await runEntry('scripts/contract.ts', ['--list-checks'], { ...env, CHECKS_MODULE: broken });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /CHECKS_MODULE=.*broken\.ts: check Acme Check: its name must be lower_snake_case/);
});

test("a team's check fails a run against the simulator like a check of the project: failures.json, a ticket, the summary", async () => {
  const reportsDir = join(dir, 'failing');
  const run = await runAgainstSimulator({}, { reportsDir, workers: 1, env: { CHECKS_MODULE: module }, extraArgs: NARROW });
  assert.equal(run.exitCode, 1, run.output.slice(-1500));
  const failures = json(join(reportsDir, 'failures.json')).failures as Array<{ id: string; check: string; operationId: string; test: string }>;
  assert.ok(
    failures.some(
      (f) => f.check === 'acme.source_is_api' && f.operationId === 'getV2Conversations' && f.id === 'contract.acme getV2Conversations 200 /*/source',
    ),
    JSON.stringify(failures.map((f) => f.id)),
  );
  // A check of the whole run judges its exchanges at the run's end.
  assert.ok(
    failures.some((f) => f.check === 'acme.few_requests' && f.id.endsWith(' requests')),
    'the check of the whole run failed at its place',
  );
  const tickets = readdirSync(join(reportsDir, 'tickets'));
  assert.ok(
    tickets.some((t) => readFileSync(join(reportsDir, 'tickets', t), 'utf8').includes('check: acme.source_is_api')),
    tickets.join(', '),
  );
  const coverage = json(join(reportsDir, 'coverage.json')).checks as Array<{ name: string; judged: number; failed: number }>;
  assert.ok((coverage.find((c) => c.name === 'acme.source_is_api')?.failed ?? 0) > 0);
});

test('a check left out with --exclude-checks is not judged, and the summary and the coverage report say it was not run', async () => {
  const reportsDir = join(dir, 'excluded');
  const env = { CHECKS_MODULE: module, EXCLUDE_CHECKS: 'acme,meaning_conformance.ip' };
  const run = await runAgainstSimulator({}, { reportsDir, workers: 1, env, extraArgs: NARROW });
  assert.equal(run.exitCode, 0, run.output.slice(-1500));
  const summary = readFileSync(join(reportsDir, 'summary.md'), 'utf8');
  assert.match(summary, /3 checks not run \(left out by --checks\/--exclude-checks\): meaning_conformance\.ip, acme\.source_is_api, acme\.few_requests/);
  const coverage = json(join(reportsDir, 'coverage.json')).checks as Array<{ name: string; notRun?: string }>;
  for (const name of ['acme.source_is_api', 'acme.few_requests', 'meaning_conformance.ip'])
    assert.equal(coverage.find((c) => c.name === name)?.notRun, 'not run: left out by --checks/--exclude-checks');
  assert.ok(existsSync(join(reportsDir, 'coverage.html')));
});
