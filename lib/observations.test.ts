import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObservedItems, type ObservationPayloads } from './observations.ts';
import type { FingerprintItem } from './fingerprint.ts';

const item = (id: string, observed: unknown): FingerprintItem => ({ id, section: '8.3', operation: 'GET /v2/conversations', item: id, observed });

test('a fingerprint reads back as each id declares it: no cast at the reader, an item seen differently reads as unknown', () => {
  const items = new ObservedItems([
    item('limit.maxPageCount', { outcome: 'found', largestAccepted: 250, firstRejected: 251, refusal: 'clamped', clampedTo: 250 }),
    item('status.operator', { variants: ['operator', 'waiting-operator'] }),
    item('additive.getV2Conversations.$[*].tags', { variants: [['string'], []] }),
  ]);
  const limit = items.get('limit.maxPageCount');
  assert.deepEqual([limit?.refusal, limit?.clampedTo], ['clamped', 250]);
  assert.equal(items.get('status.operator'), undefined, 'two tests saw two values: no one value to learn');
  assert.ok(items.has('status.operator'));
  assert.deepEqual(items.get('additive.getV2Conversations.$[*].tags'), { variants: [['string'], []] });
  assert.equal(items.section('limit.maxPageCount'), '8.3');
});

test('an id takes only its declared payload (checked by npm run typecheck)', () => {
  const operator: ObservationPayloads['status.operator'] = 'operator';
  // @ts-expect-error: the operator state is a status string, not a number
  const wrong: ObservationPayloads['status.operator'] = 404;
  // @ts-expect-error: no observation has this id
  const unknown: ObservationPayloads['status.operater'] = 'operator';
  assert.deepEqual([operator, wrong, unknown], ['operator', 404, 'operator']);
});
