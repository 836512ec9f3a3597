// drift.html as a person uses it: summary counts at the top, the table, the filters, an entry opened to its
// evidence. Rendered from a report with every severity, so each part of the page has something to show.
import { existsSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { buildDriftReport, SEVERITIES } from '../report/drift-report.ts';
import { renderHtml } from '../report/drift-render.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { buildHistory, renderHistoryHtml } from '../report/history.ts';
import { CHROMIUM } from './playwright.config.ts';

test.skip(!existsSync(CHROMIUM), `the drift.html check needs a Chromium: none at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const item = (id: string, operation: string, observed: unknown): FingerprintItem => ({ id, section: '3', operation, item: `item ${id}`, observed });
/** A contract failure: its check gave it its severity. */
const failed = (id: string, operation: string, observed: unknown): FingerprintItem => ({ ...item(id, operation, observed), severity: 'breaking' });
const baseline = {
  name: 'simulator',
  items: [
    item('status.operator', 'POST /v2/conversation/{uuid}/stop', 'operator'),
    item('default.v2.PageCount', 'GET /v2/conversations', 40),
    item('links.v2', 'GET /v2/conversations', {}),
  ],
};
const report = buildDriftReport(
  [
    failed('contract.GET /v2/conversations → 200 $[*].source', 'GET /v2/conversations', 'missing property'),
    failed('contract.POST /v2/conversation/{uuid}/stop → - status of the dialog afterwards', 'POST /v2/conversation/{uuid}/stop', '"in-process"'),
    item('status.operator', 'POST /v2/conversation/{uuid}/stop', 'waiting-operator'),
    item('default.v2.PageCount', 'GET /v2/conversations', 20),
    item('additive.getV2Conversations.$[*].bot_id', 'GET /v2/conversations', 'integer'),
    item('error.404', 'GET /v2/conversation/{uuid}', { status: 404 }),
    item('links.v2', 'GET /v2/conversations', {}),
  ],
  (id) => ({ documented: 'not shown', test: '[v2] lifecycle', evidence: `request: GET /api/v2/conversations (${id})\nresponse: 200 application/json {}` }),
  baseline,
  [
    {
      id: 'contract.POST /v2/conversation/{uuid}/stop → - status of the dialog afterwards',
      reason: 'stop keeps the status',
      ticket: 'https://tickets.example/VB-7',
      acknowledgedBy: 'qa',
      until: '2099-12-31',
    },
  ],
  '2026-11-23',
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

  await page.getByRole('combobox', { name: 'Severity' }).selectOption('acknowledged');
  await expect(rows.filter({ visible: true })).toHaveCount(1);
  const known = rows.filter({ visible: true });
  await known.locator('summary').click();
  await expect(known.locator('dl')).toContainText('https://tickets.example/VB-7 until 2099-12-31, by qa: stop keeps the status');
  await page.getByRole('combobox', { name: 'Severity' }).selectOption('');

  const operator = page.locator('tr.entry[data-id="status.operator"]');
  await operator.locator('summary').click();
  await expect(operator.locator('pre.evidence')).toBeVisible();
  await expect(operator.locator('pre.evidence')).toContainText('request: GET /api/v2/conversations (status.operator)');
  await expect(operator.locator('pre.ticket')).toContainText('Observed before (baseline simulator): operator');

  const screenshot = testInfo.outputPath('drift.html.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('drift.html.png', { path: screenshot, contentType: 'image/png' });
  expect(
    requests.filter((url) => !url.startsWith('file:')),
    'drift.html must not use the network',
  ).toEqual([]);
});

test('drift.html#ID opens that entry, as the job summary links it', async ({ page }, testInfo) => {
  const file = testInfo.outputPath('drift.html');
  writeFileSync(file, renderHtml(report));
  await page.goto(`${pathToFileURL(file).href}#${encodeURIComponent('default.v2.PageCount')}`);
  await expect(page.locator('tr.entry[data-id="default.v2.PageCount"] details')).toHaveAttribute('open', '');
  await expect(page.locator('tr.entry[data-id="links.v2"] details')).not.toHaveAttribute('open', '');
});

test('history.html shows each baseline, highlights where an item changed, and narrows to the changed ones', async ({ page }, testInfo) => {
  const run = (startedAt: string, vendorVersion: string) => ({
    runId: startedAt,
    startedAt,
    target: 'staging.example.com',
    suiteVersion: '0.1.0',
    vendorVersion,
  });
  const history = buildHistory([
    {
      name: 'vendor-4.2',
      run: run('2026-10-01T05:00:00Z', 'api-version: 4.2'),
      items: [item('status.operator', 'POST /v2/conversation/{uuid}/stop', 'operator'), item('links.v2', 'GET /v2/conversations', {})],
    },
    {
      name: 'vendor-4.3',
      run: run('2026-11-20T05:00:00Z', 'api-version: 4.3'),
      items: [item('status.operator', 'POST /v2/conversation/{uuid}/stop', 'waiting-operator'), item('links.v2', 'GET /v2/conversations', {})],
    },
  ]);
  const file = testInfo.outputPath('history.html');
  writeFileSync(file, renderHistoryHtml(history));
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  await expect(page.locator('thead th')).toHaveText(['Item', /vendor-4\.2.*api-version: 4\.2/, /vendor-4\.3.*api-version: 4\.3/]);
  await expect(page.getByTestId('changed-count')).toHaveText('1');
  const operator = page.locator('tr.item[data-id="status.operator"]');
  await expect(operator.locator('td.changed')).toHaveText('"waiting-operator"');
  await expect(page.locator('tr.item')).toHaveCount(2);
  await page.getByLabel('only items that changed').check();
  await expect(page.locator('tr.item').filter({ visible: true })).toHaveCount(1);
  await expect(page.locator('tr.item').filter({ visible: true })).toHaveAttribute('data-id', 'status.operator');
  const screenshot = testInfo.outputPath('history.html.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  await testInfo.attach('history.html.png', { path: screenshot, contentType: 'image/png' });
  expect(
    requests.filter((url) => !url.startsWith('file:')),
    'history.html must not use the network',
  ).toEqual([]);
});
