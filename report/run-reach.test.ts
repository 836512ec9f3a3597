import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeObservers, observerKey, observersOf, reachOf, RUN_END_OBSERVER, SETUP_OBSERVER, type RunReachInput } from './run-reach.ts';

const LIFECYCLE = 'v2/lifecycle.spec.ts › walks a dialog';
const STOP = 'v2/state-table.spec.ts › stop on a dialog created';
const run = (over: Partial<RunReachInput> = {}): RunReachInput => ({
  scope: { partial: [], ended: 'complete' },
  outcomes: new Map(),
  exercised: new Set(),
  judged: new Set(),
  ...over,
});

test('an item whose test this run did not select is unreached, saying how the run was narrowed; one it ran to the end is reached', () => {
  const narrowed = run({ scope: { partial: ['narrowed by -g'], ended: 'complete' }, outcomes: new Map([[STOP, 'passed']]) });
  assert.deepEqual(reachOf('send.moves-updated', [LIFECYCLE], narrowed), {
    reached: false,
    why: `this run did not select its test (${LIFECYCLE}): narrowed by -g`,
  });
  assert.deepEqual(reachOf('transition.stop.from-created', [STOP], narrowed), { reached: true });
});

test('an item whose test failed or could not judge before recording it is unreached; skipped, or cancelled before it ran, too', () => {
  assert.match((reachOf('x', [LIFECYCLE], run({ outcomes: new Map([[LIFECYCLE, 'failed']]) })) as { why: string }).why, /^its test failed before recording it/);
  assert.match((reachOf('x', [LIFECYCLE], run({ outcomes: new Map([[LIFECYCLE, 'not judged']]) })) as { why: string }).why, /could not judge/);
  assert.match((reachOf('x', [LIFECYCLE], run({ outcomes: new Map([[LIFECYCLE, 'skipped']]) })) as { why: string }).why, /was skipped/);
  assert.match((reachOf('x', [LIFECYCLE], run({ scope: { partial: [], ended: 'cancelled' } })) as { why: string }).why, /cancelled before its test ran/);
});

test("the run's setup observes in every run; its end only in a whole one", () => {
  const partial = run({ scope: { partial: ['narrowed by --project'], ended: 'complete' } });
  assert.equal(reachOf('body.send.accepted', [SETUP_OBSERVER], partial).reached, true);
  assert.equal(reachOf('lists.lag', [RUN_END_OBSERVER], partial).reached, false);
  assert.equal(reachOf('lists.lag', [RUN_END_OBSERVER], run()).reached, true);
});

test('a contract failure no test is known for is reached when the run judged its check at its operation, whatever the status', () => {
  const id = 'contract.status_code_conformance getV1Conversation 200 status';
  assert.equal(reachOf(id, undefined, run({ judged: new Set(['status_code_conformance']), exercised: new Set(['getV1Conversation']) })).reached, true);
  assert.equal(reachOf(id, undefined, run({ judged: new Set(['status_code_conformance']) })).reached, false);
  assert.equal(
    reachOf(
      'contract.pagination_conformance getV2Conversations 200 /meta/pagination/total',
      undefined,
      run({ judged: new Set(['pagination_conformance.total']), exercised: new Set(['getV2Conversations']) }),
    ).reached,
    true,
    'a family counts by its checks',
  );
});

test('with no history, a whole run reaches everything but what failed tests kept it from; a partial one nothing', () => {
  assert.equal(reachOf('status.operator', undefined, run()).reached, true);
  assert.deepEqual(reachOf('status.operator', undefined, run({ failedBefore: '[api] x failed' })), { reached: false, why: '[api] x failed' });
  assert.equal(reachOf('status.operator', undefined, run({ scope: { partial: ['narrowed by -g'], ended: 'complete' } })).reached, false);
});

test('observers are named alike in every run: a test without its project or run, setup and run end by their names', () => {
  assert.equal(observerKey(`[api] ${LIFECYCLE}`), LIFECYCLE);
  assert.equal(observerKey(`[conforming] ${LIFECYCLE}`), LIFECYCLE);
  assert.equal(observerKey('[global setup] settles the send and command body shapes'), SETUP_OBSERVER);
  assert.equal(observerKey('[run end] every documented pair is exercised'), RUN_END_OBSERVER);
  const by = observersOf(
    [['status.operator', [`[api] ${STOP}`, `[api] ${LIFECYCLE}`, `[api] ${STOP}`]]],
    [{ id: 'contract.x op 200 /a', test: `[probes] ${LIFECYCLE}` }],
  );
  assert.deepEqual(by, { 'contract.x op 200 /a': [LIFECYCLE], 'status.operator': [STOP, LIFECYCLE].sort() });
  assert.deepEqual(mergeObservers(by, { 'status.operator': ['other › t'] })['status.operator'], [STOP, LIFECYCLE, 'other › t'].sort());
});

test('a contract failure whose check this run left out is not found holding, whatever its test did', () => {
  const id = 'contract.response_schema_conformance getV2Conversation 200 /source';
  const left = run({ scope: { partial: ['checks left out: response_schema_conformance'], ended: 'complete' }, outcomes: new Map([[LIFECYCLE, 'passed']]) });
  assert.match((reachOf(id, [LIFECYCLE], left) as { why: string }).why, /did not make response_schema_conformance/);
  assert.equal(reachOf(id, [LIFECYCLE], { ...left, judged: new Set(['response_schema_conformance']) }).reached, true);
});
