import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { differingTargets, observedOverlay, shapeSchema, templateSchema } from './overlay.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';

const baseline = JSON.parse(readFileSync(new URL('../baselines/simulator.json', import.meta.url), 'utf8')) as {
  items: FingerprintItem[];
  run: { startedAt: string; target: string };
};
const run = { startedAt: '2026-11-23T00:00:00.000Z', target: 'staging.example:443' };
const item = (id: string, observed: unknown, section = '4.2'): FingerprintItem => ({ id, section, operation: '', item: id, observed });
const actionOn = (items: FingerprintItem[], target: string) => observedOverlay(items, run).actions.find((a) => a.target === target);

test('every action says which observations, which run, which target and which sections it comes from', () => {
  const overlay = observedOverlay(baseline.items, run);
  assert.equal(overlay.overlay, '1.0.0');
  assert.equal(overlay.extends, '../openapi/dialog-bot.openapi.yaml');
  assert.ok(overlay.actions.length >= 8, String(overlay.actions.length));
  for (const action of overlay.actions) {
    assert.ok(action['x-observed'].observations.length > 0, action.target);
    assert.deepEqual([action['x-observed'].runStartedAt, action['x-observed'].target], [run.startedAt, run.target]);
    assert.ok(
      action['x-observed'].sections.every((s) => /^\d/.test(s)),
      action.target,
    );
  }
});

test('a body template becomes a schema that requires its fields, types its placeholders and keeps its constants', () => {
  assert.deepEqual(templateSchema('{"message":{"text":"{{text}}"}}', 500), {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 500 } } } },
  });
  assert.deepEqual(templateSchema('{"command":"goto","params":{"bot_id":"{{botId}}"}}').properties, {
    command: { const: 'goto' },
    params: { type: 'object', required: ['bot_id'], properties: { bot_id: { type: 'string' } } },
  });
  assert.deepEqual(templateSchema('{"cmd":"goto","bot":{{botId}}}').properties, { cmd: { const: 'goto' }, bot: { type: 'integer' } });
});

test('a recorded shape becomes types only: nothing required, nothing closed', () => {
  assert.deepEqual(shapeSchema({ error: { code: 'integer', message: 'string' }, ids: ['string(uuid)'] }), {
    type: 'object',
    properties: {
      error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
      ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
    },
  });
  assert.deepEqual(shapeSchema('text'), { type: 'string' });
});

test('status values are examples and x-observed, never an enum that would close the open type', () => {
  const update = actionOn(
    [item('statuses.seen', { v1: ['completed', 'in-process'], v2: ['completed'] }), item('status.operator', 'with-operator', '3')],
    '$.components.schemas.DialogListItemBase.properties.status',
  )!.update;
  assert.deepEqual(update, { examples: ['completed', 'in-process', 'with-operator'], 'x-observed': { values: ['completed', 'in-process', 'with-operator'] } });
  assert.ok(!('enum' in update));
});

test('a limit is written as a maximum only when the target refuses above it: a clamp and an unreached limit are no maximum', () => {
  const limit = (refusal: string | null, outcome = 'found') =>
    item('limit.maxPageCount', { outcome, largestAccepted: 250, firstRejected: 251, refusal, ...(refusal === 'clamped' ? { clampedTo: 250 } : {}) }, '8.3');
  assert.deepEqual(actionOn([limit('refused')], '$.components.parameters.PageCount.schema')?.update, { maximum: 250 });
  assert.deepEqual(actionOn([limit('clamped')], '$.components.parameters.PageCount')?.update, { 'x-observed': { servedAtMost: 250 } });
  assert.equal(observedOverlay([limit(null, 'above-upper')], run).actions.length, 0);
  // The send text limit lands in the learned send body, on the field the template puts the text in.
  const send = actionOn(
    [
      item('body.send.accepted', '{"message":"{{text}}"}'),
      item('limit.maxTextLength.send', { outcome: 'found', largestAccepted: 2000, refusal: 'refused' }, '8.4'),
    ],
    '$.components.schemas.SendBody',
  )!;
  assert.deepEqual((send.update.properties as Record<string, unknown>).message, { type: 'string', maxLength: 2000 });
  assert.deepEqual(send['x-observed'].observations, ['body.send.accepted', 'limit.maxTextLength.send']);
});

test('what could not be observed is left alone: no rate limit met, no deprecation header, defaults that disagree', () => {
  const overlay = observedOverlay(
    [
      item('rate.limit', { limited: false }),
      item('versioning.deprecation-signals', { 'GET /v1/conversations': {} }),
      item('default.v1.PageCount', 40),
      item('default.v2.PageCount', 20),
    ],
    run,
  );
  assert.deepEqual(overlay.actions, []);
});

test('a throttling target gets its throttle status on every operation, with the headers it sent', () => {
  const action = actionOn(
    [item('rate.limit', { limited: true, statuses: [429], retryAfter: ['http-date'], headers: ['X-RateLimit-Remaining'] }, '8.2')],
    '$.paths.*.*.responses',
  )!;
  const response = (action.update as Record<string, { headers: Record<string, unknown> }>)['429']!;
  assert.deepEqual(Object.keys(response.headers), ['Retry-After', 'X-RateLimit-Remaining']);
});

test('two overlays differ exactly at the targets whose observations differ', () => {
  const other = baseline.items.map((i) =>
    i.id === 'status.operator' ? { ...i, observed: 'waiting-operator' } : i.id === 'body.send.accepted' ? { ...i, observed: '{"message":"{{text}}"}' } : i,
  );
  assert.deepEqual(differingTargets(observedOverlay(baseline.items, run), observedOverlay(other, run)), [
    '$.components.schemas.DialogListItemBase.properties.status',
    '$.components.schemas.SendBody',
  ]);
  assert.deepEqual(differingTargets(observedOverlay(baseline.items, run), observedOverlay(baseline.items, { ...run, startedAt: 'later' })), []);
});

test('a target two actions update differs when either update differs', () => {
  // The limit and the default both land on PageCount's schema; a different limit alone must show.
  const items = (max: number) => [
    item('limit.maxPageCount', { outcome: 'found', largestAccepted: max, firstRejected: max + 1, refusal: 'refused' }, '8.3'),
    item('default.v1.PageCount', 40),
    item('default.v2.PageCount', 40),
  ];
  assert.deepEqual(differingTargets(observedOverlay(items(100), run), observedOverlay(items(500), run)), ['$.components.parameters.PageCount.schema']);
  assert.deepEqual(differingTargets(observedOverlay(items(100), run), observedOverlay(items(100), run)), []);
});

test('the custom block call becomes a webhook from its structured places: body paths nest, query and headers are parameters', () => {
  const observed = {
    method: 'POST',
    contentType: 'application/json',
    fields: [
      { in: 'json', path: ['block', 'token'], type: 'string' },
      { in: 'json', path: ['dialog_ids', 0], type: 'integer' },
      { in: 'query', path: ['bot'], type: 'integer' },
      { in: 'header', path: ['x-block-id'], type: 'uuid' },
    ],
    tokenAt: { in: 'json', path: ['block', 'token'] },
  };
  const update = actionOn([item('callback.shape', observed, '6.1')], '$')!.update as { webhooks: { customBlockCall: { post: Record<string, unknown> } } };
  const call = update.webhooks.customBlockCall.post;
  assert.deepEqual((call.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema, {
    type: 'object',
    properties: { block: { type: 'object', properties: { token: { type: 'string' } } }, dialog_ids: { type: 'array', items: { type: 'integer' } } },
  });
  assert.deepEqual(call.parameters, [
    { name: 'bot', in: 'query', schema: { type: 'integer' } },
    { name: 'x-block-id', in: 'header', schema: { type: 'string', format: 'uuid' } },
  ]);
});
