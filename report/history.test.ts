import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildHistory, renderHistoryHtml } from './history.ts';

const item = (id: string, observed: unknown) => ({ id, section: '3', operation: 'POST /v2/conversation/{uuid}/stop', item: `item ${id}`, observed });
const run = (startedAt: string, vendorVersion: string | null) => ({
  runId: startedAt,
  startedAt,
  target: 'staging.example.com',
  suiteVersion: '0.1.0',
  vendorVersion,
});

test('baselines in the order they were taken; each item with its value per baseline and where it changed', () => {
  const history = buildHistory([
    {
      name: 'vendor-4.3',
      run: run('2026-11-20T05:00:00Z', 'api-version: 4.3'),
      items: [item('status.operator', 'waiting-operator'), item('default.v2.PageCount', 40)],
    },
    { name: 'legacy', run: null, items: [item('status.operator', 'operator')] },
    {
      name: 'vendor-4.2',
      run: run('2026-10-01T05:00:00Z', 'api-version: 4.2'),
      items: [item('status.operator', 'operator'), item('default.v2.PageCount', 40)],
    },
  ]);
  assert.deepEqual(
    history.columns.map((c) => c.name),
    ['legacy', 'vendor-4.2', 'vendor-4.3'],
  );
  assert.deepEqual(
    history.rows.map((r) => [r.id, r.values, r.changedAt]),
    [
      ['default.v2.PageCount', [null, '40', '40'], [1]],
      ['status.operator', ['"operator"', '"operator"', '"waiting-operator"'], [2]],
    ],
  );
  const html = renderHistoryHtml(history);
  assert.match(html, /<th>vendor-4\.3<br><small>2026-11-20 · staging\.example\.com · api-version: 4\.3<\/small><\/th>/);
  assert.match(html, /<td class="changed">&quot;waiting-operator&quot;<\/td>/);
  assert.match(html, /data-testid="changed-count">2</);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
});
