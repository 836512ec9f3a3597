import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDriftReport } from './drift-report.ts';
import { renderHtml, renderMarkdown } from './drift-render.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';

const item = (id: string, observed: unknown, operation = 'GET /v2/conversations'): FingerprintItem => ({
  id,
  section: '4.1',
  operation,
  item: `item of ${id}`,
  observed,
});
/** A contract failure's item: its check made it breaking. */
const failed = (id: string, observed: unknown) => ({ ...item(id, observed), severity: 'breaking' as const });
const detail = () => ({ documented: 'not shown', evidence: 'request: GET /api/v2/conversations?x=<script>\nresponse: 200 application/json {}' });
const baseline = { name: 'simulator', items: [item('default.v2.PageCount', 40), item('links.v2', {})] };
const report = buildDriftReport(
  [
    item('default.v2.PageCount', 20),
    item('links.v2', {}),
    item('additive.getV2Conversations.$[*].bot_id', 'integer'),
    failed('contract.GET /v2/conversations → 200 $[*].a|b', 'missing property'),
  ],
  detail,
  baseline,
);

test('markdown: the baseline line, counts, one section per severity, unchanged items as a table', () => {
  const md = renderMarkdown(report);
  assert.match(md, /^# Drift report\n\nCompared with baseline simulator: 3 changes\.\n/);
  assert.match(
    md,
    /\| breaking \| learned \| acknowledged \| changed \| additive \| new \| unreached \| unchanged \| fixed \|\n\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|---:\|\n\| 1 \| 0 \| 0 \| 1 \| 1 \| 0 \| 0 \| 1 \| 0 \|/,
  );
  assert.ok(md.indexOf('## Breaking contract failures (1)') < md.indexOf('## Undocumented behaviour changed since the baseline (1)'));
  assert.match(md, /- Observed: 20\n- Before: 40/);
  assert.match(md, /\| `links\.v2` \| 4\.1 \| \{\} \|/);
  assert.doesNotMatch(md, /## New observations/);
});

test('markdown: a ticket holding backticks cannot close its fence', () => {
  const tricky = buildDriftReport([item('x', 'a ``` b')], detail);
  assert.match(renderMarkdown(tricky), /````text\n[\s\S]*a ``` b[\s\S]*\n````\n/);
});

test('html: self-contained, escaped, with counts, one row per entry and the evidence inside', () => {
  const html = renderHtml(report);
  assert.match(html, /default-src 'none'/);
  assert.doesNotMatch(html, /(src|href)=["']https?:/);
  assert.equal((html.match(/<tr class="entry /g) ?? []).length, 4);
  assert.match(html, /data-testid="count-breaking">1</);
  assert.match(html, /data-testid="count-unchanged">1</);
  assert.ok(html.includes('x=&lt;script&gt;'));
  assert.ok(!html.includes('x=<script>'));
});

test('html: an empty report says so', () => {
  assert.match(renderHtml(buildDriftReport([], detail)), /No entries/);
});

test('acknowledged drifts show their ticket; expired and resolved entries say what to do', () => {
  const entries = [
    {
      id: 'contract.GET /v2/conversations → 200 $[*].a|b',
      reason: 'vendor bug 1',
      ticket: 'https://tickets.example/VB-1',
      acknowledgedBy: 'qa',
      until: '2026-12-31',
    },
    { id: 'default.v2.PageCount', reason: 'new default', ticket: 'https://tickets.example/VB-2', acknowledgedBy: 'qa', until: '2026-01-01' },
    { id: 'gone.item', reason: 'fixed?', ticket: 'https://tickets.example/VB-3', acknowledgedBy: 'qa', until: '2026-12-31' },
  ];
  const acked = buildDriftReport(
    [item('default.v2.PageCount', 20), item('links.v2', {}), failed('contract.GET /v2/conversations → 200 $[*].a|b', 'missing property')],
    detail,
    baseline,
    entries,
    '2026-11-23',
  );
  const md = renderMarkdown(acked);
  assert.match(md, /## Acknowledged drifts \(known, with a vendor ticket\) \(1\)/);
  assert.match(md, /- Acknowledged: https:\/\/tickets\.example\/VB-1 until 2026-12-31, by qa: vendor bug 1/);
  assert.match(md, /acknowledged drift "default\.v2\.PageCount" expired on 2026-01-01 \(ticket https:\/\/tickets\.example\/VB-2\)/);
  assert.match(md, /acknowledged drift "gone\.item" was exercised by this run and found holding .*: resolved, remove its entry/);
  const html = renderHtml(acked);
  assert.match(html, /<span class="badge sev-acknowledged">acknowledged<\/span>/);
  assert.match(html, /<p class="acknowledgement">acknowledged drift &quot;default\.v2\.PageCount&quot; expired/);
});
