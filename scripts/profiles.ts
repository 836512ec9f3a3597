// `npm run profiles [-- --only NAME,...] [--concurrency N]`: the whole contract suite against every vendor profile
// of the simulator (simulator/profiles/), each a vendor that honours every documented item and chooses its own way
// wherever the spec says "not shown". Each run must be green with no breaking item, and its drift report against
// baselines/simulator.json (the default profile) must list every one of the profile's choices as changed
// (lib/profile-choices.ts). Some profiles are run as a user would configure them (SEND_BODY, COMMAND_BODY, from
// the vendor's own shapes), the others discover the shapes; one configures neither, so the skips of a run without
// a command shape are proven green too.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORTS_DIR } from '../contract/env.ts';
import { baselinePath } from '../contract/reporters/baselines.ts';
import { differingSettings, expectedChanges } from '../lib/profile-choices.ts';
import type { DriftReport } from '../lib/drift-report.ts';
import { listProfiles, profileConfig } from '../simulator/profiles.ts';
import { bodyTemplatesOf } from '../simulator/suite-env.ts';
import { parseRunsArgs, pool, runAgainstSimulator, scriptRun } from './suite-run.ts';

/** What each profile's run configures, as its user would: the rest is discovered. */
const CONFIGURED: Record<string, ReadonlyArray<'SEND_BODY' | 'COMMAND_BODY'>> = {
  'envelope-multipart': ['SEND_BODY', 'COMMAND_BODY'],
  'string-ids-query': ['COMMAND_BODY'],
  'form-text-acme': ['COMMAND_BODY'],
  'nested-put-empty': ['COMMAND_BODY'],
};
interface ProfileResult {
  profile: string;
  configured: readonly string[];
  passed: number;
  failed: string[];
  skipped: number;
  seconds: number;
  breaking: number;
  /** Observation ids the drift report lists as changed, added or removed against the default's baseline. */
  changed: string[];
  /** Ids the profile's choices must change but the report does not list. */
  missing: string[];
  /** Settings the profile changes that no observation is mapped to (lib/profile-choices.ts). */
  unmapped: string[];
  error?: string;
  ok: boolean;
}

const args = parseRunsArgs('profiles', process.argv.slice(2), 5);
const known = listProfiles().filter((p) => p !== 'default');
const unknown = (args.only ?? []).filter((p) => !known.includes(p));
if (unknown.length) {
  console.error(`profiles: no profile named ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}
const profiles = args.only ?? known;
const baseline = baselinePath('simulator');
const defaults = profileConfig('default');
const started = Date.now();
console.log(`profiles: the contract suite against ${profiles.length} vendor profiles, ${args.concurrency} at a time, compared with ${baseline}`);

const results = await pool(profiles, args.concurrency, async (profile): Promise<ProfileResult> => {
  const config = profileConfig(profile);
  const templates = bodyTemplatesOf(config);
  const configured = CONFIGURED[profile] ?? [];
  const reportsDir = join(REPORTS_DIR, 'profiles', profile);
  const run = await runAgainstSimulator(
    { profile },
    { reportsDir, workers: 1, baseline, env: Object.fromEntries(configured.map((name) => [name, templates[name]])), extraArgs: ['--reporter=json,./contract/reporters/run-reports.ts'] },
  );
  const driftFile = join(reportsDir, 'drift.json');
  const report = existsSync(driftFile) ? (JSON.parse(readFileSync(driftFile, 'utf8')) as DriftReport) : undefined;
  const changed = (report?.entries ?? []).filter((e) => e.change !== null && e.change !== 'unchanged' && e.severity !== 'breaking').map((e) => e.id).sort();
  const { ids, unmapped } = expectedChanges(differingSettings(defaults, config));
  const missing = ids.filter((id) => !changed.includes(id));
  const breaking = report?.counts.breaking ?? 0;
  const ok = !run.error && report !== undefined && run.failed.length === 0 && breaking === 0 && missing.length === 0 && unmapped.length === 0;
  const line = `${run.error ? `run error: ${run.error}` : `${run.failed.length} failed, ${run.passed} passed, ${run.skipped} skipped`} in ${run.seconds.toFixed(1)} s`;
  console.log(`  ${profile.padEnd(20)} ${ok ? 'ok  ' : 'FAIL'} ${line}; ${changed.length} observations changed${missing.length ? `, NOT LISTED: ${missing.join(', ')}` : ''}`);
  return { profile, configured, passed: run.passed, failed: run.failed, skipped: run.skipped, seconds: run.seconds, breaking, changed, missing, unmapped, ...(run.error ? { error: run.error } : {}), ok };
});

const wall = (Date.now() - started) / 1000;
mkdirSync(REPORTS_DIR, { recursive: true });
writeFileSync(join(REPORTS_DIR, 'profiles.json'), `${JSON.stringify({ run: scriptRun('simulators in this process, one per vendor profile', started), wallSeconds: wall, results }, null, 2)}\n`);
for (const r of results.filter((r) => !r.ok)) {
  for (const failed of r.failed) console.error(`profiles: ${r.profile}: failed ${failed}`);
  if (r.breaking) console.error(`profiles: ${r.profile}: ${r.breaking} breaking items in reports/profiles/${r.profile}/drift.md`);
  if (r.missing.length) console.error(`profiles: ${r.profile}: the drift report does not list these choices as changed: ${r.missing.join(', ')}`);
  if (r.unmapped.length) console.error(`profiles: ${r.profile}: settings no observation shows (add them to lib/profile-choices.ts): ${r.unmapped.join(', ')}`);
}
console.log(`profiles: ${results.filter((r) => r.ok).length}/${results.length} green with their choices reported, in ${wall.toFixed(0)} s wall; reports/profiles.json`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
