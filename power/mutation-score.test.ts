import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesLocation, renderTable, reportedDrift, scoreMutations, type ReportedChange, type ScoredFailure, type SuiteRun } from './mutation-score.ts';
import type { OperationId } from '../openapi/operations.generated.ts';
import type { DriftLocation } from '../lib/drift-declaration.ts';
import type { DriftDeclaration } from '../lib/drift-declaration.ts';
import { buildDriftReport } from '../report/drift-report.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';

const META: DriftLocation = { operations: ['getV1Conversations', 'getV2Conversations'], at: ['/meta'] };
const breaking = (name: string, breaks = [META]): DriftDeclaration => ({ name, kind: 'breaking', clause: '§2.3', description: name, breaks });
const additive = (name: string, reports: string[]): DriftDeclaration => ({ name, kind: 'additive', clause: '§2.2', description: name, reports });
const undocumented = (name: string, reports: string[]): DriftDeclaration => ({ name, kind: 'undocumented', clause: '§3', description: name, reports });
const change = (id: string, severity: ReportedChange['severity'], kind = 'changed'): ReportedChange => ({ id, severity, change: kind, line: `${kind} ${id}` });
const green = (changes: ReportedChange[] = []): SuiteRun => ({ failed: [], passed: 10, skipped: 0, seconds: 1, reported: { changes } });
const failure = (operationId: OperationId, pointer: string): ScoredFailure => ({
  id: `contract.response_schema_conformance ${operationId} 200 ${pointer}`,
  operationId,
  pointer,
});
const red = (...failures: ScoredFailure[]): SuiteRun => ({
  failed: ['[v2] lists › a'],
  passed: 9,
  skipped: 0,
  seconds: 1,
  failures,
  firstMessage: 'first line',
});

test('a breaking drift is detected only where a failure names its operation and place', () => {
  const result = scoreMutations(green(), [
    { drift: breaking('meta-missing'), run: red(failure('getV2Conversations', '/meta')) },
    // Only an unrelated test failed: the suite caught something, but not the drifted item.
    { drift: breaking('meta-missing-elsewhere'), run: red(failure('getV2Conversation', '/source')) },
    { drift: breaking('meta-missing-unseen'), run: green() },
  ]);
  assert.deepEqual(
    result.rows.map((r) => r.verdict),
    ['green', 'detected', 'ELSEWHERE ONLY', 'MISSED'],
  );
  assert.deepEqual([result.detected, result.elsewhere, result.ok], [1, 1, false]);
  assert.match(result.scoreLine, /^mutation score: 1\/3 breaking drifts detected at the drifted item, 1 only elsewhere;/);
  const named =
    /meta-missing\s+breaking\s+detected.*\n\s+↳ GET \/v2\/conversations: \/meta \(contract\.response_schema_conformance getV2Conversations 200 \/meta\)/;
  assert.match(renderTable(result), named);
});

test('a record-only run: its tests pass as expected failures, and the failures they recorded fail it', () => {
  const recorded = (...failures: ScoredFailure[]): SuiteRun => ({
    ...green(),
    failures: failures.map((f) => ({ ...f, test: '[api] v2/lists.spec.ts › a' })),
  });
  const result = scoreMutations(green(), [
    { drift: breaking('meta-missing'), run: recorded(failure('getV2Conversations', '/meta')) },
    { drift: breaking('meta-missing-late'), run: recorded(failure('getV2Conversations', 'status')) },
    { drift: additive('pagination-extra-key', ['x']), run: recorded(failure('getV1Conversations', 'status')) },
  ]);
  assert.deepEqual(
    result.rows.map((r) => r.verdict),
    ['green', 'detected', 'ELSEWHERE ONLY', 'FALSE POSITIVE'],
  );
  assert.deepEqual(result.rows[1]!.failed, ['[api] v2/lists.spec.ts › a']);
});

test('a place names a failure by itself or with a qualifier, never by prefix alone', () => {
  const at: DriftLocation = { operations: ['getV2Conversations', 'getV1Conversation'], at: ['/*/id', '/status'] };
  const named = (operationId: OperationId | null, pointer: string, comparedWith?: OperationId) =>
    namesLocation({ id: '', operationId, pointer, ...(comparedWith ? { comparedWith } : {}) }, at);
  assert.ok(named('getV2Conversations', '/*/id (pages disjoint)'));
  // A comparison of two operations names the first: V1's record held against V2's.
  assert.ok(named('getV1Conversation', '/status', 'getV2Conversation'));
  assert.ok(!named('getV2Conversations', '/*/identity'));
  assert.ok(!named('getV1Conversations', '/*/id'));
  assert.ok(!named(null, '/*/id'));
});

test('additive and undocumented drifts count only when their own item is reported with the right severity', () => {
  const result = scoreMutations(green(), [
    {
      drift: additive('record-extra-field', ['additive.getV2Conversation.$.tags']),
      run: green([change('additive.getV2Conversation.$.tags', 'additive', 'added')]),
    },
    { drift: undocumented('operator-status-renamed', ['status.operator']), run: green([change('status.operator', 'changed')]) },
    // Something changed, but not the drift's item.
    { drift: undocumented('default-page-count-20', ['default.v2.PageCount']), run: green([change('links.v2', 'changed')]) },
    // The right item with the wrong severity: a new additive field is not a changed observation.
    {
      drift: additive('list-item-extra-field', ['additive.getV2Conversations.$[*].bot_id']),
      run: green([change('additive.getV2Conversations.$[*].bot_id', 'changed')]),
    },
  ]);
  assert.deepEqual(
    result.rows.slice(1).map((r) => r.verdict),
    ['reported', 'reported', 'NOT REPORTED', 'NOT REPORTED'],
  );
  assert.match(result.scoreLine, /2\/4 additive and undocumented drifts reported at their own item/);
});

test('failures without a breaking drift are false positives; a broken run has no verdict', () => {
  const result = scoreMutations(red(failure('getV1Conversations', 'status')), [
    { drift: additive('pagination-extra-key', ['x']), run: red(failure('getV1Conversations', 'status')) },
    { drift: breaking('v1-id-string'), run: { ...green(), error: 'no Playwright report' } },
  ]);
  assert.deepEqual(
    result.rows.map((r) => r.verdict),
    ['FALSE POSITIVE', 'FALSE POSITIVE', 'RUN ERROR'],
  );
  assert.equal(result.falsePositives, 2);
  assert.match(result.scoreLine, /2 false positives, 1 runs broken$/);
});

test('the drift report of a run against the conforming fingerprint lists its changes, contract failures aside', () => {
  const item = (id: string, observed: unknown): FingerprintItem => ({ id, section: '2', operation: 'op', item: 'i', observed });
  const conforming = { name: 'conforming', items: [item('status.operator', 'operator'), item('additive.a.$.old', 'integer'), item('links.v2', {})] };
  const report = buildDriftReport(
    [
      item('status.operator', 'waiting-operator'),
      item('additive.a.$.old', 'integer'),
      item('additive.a.$.new', 'boolean'),
      item('links.v2', {}),
      { ...item('contract.x', 'y'), severity: 'breaking' },
    ],
    () => ({ documented: 'd' }),
    conforming,
  );
  assert.deepEqual(
    reportedDrift(report).changes.map((c) => [c.id, c.severity, c.change, c.line]),
    [
      ['status.operator', 'changed', 'changed', 'changed status.operator: operator → waiting-operator'],
      ['additive.a.$.new', 'additive', 'added', 'added additive.a.$.new: boolean'],
    ],
  );
});

test('the conforming run must also match the committed baseline of the simulator', () => {
  const result = scoreMutations(green([change('default.v2.PageCount', 'changed')]), []);
  assert.equal(result.rows[0]?.verdict, 'BASELINE CHANGED');
  assert.equal(result.rows[0]?.reported, 'changed default.v2.PageCount');
  assert.equal(result.ok, false);
});

test("a drift the run detected is judged again from its HAR: caught at the item, explained by its checks' reasons, or missed", () => {
  const atMeta = { ...failure('getV2Conversations', '/meta'), check: 'response_schema_conformance' };
  const body = { ...failure('getV2Conversations', '/meta'), check: 'complete_body' };
  const withHar = (run: SuiteRun, fromRecording: ScoredFailure[]): SuiteRun => ({ ...run, fromRecording });
  const result = scoreMutations(
    green(),
    [
      { drift: breaking('caught'), run: withHar(red(atMeta), [atMeta]) },
      { drift: breaking('explained'), run: withHar(red(body), []) },
      { drift: breaking('missed'), run: withHar(red(atMeta), [failure('getV2Conversation', '/source')]) },
    ],
    { complete_body: 'a recorder writes the answers that came whole' },
  );
  assert.deepEqual(
    result.rows.map((r) => r.fromRecording),
    [undefined, 'caught', 'explained: complete_body: a recorder writes the answers that came whole', 'MISSED BY THE JUDGE'],
  );
  assert.deepEqual([result.judge, result.ok], [{ detected: 3, caught: 1, explained: 1, missed: 1 }, false]);
  assert.match(result.scoreLine, /; the judge of each run's HAR: 1\/3 caught at the drifted item, 1 explained by NOT_FROM_RECORDINGS, 1 missed$/);
  assert.match(renderTable(result), /missed\s+breaking\s+detected.*\n.*\n\s+↳ from the HAR: MISSED BY THE JUDGE/);
});

test("the audit's check and drift pairs: the drift's run failed that very check at its place, live or from its HAR", () => {
  const atMeta = { ...failure('getV2Conversations', '/meta'), check: 'response_schema_conformance' };
  const pair = (check: string, drift: string) => ({ check, drift, operation: 'getV2Conversations', at: '/meta' });
  const result = scoreMutations(green(), [{ drift: breaking('meta-missing'), run: { ...red(atMeta), fromRecording: [] } }], {}, [
    pair('response_schema_conformance', 'meta-missing'),
    pair('pagination_conformance.item_keys', 'meta-missing'),
    pair('response_schema_conformance', 'not-run-here'),
  ]);
  assert.deepEqual(result.audit, {
    pairs: 2,
    unproven: ['pagination_conformance.item_keys did not fail at getV2Conversations /meta in the run of meta-missing'],
  });
  assert.equal(result.ok, false);
  assert.match(renderTable(result), /AUDIT: pagination_conformance\.item_keys did not fail/);
  assert.match(result.scoreLine, /the audit's checks: 1\/2 fail at their place in their drift's run$/);
});
