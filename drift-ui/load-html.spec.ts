// The load page (<script>.html beside a k6 report) as a person sees it in Chromium, rendered by report/load-page.ts
// from reports of real k6 runs (fixtures/load-reports/: k6 v0.48.0 against the simulator with hidden limits): one
// visible mark per rung of the report's JSON inside its chart, the limit line where the drained rungs' marks are, the
// limits as the JSON says, each value a size search tried, each runner's share; nothing fetched, no script run, and
// what the target said shown as text, never as markup.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { isRungThreshold, type LadderResult } from '../discovery/ladder-analysis.ts';
import type { LoadReport } from '../discovery/load-summary.ts';
import { mergeReports } from '../discovery/merge-reports.ts';
import type { SizeLimitFinding } from '../discovery/size-limits.ts';
import { loadPageHtml } from '../report/load-page.ts';
import { CHROMIUM } from './playwright.config.ts';

test.skip(!existsSync(CHROMIUM), `the load page check needs a Chromium: none at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/load-reports/${name}.json`, import.meta.url), 'utf8')) as LoadReport;
const laddersOf = (r: LoadReport) => (r.findings as { ladders?: LadderResult[] }).ladders ?? [];
const limitsOf = (r: LoadReport) => (r.findings as { limits?: SizeLimitFinding[] }).limits ?? [];

/** Writes the page as handleSummary does, opens it, and returns what it tried to fetch and what it logged as errors. */
async function open(page: Page, testInfo: TestInfo, name: string, report: LoadReport) {
  const file = testInfo.outputPath(`${name}.html`);
  writeFileSync(file, loadPageHtml(report, []));
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  return {
    async done() {
      const screenshot = testInfo.outputPath(`${name}.html.png`);
      await page.screenshot({ path: screenshot, fullPage: true });
      await testInfo.attach(`${name}.html.png`, { path: screenshot, contentType: 'image/png' });
      expect(
        requests.filter((url) => !url.startsWith('file:')),
        `${name}.html must not use the network`,
      ).toEqual([]);
      expect(errors, 'no error in the console (a policy violation is one)').toEqual([]);
      expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    },
  };
}

/** The centre of an element on the page. */
async function centre(locator: ReturnType<Page['locator']>) {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Each ladder of a report as drawn: one visible mark per rung inside its chart, in order; the limit where the JSON has it. */
async function expectLadders(page: Page, report: LoadReport) {
  const ladders = laddersOf(report);
  await expect(page.locator('section.ladder')).toHaveCount(ladders.length);
  for (const l of ladders) {
    const section = page.locator(`section.ladder[data-operation="${l.operationId}"]`);
    const chart = section.locator('svg');
    const rungs = chart.locator('g.rung');
    await expect(rungs).toHaveCount(l.analysis.stages.length);
    const offered = await rungs.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-offered'))));
    expect(offered).toEqual(l.analysis.stages.map((s) => s.targetRate));
    const area = (await chart.boundingBox())!;
    for (let i = 0; i < l.analysis.stages.length; i++) {
      const mark = rungs.nth(i).locator('circle.accepted');
      await expect(mark).toBeVisible();
      const { x, y } = await centre(mark);
      expect(x > area.x && x < area.x + area.width && y > area.y && y < area.y + area.height, `rung ${i + 1} inside its chart`).toBe(true);
    }
    const limit = l.analysis.estimatedLimit!;
    await expect(section.getByTestId('limit-value')).toHaveText(String(limit));
    await expect(chart.getByTestId('limit')).toHaveAttribute('data-value', String(limit));
    await expect(section.getByTestId('confidence')).toHaveText(new RegExp(`^${l.analysis.confidence!.level} confidence`));
    // The rungs after the first refused one measure the limit: the line is drawn where their marks are.
    const drained = l.analysis.stages
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.verdict === 'rate-limited')
      .slice(1);
    expect(drained.length).toBeGreaterThan(0);
    const line = await centre(chart.locator('[data-testid="limit"] line'));
    for (const { i } of drained) expect(Math.abs((await centre(rungs.nth(i).locator('circle.accepted'))).y - line.y)).toBeLessThan(3);
  }
}

test('a rate-limit run: one visible mark per rung, the limit where the drained rungs are, thresholds, target and time', async ({ page }, testInfo) => {
  const report = fixture('rate-limit');
  const opened = await open(page, testInfo, 'rate-limit', report);
  await expect(page.getByTestId('target')).toHaveText(report.target);
  await expect(page.getByTestId('started').locator('time')).toHaveAttribute('datetime', report.startedAt);
  await expectLadders(page, report);
  const judged = report.thresholds.filter((t) => !isRungThreshold(t.metric, t.expression));
  await expect(page.getByTestId('threshold')).toHaveCount(judged.length);
  for (const t of judged) await expect(page.getByTestId('threshold').filter({ hasText: t.expression }).locator('td').last()).toHaveText('pass');
  await expect(page.getByTestId('thresholds-verdict')).toHaveText(`all ${judged.length} passed`);
  // The rung table opens to the same numbers.
  const first = laddersOf(report)[0]!;
  const section = page.locator(`section.ladder[data-operation="${first.operationId}"]`);
  await section.locator('summary', { hasText: 'Rungs' }).click();
  await expect(section.locator('details tbody tr')).toHaveCount(first.stages.length);
  await opened.done();
});

test('a size-limits run: each value tried as a mark, the limit as the JSON says', async ({ page }, testInfo) => {
  const report = fixture('size-limits');
  const opened = await open(page, testInfo, 'size-limits', report);
  const limits = limitsOf(report);
  await expect(page.locator('section.search')).toHaveCount(limits.length);
  for (const f of limits) {
    const section = page.locator(`section.search[data-id="${f.id}"]`);
    const probes = section.locator('svg circle.probe');
    await expect(probes).toHaveCount(f.result!.probes.length);
    const drawn = await probes.evaluateAll((cs) =>
      cs.map((c) => ({ value: Number(c.getAttribute('data-value')), accepted: c.getAttribute('data-answer') === 'accepted' })),
    );
    expect(drawn).toEqual(f.result!.probes);
    for (let i = 0; i < f.result!.probes.length; i++) await expect(probes.nth(i)).toBeVisible();
    await expect(section.getByTestId('size-limit-value')).toHaveText(String(f.result!.limit));
    await expect(section.getByTestId('size-limit')).toHaveAttribute('data-value', String(f.result!.limit));
  }
  await opened.done();
});

test("the merged report of a run split in two: each runner's share, the merged ladder drawn", async ({ page }, testInfo) => {
  const runners = [fixture('rate-limit.runner-1-of-2'), fixture('rate-limit.runner-2-of-2')];
  const merged = mergeReports(runners);
  const opened = await open(page, testInfo, 'rate-limit.merged', merged);
  await expect(page.getByTestId('part')).toHaveText('merged from 2 runners (the whole test)');
  const rows = page.getByTestId('runner');
  await expect(rows).toHaveCount(2);
  for (const [i, r] of runners.entries()) {
    await expect(rows.nth(i)).toHaveAttribute('data-share', '0.5');
    await expect(rows.nth(i)).toContainText(`${r.requests.count} (`);
    await expect(rows.nth(i)).toContainText(`≈ ${laddersOf(r)[0]!.analysis.estimatedLimit}/s`);
    await expect(rows.nth(i).locator('.bar:not(.sent) span')).toHaveAttribute('style', 'width:50%');
  }
  await expectLadders(page, merged);
  await opened.done();
});

test('what the target said is shown as text, never run or rendered as markup', async ({ page }, testInfo) => {
  const report = fixture('rate-limit');
  const hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
  const ladders = laddersOf(report).map((l) => ({ ...l, analysis: { ...l.analysis, rejection: { ...l.analysis.rejection!, body: hostile } } }));
  const opened = await open(page, testInfo, 'hostile', { ...report, target: `evil${hostile}`, findings: { ...(report.findings as object), ladders } });
  await expect(page.getByTestId('target')).toHaveText(`evil${hostile}`);
  await page.locator('summary', { hasText: "The refusal's body" }).first().click();
  await expect(page.locator('pre').first()).toHaveText(hostile);
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  await opened.done();
});
