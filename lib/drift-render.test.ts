import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDriftReport } from './drift-report.ts';
import { renderHtml, renderMarkdown } from './drift-render.ts';
import type { FingerprintItem } from './fingerprint.ts';

const item = (id: string, observed: unknown, operation = 'GET /v2/conversations'): FingerprintItem => ({ id, section: '4.1', operation, item: `item of ${id}`, observed });
const detail = () => ({ documented: 'not shown', evidence: 'request: GET /api/v2/conversations?x=<script>\nresponse: 200 application/json {}' });
const baseline = { name: 'simulator', items: [item('default.v2.PageCount', 40), item('links.v2', {})] };
const report = buildDriftReport(
  [item('default.v2.PageCount', 20), item('links.v2', {}), item('additive.getV2Conversations.$[*].bot_id', 'integer'), item('contract.GET /v2/conversations → 200 $[*].a|b', 'missing property')],
  detail,
  baseline,
);

test('markdown: the baseline line, counts, one section per severity, unchanged items as a table', () => {
  const md = renderMarkdown(report);
  assert.match(md, /^# Drift report\n\nCompared with baseline simulator: 3 changes\.\n/);
  assert.match(md, /\| breaking \| changed \| additive \| new \| unchanged \|\n\|---:\|---:\|---:\|---:\|---:\|\n\| 1 \| 1 \| 1 \| 0 \| 1 \|/);
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
