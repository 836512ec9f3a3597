// Every check of the project proven alone (checks/examples.ts): each example that holds finds nothing failing, each
// that breaks fails at a place the check declares, the one a drift of the simulator names. And the registry: names,
// families, selection, a team's check offered wrong, the list --list-checks prints.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contractValidators } from '../openapi/validators.ts';
import { failureId } from '../lib/failure.ts';
import { CheckRegistry, checkProblem, defineCheck, failuresOf, familyOf, listChecks, type AnyCheck } from './check.ts';
import { checkExamples } from './examples.ts';
import { BUILT_IN } from './registry.ts';

const examples = checkExamples(contractValidators()) as Record<string, { holds: readonly unknown[]; breaks: readonly unknown[] }>;

for (const check of BUILT_IN) {
  test(`${check.name}: ${check.statement}`, () => {
    const cases = examples[check.name];
    assert.ok(cases && cases.breaks.length > 0, `${check.name} has no example that breaks it`);
    for (const [i, input] of cases.holds.entries()) {
      assert.deepEqual(
        check.judge(input).filter((f) => !f.holds),
        [],
        `example ${i + 1} that holds`,
      );
    }
    for (const [i, input] of cases.breaks.entries()) {
      const failing = check.judge(input).filter((f) => !f.holds);
      assert.ok(failing.length > 0, `example ${i + 1} that breaks it found nothing`);
      if (check.places && check.evidence !== 'run')
        for (const f of failing) assert.ok(check.places.includes(f.at), `${f.at} is not a place ${check.name} declares`);
    }
  });
}

test('every check has examples, and every example names a check', () => {
  assert.deepEqual(Object.keys(examples).sort(), BUILT_IN.map((c) => c.name).sort());
});

const team = defineCheck({
  name: 'acme.name_has_hash',
  sections: ['2.1'],
  severity: 'low',
  statement: 'names start with #',
  evidence: 'exchange',
  judge: ({ name }: { name: string }) => [{ at: '/name', holds: name.startsWith('#'), expected: 'a name starting with #', observed: name }],
});

test('a registry makes every check unless told otherwise; names and families select and exclude; a name of no check is one line', () => {
  const all = new CheckRegistry([...BUILT_IN, team]);
  assert.ok(all.all().every((c) => all.runs(c.name)));
  const some = new CheckRegistry([...BUILT_IN, team], {
    checks: ['pagination_conformance', 'acme.name_has_hash'],
    exclude: ['pagination_conformance.walk_totals'],
  });
  // The family's members, from the registry: a check added to it is selected with it.
  const family = BUILT_IN.filter((c) => familyOf(c.name) === 'pagination_conformance' && c.name !== 'pagination_conformance.walk_totals').map((c) => c.name);
  assert.ok(family.length > 1);
  assert.deepEqual(
    some
      .all()
      .filter((c) => some.runs(c.name))
      .map((c) => c.name),
    [...family, 'acme.name_has_hash'],
  );
  assert.ok(some.notRun().some((c) => c.name === 'not_a_server_error'));
  assert.throws(
    () => new CheckRegistry(BUILT_IN, { exclude: ['meaning_conformance.ipp'] }),
    /^CheckRegistryError: --exclude-checks names no check: meaning_conformance\.ipp/,
  );
  assert.throws(() => new CheckRegistry([...BUILT_IN, BUILT_IN[0]!]), /two checks are named not_a_server_error/);
});

test('a check offered wrong says what is wrong in one line', () => {
  assert.match(checkProblem({ ...team, name: 'Acme Check' }) ?? '', /lower_snake_case/);
  assert.match(checkProblem({ ...team, severity: 'urgent' }) ?? '', /severity must be one of critical, high, medium, low/);
  assert.match(checkProblem({ ...team, evidence: 'traffic' }) ?? '', /evidence must be one of exchange, dialog, walk, write, series, run/);
  assert.match(checkProblem({ ...team, judge: 'no' }) ?? '', /judge must be a function/);
  assert.equal(checkProblem(team), undefined);
});

test('a failing finding is a failure of its check at the answer judged, filed under its family', () => {
  const [failure] = failuresOf(team, team.judge({ name: 'Berlin' }), { operationId: 'getV2Conversation', status: 200, details: { dialog: 'x' } });
  assert.equal(failure!.check, 'acme.name_has_hash');
  assert.equal(failureId(failure!), 'contract.acme getV2Conversation 200 /name');
  assert.equal(familyOf('pagination_conformance.pages_disjoint'), 'pagination_conformance');
  assert.deepEqual(failure!.context, { details: { dialog: 'x' } });
  assert.equal(failure!.section, '2.1');
});

test('--list-checks shows each check with its sections, severity, evidence and statement, and which are not run', () => {
  const text = listChecks(new CheckRegistry([...BUILT_IN, team] as AnyCheck[], { exclude: ['acme'] }));
  assert.match(text, /^not_a_server_error\n {2}§7 · critical · one exchange\n {2}no answer is a server error/);
  assert.match(text, /acme\.name_has_hash \(not run: left out by --checks\/--exclude-checks\)\n {2}§2\.1 · low · one exchange\n {2}names start with #/);
});
