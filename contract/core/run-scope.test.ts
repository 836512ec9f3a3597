import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partialRunReason } from './run-scope.ts';

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
