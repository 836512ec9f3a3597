import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstLine, renderTable, reportedDrift, scoreMutations, type DriftInfo, type DriftKind, type SuiteRun } from './mutation-score.ts';
import { buildDriftReport } from './drift-report.ts';
import type { FingerprintItem } from './fingerprint.ts';

const drift = (name: string, kind: DriftKind): DriftInfo => ({ name, kind, clause: '§x', description: name });
const green = (reported?: SuiteRun['reported']): SuiteRun => ({ failed: [], passed: 10, skipped: 0, seconds: 1, ...(reported ? { reported } : {}) });
const red: SuiteRun = { failed: ['[v2] lists › a'], passed: 9, skipped: 0, seconds: 1, firstMessage: 'GET /v2/conversations → 200: …' };
const nothing = { additive: [], observations: [] };

test('breaking drifts must fail the suite; additive and undocumented ones must stay green and be reported', () => {
  const result = scoreMutations(green(), [
    { drift: drift('meta-missing', 'breaking'), run: red },
    { drift: drift('record-extra-field', 'additive'), run: green({ additive: ['added additive.getV2Conversation.$.tags: []'], observations: [] }) },
    { drift: drift('operator-status-renamed', 'undocumented'), run: green({ additive: [], observations: ['changed status.operator: operator → waiting-operator'] }) },
  ]);
  assert.deepEqual(result.rows.map((r) => r.verdict), ['green', 'detected', 'reported', 'reported']);
  assert.equal(result.ok, true);
  assert.equal(result.scoreLine, 'mutation score: 1/1 breaking drifts detected, 2/2 additive and undocumented drifts reported in the drift report, 0 false positives');
  assert.match(renderTable(result), /operator-status-renamed\s+undocumented\s+reported\s*\n\s+↳ changed status\.operator: operator → waiting-operator/);
});

test('a green run whose drift report lists nothing of the right kind is not reported', () => {
  const result = scoreMutations(green(), [
    // An additive drift needs a new additive field: a changed observation alone does not count, and vice versa.
    { drift: drift('list-item-extra-field', 'additive'), run: green({ additive: [], observations: ['changed x: 1 → 2'] }) },
    { drift: drift('default-page-count-20', 'undocumented'), run: green({ additive: ['added additive.x.$.y: integer'], observations: [] }) },
    { drift: drift('error-body-plain-text', 'undocumented'), run: green() },
  ]);
  assert.deepEqual(result.rows.slice(1).map((r) => r.verdict), ['NOT REPORTED', 'NOT REPORTED', 'NOT REPORTED']);
  assert.equal(result.ok, false);
  assert.match(result.scoreLine, /0\/3 additive and undocumented drifts reported/);
});

test('failures without a breaking drift are false positives; a broken run has no verdict', () => {
  const result = scoreMutations(red, [
    { drift: drift('pagination-extra-key', 'additive'), run: red },
    { drift: drift('v1-id-string', 'breaking'), run: { ...green(), error: 'no Playwright report' } },
    { drift: drift('page-count-ignored', 'breaking'), run: green(nothing) },
  ]);
  assert.deepEqual(result.rows.map((r) => r.verdict), ['FALSE POSITIVE', 'FALSE POSITIVE', 'RUN ERROR', 'MISSED']);
  assert.equal(result.falsePositives, 2);
  assert.equal(result.ok, false);
  assert.match(result.scoreLine, /2 false positives, 1 runs broken$/);
});

test('the drift report of a run against the conforming fingerprint splits into new additive fields and other changes', () => {
  const item = (id: string, observed: unknown): FingerprintItem => ({ id, section: '2', operation: 'op', item: 'i', observed });
  const conforming = { name: 'conforming', items: [item('status.operator', 'operator'), item('additive.a.$.old', 'integer'), item('links.v2', {})] };
  const report = buildDriftReport(
    [item('status.operator', 'waiting-operator'), item('additive.a.$.old', 'integer'), item('additive.a.$.new', 'boolean'), item('links.v2', {}), item('contract.x → 200 $', 'y')],
    () => ({ documented: 'd' }),
    conforming,
  );
  assert.deepEqual(reportedDrift(report), {
    additive: ['added additive.a.$.new: boolean'],
    observations: ['changed status.operator: operator → waiting-operator'],
  });
});

test('the conforming run must also match the committed baseline of the simulator', () => {
  const result = scoreMutations(green({ additive: [], observations: ['changed default.v2.PageCount: 40 → 50'] }), []);
  assert.equal(result.rows[0]?.verdict, 'BASELINE CHANGED');
  assert.equal(result.rows[0]?.reported, 'changed default.v2.PageCount: 40 → 50');
  assert.equal(result.ok, false);
});

test('firstLine drops colours and the Error prefix', () => {
  assert.equal(firstLine(`\n${String.fromCharCode(27)}[31mError: GET /x → 500: status${String.fromCharCode(27)}[39m\nmore`), 'GET /x → 500: status');
});
