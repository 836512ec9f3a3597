import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDriftReport, changeLines, kindOf, mergeObservations, type RecordedObservation } from './drift-report.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';

const item = (id: string, observed: unknown): FingerprintItem => ({
  id,
  section: '3',
  operation: 'POST /v2/conversation/{uuid}/stop',
  item: 'exact status string of the operator state',
  observed,
});
/** A failure's item: its check gave it its severity. */
const failed = (id: string, observed: unknown, severity: FingerprintItem['severity'] = 'breaking'): FingerprintItem => ({ ...item(id, observed), severity });
const detail = (id: string) => ({
  documented: `documented ${id}`,
  test: '[v2] lifecycle',
  evidence: 'request: POST /api/v2/conversation/x/stop\nresponse: 204 (no content type) (empty body)',
});

test('a failure is of the severity its check gave it, whatever its id; an undeclared field is additive', () => {
  assert.equal(kindOf(failed('contract.response_schema_conformance getV2Conversations 200 /*/source', 'missing property')), 'breaking');
  assert.equal(kindOf(failed('x', '"waiting-operator"', 'learned')), 'learned');
  assert.equal(kindOf(item('additive.getV2Conversations.$[*].bot_id', 'integer')), 'additive');
  assert.equal(kindOf(item('status.operator', 'operator')), 'observation');
});

test('a learned-contract failure has its own severity, after breaking ones; gone, it is no change', () => {
  const learned = failed('learned.response_schema_conformance getV2Conversations 200 /*/status', 'waiting-operator', 'learned');
  const breaking = failed('contract.response_schema_conformance getV2Conversations 200 /meta', 'missing property');
  const report = buildDriftReport([learned, breaking], detail, { name: 'vendor-4.2', items: [learned] });
  assert.deepEqual(
    report.entries.map((e) => e.severity),
    ['breaking', 'learned'],
  );
  const fixed = buildDriftReport([], detail, { name: 'vendor-4.2', items: [learned] });
  assert.equal(fixed.changes, 0);
});

test('without a baseline every observation is new and nothing counts as a change', () => {
  const report = buildDriftReport([item('status.operator', 'operator'), item('additive.getV2Conversations.$[*].bot_id', 'integer')], detail);
  assert.deepEqual(report.counts, { breaking: 0, learned: 0, acknowledged: 0, changed: 0, additive: 1, new: 1, unreached: 0, unchanged: 0, fixed: 0 });
  assert.equal(report.changes, 0);
  assert.deepEqual(
    report.entries.map((e) => [e.severity, e.change]),
    [
      ['additive', null],
      ['new', null],
    ],
  );
});

test('against a baseline: changed, added, removed and unchanged items, breaking first', () => {
  const baseline = { name: 'simulator', items: [item('status.operator', 'operator'), item('default.v2.PageCount', 40), item('links.v2', {})] };
  const current = [
    item('status.operator', 'waiting-operator'),
    item('links.v2', {}),
    item('error.404', { contentType: 'text/plain' }),
    failed('contract.response_schema_conformance getV2Conversations 200 /*/source', 'missing property'),
  ];
  const report = buildDriftReport(current, detail, baseline);
  assert.deepEqual(
    report.entries.map((e) => [e.severity, e.change, e.id]),
    [
      ['breaking', 'added', 'contract.response_schema_conformance getV2Conversations 200 /*/source'],
      ['changed', 'removed', 'default.v2.PageCount'],
      ['changed', 'changed', 'status.operator'],
      ['new', 'added', 'error.404'],
      ['unchanged', 'unchanged', 'links.v2'],
    ],
  );
  assert.equal(report.changes, 4);
  assert.deepEqual(changeLines(report), [
    '  added    contract.response_schema_conformance getV2Conversations 200 /*/source: missing property',
    '  removed  default.v2.PageCount: 40 → not observed in this run',
    '  changed  status.operator: operator → waiting-operator',
    '  added    error.404: {"contentType":"text/plain"}',
  ]);
});

test('a ticket carries operation, section, documented, observed, the value before and the evidence', () => {
  const baseline = { name: 'simulator', items: [item('status.operator', 'operator')] };
  const [entry] = buildDriftReport([item('status.operator', 'waiting-operator')], detail, baseline).entries;
  assert.equal(
    entry!.ticket,
    [
      '[Dialog Bot Service] POST /v2/conversation/{uuid}/stop: exact status string of the operator state (undocumented behaviour changed since baseline)',
      '',
      'Specification: §3',
      'Documented: documented status.operator',
      'Observed: waiting-operator',
      'Observed before (baseline simulator): operator',
      'Found by: [v2] lifecycle',
      'Reference: status.operator',
      '',
      'request: POST /api/v2/conversation/x/stop',
      'response: 204 (no content type) (empty body)',
    ].join('\n'),
  );
});

test('observations of one id from several tests merge the same way whatever order the tests ran in', () => {
  const o = (test: string, observed: unknown, evidence?: string): RecordedObservation => ({
    id: 'additive.x.$.a',
    section: '2.1',
    item: 'undeclared field',
    observed,
    test,
    ...(evidence ? { evidence } : {}),
  });
  const one = mergeObservations([o('b', 'integer', 'eb'), o('a', 'null'), o('c', 'integer')]);
  const two = mergeObservations([o('c', 'integer'), o('a', 'null'), o('b', 'integer', 'eb')]);
  assert.deepEqual(one, two);
  assert.deepEqual(one.items[0]?.observed, { variants: ['integer', 'null'] });
  assert.deepEqual(one.details.get('additive.x.$.a'), { test: 'a', evidence: 'eb' });
  assert.equal(mergeObservations([o('a', 1), o('b', 1)]).items[0]?.observed, 1);
});

test('an acknowledged drift has its own severity until its entry expires; a fixed failure is no strict change', () => {
  const failure = failed('contract.effect_of_stop postV2ConversationStop 204 status of the dialog afterwards', '"in-process"');
  const ack = (id: string, until: string) => ({ id, reason: 'known', ticket: 'https://t.example/1', acknowledgedBy: 'qa', until });
  const fixed = failed('contract.response_schema_conformance getV1Conversations 200 /meta', 'missing property');
  const baseline = { name: 'staging', items: [item('status.operator', 'operator'), fixed] };
  const current = [failure, item('status.operator', 'waiting-operator')];
  const active = buildDriftReport(current, detail, baseline, [ack(failure.id, '2026-12-01'), ack('status.operator', '2026-12-01')], '2026-11-23');
  assert.deepEqual(
    active.entries.map((e) => [e.id, e.severity, e.change]),
    [
      [failure.id, 'acknowledged', 'added'],
      ['status.operator', 'acknowledged', 'changed'],
      ['contract.response_schema_conformance getV1Conversations 200 /meta', 'fixed', 'removed'],
    ],
  );
  assert.equal(active.counts.acknowledged, 2);
  assert.equal(active.counts.changed, 0, 'a fixed failure is not an undocumented change');
  assert.equal(active.changes, 0, 'acknowledged drifts and a fixed failure do not fail --strict');
  assert.deepEqual([active.expired, active.resolved], [[], []]);

  const expired = buildDriftReport(current, detail, baseline, [ack(failure.id, '2026-11-22')], '2026-11-23');
  assert.equal(expired.entries[0]!.severity, 'breaking');
  assert.equal(expired.entries[0]!.acknowledgement?.expired, true);
  assert.deepEqual(
    expired.expired.map((e) => e.id),
    [failure.id],
  );
  assert.match(expired.entries[0]!.ticket, /Acknowledged: https:\/\/t\.example\/1 until 2026-11-22 \(EXPIRED\)/);

  const resolved = buildDriftReport(
    [item('status.operator', 'operator')],
    detail,
    baseline,
    [ack(failure.id, '2026-12-01'), ack('status.operator', '2026-12-01')],
    '2026-11-23',
  );
  assert.deepEqual(
    resolved.resolved.map((e) => e.id),
    [failure.id, 'status.operator'],
    'a drift no longer seen (or back to the baseline) resolves its entry',
  );
});

test('one cause, one ticket: with tests failed, an observation the run did not reach is unreached, pointing at them, never a change', () => {
  const baseline = { name: 'simulator', items: [item('status.operator', 'operator'), failed('x', 'missing property')] };
  const report = buildDriftReport([], detail, baseline, [], '2026-11-23', (id) =>
    id === 'status.operator' ? { reached: false, why: 'its test failed before recording it ([api] lifecycle)' } : { reached: true },
  );
  const unreached = report.entries.find((e) => e.id === 'status.operator')!;
  assert.equal(unreached.severity, 'unreached');
  assert.equal(unreached.observed, 'not reached: its test failed before recording it ([api] lifecycle)');
  assert.equal(unreached.ticket.includes('unreached'), false, 'an unreached item is never called changed');
  assert.equal(report.entries.find((e) => e.id === 'x')!.severity, 'fixed', "a failure gone is still the vendor's fix");
  assert.equal(report.changes, 0);
  // With every test passed, a missing observation is a change.
  assert.equal(buildDriftReport([], detail, baseline, [], '2026-11-23').entries.find((e) => e.id === 'status.operator')!.severity, 'changed');
});
