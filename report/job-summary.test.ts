import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDriftReport } from './drift-report.ts';
import { jobSummary } from './job-summary.ts';

const item = (id: string, observed: unknown) => ({ id, section: '4.1', operation: 'GET /v2/conversations', item: id, observed });
/** A contract failure's item: its check made it breaking. */
const failed = (id: string, observed: unknown) => ({ ...item(id, observed), severity: 'breaking' as const });
const run = { runId: 'r', startedAt: '2026-11-23T05:00:00.000Z', target: 'staging.example.com', suiteVersion: '0.1.0', vendorVersion: 'api-version: 4.3' };

test('counts by severity and the first twenty breaking, changed and acknowledged items, each linked', () => {
  const failures = Array.from({ length: 23 }, (_, i) => failed(`contract.GET /v2/conversations → 200 /f${String(i).padStart(2, '0')}`, 'missing property'));
  const report = buildDriftReport(
    [...failures, item('default.v2.PageCount', 20), item('links.v2', {})],
    () => ({ documented: 'x' }),
    { name: 'staging', items: [item('default.v2.PageCount', 40), item('links.v2', {})] },
    [{ id: failures[0]!.id, reason: 'known', ticket: 'https://t.example/1', acknowledgedBy: 'qa', until: '2099-01-01' }],
    '2026-11-23',
  );
  const md = jobSummary(report, run, (e) => `https://ci.example/artifact#${encodeURIComponent(e.id)}`);
  assert.match(md, /^## Contract drift — staging\.example\.com \(api-version: 4\.3\), run 2026-11-23T05:00:00\.000Z\n/);
  assert.match(md, /\| 22 \| 0 \| 1 \| 1 \| 0 \| 0 \| 0 \| 1 \|/);
  assert.match(md, /### breaking \(22\)\n\n(- \[.*\n){20}- … and 2 more in the report/);
  assert.match(md, /### changed \(1\)\n\n- \[default\.v2\.PageCount\]\(https:\/\/ci\.example\/artifact#default\.v2\.PageCount\) — GET \/v2\/conversations: 20/);
  assert.match(md, /### acknowledged \(1\)/);
});
