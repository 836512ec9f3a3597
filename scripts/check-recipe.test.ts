// The recipe for a check (docs/checks.md), as a test that cannot be half-followed: every check of the registry has its
// examples, its place in the judging engine (a feeder hands it evidence, or NOT_FROM_RECORDINGS says why no recording
// can), its entry in the meaning audit, and a drift of the simulator that this check itself catches (the mutation run
// proves it, power/mutation-score.ts); a check that lacks a step is named with the step. A team's checks in
// team-checks/ have theirs: examples that hold and break each one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkProblem, type AnyCheck } from '../checks/check.ts';
import { checkExamples } from '../checks/examples.ts';
import { ENGINE_EVIDENCE } from '../checks/engine.ts';
import { NOT_FROM_RECORDINGS } from '../checks/recording.ts';
import { BUILT_IN } from '../checks/registry.ts';
import type { DriftDeclaration } from '../lib/drift-declaration.ts';
import { contractValidators } from '../openapi/validators.ts';
import { DRIFTS } from '../simulator/drifts/index.ts';
import { auditedChecks, readAudit } from './meaning-audit.ts';

type Examples = Record<string, { holds: readonly unknown[]; breaks: readonly unknown[] } | undefined>;

/** What the recipe's steps are read from: the project's, or a test's own. */
interface Recipe {
  examples: Examples;
  fed: ReadonlySet<string>;
  excused: Readonly<Record<string, string>>;
  audit: ReturnType<typeof readAudit>;
  drifts: readonly DriftDeclaration[];
}

/** Whether a drift declares a place at an operation, as the mutation run reads it ("/x" names "/x (qualifier)"). */
const declares = (drift: DriftDeclaration, operation: string, at: string) =>
  (drift.breaks ?? []).some((b) => b.operations.includes(operation as never) && b.at.some((place) => at === place || at.startsWith(`${place} (`)));

/** Each step of the recipe a check lacks, as one line naming the check, the step and where it goes. */
export function missingSteps(check: AnyCheck, recipe: Recipe): string[] {
  const name = check.name;
  const missing: string[] = [];
  const examples = recipe.examples[name];
  if (!examples?.breaks.length) missing.push('step 2, its examples: evidence that holds and evidence that breaks it in checks/examples.ts');
  const fed = recipe.fed.has(name);
  const excused = name in recipe.excused;
  if (fed && excused) missing.push('step 3, one place in the engine: a feeder hands it evidence and NOT_FROM_RECORDINGS excuses it both; keep one');
  if (!fed && !excused)
    missing.push('step 3, its place in the engine: a feeder of checks/engine.ts that hands it evidence, or why no recording can in NOT_FROM_RECORDINGS');
  const audited = auditedChecks(recipe.audit).filter((c) => c.check === name);
  const exempt = recipe.audit.undriftable.find((u) => u.check === name);
  if (!audited.length && !exempt) missing.push('step 4, its audit entry: openapi/meaning-audit.yaml names it at the words of the spec it holds');
  if (exempt && !exempt.why) missing.push('step 5, why no drift can show it (undriftable: why)');
  if (audited.length && !exempt && !audited.some((c) => c.drift))
    missing.push('step 5, a drift it catches: `drift: NAME` on its audit entry, a breaking drift of simulator/drifts/ that fails it there');
  for (const c of audited.filter((a) => a.drift)) {
    const drift = recipe.drifts.find((d) => d.name === c.drift);
    if (drift?.kind !== 'breaking') missing.push(`step 5, its drift: ${c.drift} is no breaking drift of simulator/drifts/`);
    else if (!declares(drift, c.operation, c.at)) missing.push(`step 5, its drift: ${c.drift} declares no place ${c.at} at ${c.operation}`);
  }
  return missing.map((step) => `${name}: missing ${step}`);
}

const PROJECT: Recipe = {
  examples: checkExamples(contractValidators()) as Examples,
  fed: new Set(ENGINE_EVIDENCE.keys()),
  excused: NOT_FROM_RECORDINGS as Record<string, string>,
  audit: readAudit(),
  drifts: DRIFTS,
};

test('every check of the registry has every step of the recipe (docs/checks.md)', () => {
  assert.deepEqual(
    BUILT_IN.flatMap((check) => missingSteps(check, PROJECT)),
    [],
  );
});

test('a check added with none of its steps is named once for each step it lacks', () => {
  const added = { ...BUILT_IN[0]!, name: 'meaning_conformance.city_named' } as AnyCheck;
  assert.deepEqual(
    missingSteps(added, PROJECT).map((line) => line.replace(/, .*/, '')),
    ['meaning_conformance.city_named: missing step 2', 'meaning_conformance.city_named: missing step 3', 'meaning_conformance.city_named: missing step 4'],
  );
  // Given examples, a feeder and an entry, the drift it names must be one that declares the place.
  const audit = { ...PROJECT.audit, clauses: [{ checks: [{ operation: 'getV2Conversation', at: '/location', check: added.name, drift: 'meta-missing' }] }] };
  const recipe = { ...PROJECT, examples: { [added.name]: { holds: [], breaks: [{}] } }, fed: new Set([added.name]), audit };
  assert.deepEqual(missingSteps(added, recipe), [`${added.name}: missing step 5, its drift: meta-missing declares no place /location at getV2Conversation`]);
});

const TEAM = new URL('../team-checks/', import.meta.url);

test("a team's checks in team-checks/ are checks offered right, each proven alone by its examples", async () => {
  for (const file of readdirSync(TEAM).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const module = (await import(new URL(file, TEAM).href)) as { default?: unknown; examples?: Examples };
    const checks = [module.default].flat() as AnyCheck[];
    for (const check of checks) {
      assert.equal(checkProblem(check), undefined, `${file}: ${check?.name}`);
      const examples = module.examples?.[check.name];
      assert.ok(examples?.breaks.length, `${file}: ${check.name} has no examples that break it (export const examples)`);
      for (const input of examples.holds)
        assert.deepEqual(
          check.judge(input).filter((f) => !f.holds),
          [],
          `${check.name}: an example that holds`,
        );
      for (const input of examples.breaks) {
        const failing = check.judge(input).filter((f) => !f.holds);
        assert.ok(failing.length > 0, `${check.name}: an example that breaks it found nothing`);
        if (check.places) for (const f of failing) assert.ok(check.places.includes(f.at), `${check.name}: ${f.at} is no place it declares`);
      }
    }
  }
  assert.ok(readFileSync(new URL('README.md', TEAM), 'utf8').includes('CHECKS_MODULE'));
});
