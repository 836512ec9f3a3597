// drift.html as a person uses it: summary counts at the top, the table, the filters, an entry opened to its
// evidence. Rendered from a report with every severity, so each part of the page has something to show.
import { existsSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { buildDriftReport, SEVERITIES } from '../lib/drift-report.ts';
import { renderHtml } from '../lib/drift-render.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { CHROMIUM } from './playwright.config.ts';

test.skip(!existsSync(CHROMIUM), `Debian's Chromium is not installed at ${CHROMIUM} (apt-get install chromium): the drift.html check needs it`);

const item = (id: string, operation: string, observed: unknown): FingerprintItem => ({ id, section: '3', operation, item: `item ${id}`, observed });
const baseline = {
  name: 'simulator',
  items: [item('status.operator', 'POST /v2/conversation/{uuid}/stop', 'operator'), item('default.v2.PageCount', 'GET /v2/conversations', 40), item('links.v2', 'GET /v2/conversations', {})],
};
const report = buildDriftReport(
  [
    item('contract.GET /v2/conversations → 200 $[*].source', 'GET /v2/conversations', 'missing property'),
    item('status.operator', 'POST /v2/conversation/{uuid}/stop', 'waiting-operator'),
    item('default.v2.PageCount', 'GET /v2/conversations', 20),
    item('additive.getV2Conversations.$[*].bot_id', 'GET /v2/conversations', 'integer'),
    item('error.404', 'GET /v2/conversation/{uuid}', { status: 404 }),
    item('links.v2', 'GET /v2/conversations', {}),
  ],
  (id) => ({ documented: 'not shown', test: '[v2] lifecycle', evidence: `request: GET /api/v2/conversations (${id})\nresponse: 200 application/json {}` }),
  baseline,
);

test('drift.html shows the counts, the rows, filters them and opens an entry to its evidence', async ({ page }, testInfo) => {
  const file = testInfo.outputPath('drift.html');
  writeFileSync(file, renderHtml(report));
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);

  for (const severity of SEVERITIES) await expect(page.getByTestId(`count-${severity}`)).toHaveText(String(report.counts[severity]));
  const rows = page.locator('tr.entry');
  await expect(rows).toHaveCount(report.entries.length);
  await expect(page.locator('#shown')).toHaveText(`${report.entries.length} of ${report.entries.length} shown`);

  await page.getByRole('searchbox', { name: 'Filter' }).fill('PageCount');
  await expect(rows.filter({ visible: true })).toHaveCount(1);
  await expect(rows.filter({ visible: true })).toHaveAttribute('data-id', 'default.v2.PageCount');

  await page.getByRole('searchbox', { name: 'Filter' }).fill('');
  await page.getByRole('combobox', { name: 'Severity' }).selectOption('changed');
  await expect(rows.filter({ visible: true })).toHaveCount(report.counts.changed);
  await page.locator('.count.sev-breaking').click();
  await expect(rows.filter({ visible: true })).toHaveCount(report.counts.breaking);
  await page.locator('.count.sev-breaking').click();
  await expect(rows.filter({ visible: true })).toHaveCount(report.entries.length);

  const operator = page.locator('tr.entry[data-id="status.operator"]');
  await operator.locator('summary').click();
  await expect(operator.locator('pre.evidence')).toBeVisible();
  await expect(operator.locator('pre.evidence')).toContainText('request: GET /api/v2/conversations (status.operator)');
  await expect(operator.locator('pre.ticket')).toContainText('Observed before (baseline simulator): operator');

  const screenshot = testInfo.outputPath('drift.html.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('drift.html.png', { path: screenshot, contentType: 'image/png' });
  expect(requests.filter((url) => !url.startsWith('file:')), 'drift.html must not use the network').toEqual([]);
});
