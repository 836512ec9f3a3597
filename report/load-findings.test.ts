import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshLoadFindings } from './load-findings.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const run = (target: string, startedAt: string) => ({ runId: 'k6', startedAt, target, suiteVersion: '0.1.0', vendorVersion: null });
const item = (id: string) => ({ id, section: '8.3', operation: 'GET /v2/conversations', item: id, observed: 1 });

test('only recent findings about the same target join, each marked with its date; the others say why not', () => {
  const found = freshLoadFindings(
    [
      { name: 'size-limits.fingerprint.json', content: { run: run('staging.example.com', '2026-11-23T09:00:00Z'), items: [item('limit.maxPageCount')] } },
      { name: 'rate-limit.fingerprint.json', content: { run: run('staging.example.com', '2026-11-20T09:00:00Z'), items: [item('rate.ladder')] } },
      { name: 'list.fingerprint.json', content: { run: run('127.0.0.1:4010', '2026-11-23T11:00:00Z'), items: [item('x')] } },
      { name: 'old.fingerprint.json', content: { run: null, items: [item('y')] } },
    ],
    'staging.example.com',
    24,
    NOW,
  );
  assert.deepEqual(
    found.items.map((i) => i.id),
    ['limit.maxPageCount'],
  );
  assert.equal(found.origin.get('limit.maxPageCount'), 'from the k6 run of 2026-11-23T09:00:00Z (reports/load/size-limits.fingerprint.json)');
  assert.deepEqual(found.skipped, [
    'list.fingerprint.json: about 127.0.0.1:4010, not staging.example.com',
    'old.fingerprint.json: no run block (target and date unknown)',
    'rate-limit.fingerprint.json: from 2026-11-20T09:00:00Z, older than LOAD_FINDINGS_MAX_AGE_H=24',
  ]);
});
