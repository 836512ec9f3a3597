// `npm run profiles [-- --only NAME,...] [--concurrency N]`: the whole contract suite against every vendor profile
// of the simulator (simulator/profiles/), each a vendor that honours every documented item and chooses its own way
// wherever the spec says "not shown". Each run must be green with no breaking item, and its drift report against
// baselines/simulator.json (the default profile) must list every one of the profile's choices as changed
// (power/profile-choices.ts). Some profiles are run as a user would configure them (SEND_BODY, COMMAND_BODY, from
// the vendor's own shapes), the others must discover the shapes with no configuration, verified by their effect, from
// the candidates or from what the vendor's refusals say in its own words (the refusal-* profiles, refusal-holdout's
// words never seen by the reader's tests), so that none of their tests is skipped for want of one; refusal-silent's
// refusals name nothing, so the skips of a run without shapes are proven green too. Each run's learned document (its overlay) must apply, lint clean and accept
// every answer recorded, and differ from the default's exactly at the places whose observations the profile changed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { BaselineError, baselinePath, readBaseline } from '../contract/core/baselines.ts';
import { OBSERVED_OVERLAY } from '../contract/core/run-report-files.ts';
import { observedOverlay } from '../report/overlay.ts';
import { differingSettings, expectedChanges, overlayMismatch, PROFILE_CONFIGURES, shapeProblems } from '../power/profile-choices.ts';
import { requestShapesFile } from '../contract/core/request-shapes.ts';
import type { DriftReport } from '../report/drift-report.ts';
import { listProfiles, profileConfig } from '../simulator/profiles.ts';
import { bodyTemplatesOf } from '../simulator/suite-env.ts';
import { checkObserved } from './overlay-check.ts';
import { REPORTS_DIR_ENV } from '../config/command-line.ts';
import { lanesMemoryHolds, parseRunsArgs, PINNED_SEED_ENV, pinSeedOrExit, RUNS_OPTIONS, runSuitesAgainstSimulators, scriptRun } from './suite-run.ts';

/**
 * Every profile side by side by default, a gigabyte of memory each at most: their targets pace them (8 to 20 requests
 * a second), so a run mostly waits, and each lane is a Playwright invocation of its own. Runs that share a lane take
 * turns file by file, so each run's sends come in bursts between the others' (14 profiles in 5 lanes: 2508 s; each in
 * its own, the twelve whose pace held its target's limit ended within 280 s).
 */
const known = listProfiles().filter((p) => p !== 'default');
const CONCURRENCY = Math.min(known.length, lanesMemoryHolds());

const COMMAND = {
  script: 'profiles',
  usage: ['[--only NAME[,NAME...]] [--concurrency N]'],
  summary:
    'The whole contract suite against every vendor profile of the simulator (simulator/profiles/; npm run simulator --\n' +
    '--list-profiles), each a vendor that honours every documented item and decides the rest its own way. Each run must\n' +
    'be green with no breaking item, its drift report against baselines/simulator.json must list every choice of the\n' +
    "profile as changed, and its learned document must apply, lint clean and differ from the default's where the\n" +
    'profile does. Writes reports/profiles.json (each run: reports/profiles/NAME/).',
  options: {
    ...RUNS_OPTIONS,
    only: { ...RUNS_OPTIONS.only, description: 'only these profiles' },
    concurrency: { ...RUNS_OPTIONS.concurrency, default: `${CONCURRENCY} (every profile, a gigabyte of memory each at most)` },
  },
  environment: [REPORTS_DIR_ENV, PINNED_SEED_ENV],
  exit: '0 every profile green with its choices reported; 1 otherwise; 2 bad input or no baselines/simulator.json.',
  examples: ['npm run profiles -- --only form-text-acme,bearer-ids'],
} as const;

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
  /** Settings the profile changes that no observation is mapped to (power/profile-choices.ts). */
  unmapped: string[];
  /** What is wrong with the run's learned document (npm run overlay:check). */
  overlayProblems: string[];
  /** Places where its overlay and the default's differ, or should and do not: "differs without a change: T". */
  overlayMismatch: string[];
  /** A shape it had to discover with no configuration and did not, or took without its effect (power/profile-choices.ts). */
  shapeProblems: string[];
  error?: string;
  ok: boolean;
}

const args = parseRunsArgs(COMMAND, process.argv.slice(2), CONCURRENCY);
const unknown = (args.only ?? []).filter((p) => !known.includes(p));
if (unknown.length) {
  console.error(`profiles: no profile named ${unknown.join(', ')}; known: ${known.join(', ')}`);
  process.exit(2);
}
const profiles = args.only ?? known;
const baseline = baselinePath('simulator');
const defaults = profileConfig('default');
let defaultBaseline: ReturnType<typeof readBaseline>;
try {
  defaultBaseline = readBaseline('simulator');
} catch (err) {
  if (!(err instanceof BaselineError)) throw err;
  console.error(`profiles: ${err.message}`);
  process.exit(2);
}
const defaultOverlay = observedOverlay(defaultBaseline.items, null);

const seed = pinSeedOrExit('profiles');
const started = Date.now();
console.log(
  `profiles: the contract suite against ${profiles.length} vendor profiles, ${args.concurrency} at a time, compared with ${baseline}, generated inputs of seed ${seed}`,
);

const planned = profiles.map((profile) => ({
  profile,
  config: profileConfig(profile),
  configured: PROFILE_CONFIGURES[profile] ?? [],
  reportsDir: join(REPORTS_DIR, 'profiles', profile),
}));
// Each profile against its own simulator in a lane of its own, a Playwright invocation each (scripts/suite-run.ts runSuites).
const runs = await runSuitesAgainstSimulators(
  planned.map(({ profile, config, configured, reportsDir }) => {
    const templates = bodyTemplatesOf(config);
    return {
      name: profile,
      simulator: { profile },
      run: { reportsDir, baseline, env: Object.fromEntries(configured.map((name) => [name, templates[name]])) },
    };
  }),
  // A worker each: a profile's limit paces its own lane, never another's tests.
  { lanes: args.concurrency, workers: 1 },
  join(REPORTS_DIR, 'profiles-invocation'),
);
const results = await Promise.all(
  planned.map(async ({ profile, config, configured, reportsDir }, i): Promise<ProfileResult> => {
    const run = runs[i]!;
    const driftFile = join(reportsDir, 'drift.json');
    const written = existsSync(driftFile) ? (JSON.parse(readFileSync(driftFile, 'utf8')) as DriftReport | { verdict: { line: string } }) : undefined;
    // A run that could not judge writes its verdict there, no drift report (contract/core/verdict-reports.ts): that
    // profile fails with the verdict's line, and the others' results are still written.
    const report = written && 'counts' in written ? written : undefined;
    const unjudged = written && 'verdict' in written ? `; ${written.verdict.line}` : '';
    const changed = (report?.entries ?? [])
      .filter((e) => e.change !== null && e.change !== 'unchanged' && e.severity !== 'breaking')
      .map((e) => e.id)
      .sort();
    const { ids, unmapped } = expectedChanges(differingSettings(defaults, config));
    const missing = ids.filter((id) => !changed.includes(id));
    const breaking = report?.counts.breaking ?? 0;
    const learned = await checkObserved(reportsDir);
    const compared = learned.overlay
      ? overlayMismatch(defaultOverlay, learned.overlay, changed)
      : { differing: [], problems: [`no readable ${OBSERVED_OVERLAY} written`] };
    const mismatch = compared.problems;
    const shapesFile = requestShapesFile(reportsDir);
    const shapes = shapeProblems(profile, existsSync(shapesFile) ? JSON.parse(readFileSync(shapesFile, 'utf8')) : undefined);
    const ok =
      !run.error &&
      report !== undefined &&
      run.failed.length === 0 &&
      breaking === 0 &&
      missing.length === 0 &&
      unmapped.length === 0 &&
      learned.problems.length === 0 &&
      mismatch.length === 0 &&
      shapes.length === 0;
    const line = `${run.error ? `run error: ${run.error}` : `${run.failed.length} failed, ${run.passed} passed, ${run.skipped} skipped`} in ${run.seconds.toFixed(1)} s of tests`;
    const overlayLine = `overlay of ${learned.actions} actions, ${compared.differing.length} differing from the default's`;
    console.log(
      `  ${profile.padEnd(20)} ${ok ? 'ok  ' : 'FAIL'} ${line}; ${changed.length} observations changed${missing.length ? `, NOT LISTED: ${missing.join(', ')}` : ''}; ${overlayLine}${unjudged}`,
    );
    return {
      profile,
      configured,
      passed: run.passed,
      failed: run.failed,
      skipped: run.skipped,
      seconds: run.seconds,
      breaking,
      changed,
      missing,
      unmapped,
      overlayProblems: learned.problems,
      overlayMismatch: mismatch,
      shapeProblems: shapes,
      ...(run.error ? { error: run.error } : {}),
      ok,
    };
  }),
);

const wall = (Date.now() - started) / 1000;
mkdirSync(REPORTS_DIR, { recursive: true });
writeFileSync(
  join(REPORTS_DIR, 'profiles.json'),
  `${JSON.stringify({ run: scriptRun('simulators in this process, one per vendor profile', started), seed, wallSeconds: wall, results }, null, 2)}\n`,
);
for (const r of results.filter((r) => !r.ok)) {
  for (const failed of r.failed) console.error(`profiles: ${r.profile}: failed ${failed}`);
  if (r.breaking) console.error(`profiles: ${r.profile}: ${r.breaking} breaking items in reports/profiles/${r.profile}/drift.md`);
  if (r.missing.length) console.error(`profiles: ${r.profile}: the drift report does not list these choices as changed: ${r.missing.join(', ')}`);
  if (r.unmapped.length)
    console.error(`profiles: ${r.profile}: settings no observation shows (add them to power/profile-choices.ts): ${r.unmapped.join(', ')}`);
  for (const p of [...r.overlayProblems, ...r.overlayMismatch]) console.error(`profiles: ${r.profile}: learned document: ${p}`);
  for (const p of r.shapeProblems) console.error(`profiles: ${r.profile}: ${p}`);
}
console.log(
  `profiles: ${results.filter((r) => r.ok).length}/${results.length} green with their choices reported, in ${wall.toFixed(0)} s wall; reports/profiles.json`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
