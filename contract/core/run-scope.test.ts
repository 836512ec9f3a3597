import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listedTests, narrowedBy, partialRunReason, selectionProblem } from './run-scope.ts';

test('a run of the whole suite is told from a narrowed one', () => {
  const cli = ['node', '/x/cli.js', 'test'];
  assert.equal(partialRunReason([...cli]), undefined);
  assert.equal(partialRunReason([...cli, '--reporter', 'list', '--workers=2', '-c', 'a.ts']), undefined);
  assert.match(partialRunReason([...cli, '--max-failures', '3'])!, /\(--max-failures\)/, 'a run that may stop early is no whole run');
  assert.match(partialRunReason([...cli, '-g', 'token|password'])!, /^a partial run \(-g\)/);
  assert.match(partialRunReason([...cli, '--project', 'v2', '--project=vertex'])!, /\(--project\)/);
  assert.match(partialRunReason([...cli, 'contract/v2/lifecycle.spec.ts'])!, /file filter contract\/v2\/lifecycle\.spec\.ts/);
  assert.match(partialRunReason([...cli, '--last-failed', '--grep-invert=x'])!, /--last-failed, --grep-invert/);
  assert.equal(partialRunReason(['node', 'other']), undefined);
});

test("Playwright's refusal of a command line is the caller's mistake, said in one line; a list of tests is the selection", () => {
  const noTests = { suites: [], errors: [{ message: 'Error: No tests found.\nMake sure that arguments are regular expressions matching test files.' }] };
  assert.match(selectionProblem(1, noTests, '')!, /^the selection matches no test/);
  assert.equal(
    selectionProblem(1, undefined, "error: unknown option '--baselin'\n"),
    "unknown option '--baselin': neither this command nor playwright test has it",
  );
  assert.equal(
    selectionProblem(1, undefined, 'Error: Project(s) "nosuch" not found. Available projects: "probes", "api"\n    at filterProjects (x.js:1:1)\n'),
    `Project(s) "nosuch" not found. Available projects: "probes", "api" (Playwright's words)`,
  );
  const listed = {
    suites: [
      {
        title: 'v2/lifecycle.spec.ts',
        specs: [{ title: 'walks', file: 'v2/lifecycle.spec.ts', tests: [{ projectName: 'api' }] }],
        suites: [{ title: 'group', specs: [{ title: 'inner', file: 'v2/lifecycle.spec.ts', tests: [{ projectName: 'api' }] }] }],
      },
    ],
    errors: [],
  };
  assert.equal(selectionProblem(0, listed, ''), undefined);
  assert.deepEqual(listedTests(listed), {
    tests: ['v2/lifecycle.spec.ts › walks', 'v2/lifecycle.spec.ts › group › inner'],
    specs: ['v2/lifecycle.spec.ts'],
    projects: ['api'],
  });
  assert.deepEqual(narrowedBy(['node', 'cli.js', 'test', '-G', 'x', '--workers', '2', 'contract/v2']), ['-G', 'file filter contract/v2']);
});
