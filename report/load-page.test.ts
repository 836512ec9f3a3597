// The load page rendered from reports of real k6 runs (fixtures/load-reports/: k6 v0.48.0 against the simulator with
// hidden limits, 40/s, PageCount 500, text 4096, variables 8192): one mark per rung and per value tried, the limits
// and their confidence as the JSON says, thresholds, target and time; everything the target said escaped; no secret;
// nothing fetched. The browser check (drift-ui/load-html.spec.ts) opens the same pages in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyseLadder, type LadderResult } from '../discovery/ladder-analysis.ts';
import type { LoadReport } from '../discovery/load-summary.ts';
import { mergeReports } from '../discovery/merge-reports.ts';
import type { SizeLimitFinding } from '../discovery/size-limits.ts';
import { REDACTED } from '../http/redact.ts';
import { loadPageHtml, renderLoadPage } from './load-page.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/load-reports/${name}.json`, import.meta.url), 'utf8')) as LoadReport;
const laddersOf = (r: LoadReport) => (r.findings as { ladders: LadderResult[] }).ladders;
const limitsOf = (r: LoadReport) => (r.findings as { limits: SizeLimitFinding[] }).limits;
/** The markup of one section of the page, from its opening tag to its end. */
const section = (html: string, opening: string) => {
  const at = html.indexOf(opening);
  assert.ok(at >= 0, `no ${opening}`);
  return html.slice(at, html.indexOf('</section>', at));
};
const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

test('the fixtures are what the analysis makes of their own counts today (a stale fixture would test nothing)', () => {
  for (const name of ['rate-limit', 'rate-limit.runner-1-of-2', 'rate-limit.runner-2-of-2']) {
    for (const l of laddersOf(fixture(name))) {
      const { rejection, ...again } = analyseLadder(l.stages, []);
      const { rejection: recorded, ...analysis } = l.analysis;
      assert.equal(rejection, null);
      assert.ok(recorded !== null);
      assert.deepEqual(again, analysis, `${name} ${l.operation}`);
    }
  }
});

test('a rate ladder: one mark per rung with its numbers, the limit with its confidence, target, time and thresholds', () => {
  const report = fixture('rate-limit');
  const html = renderLoadPage(report);
  assert.match(html, /<dd data-testid="target">127\.0\.0\.1:\d+<\/dd>/);
  assert.ok(html.includes(`<time datetime="${report.startedAt}">${report.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>`));
  assert.match(html, /data-testid="thresholds-verdict">all 4 passed</);
  assert.equal(count(html, /<tr class="threshold pass" data-testid="threshold">/g), 4);
  assert.match(html, /And 48 per-rung thresholds that judge nothing/);
  for (const l of laddersOf(report)) {
    const part = section(html, `<section class="ladder" data-operation="${l.operationId}">`);
    const marks = [...part.matchAll(/<g class="rung [^"]+" data-rung="([^"]+)" data-offered="([^"]+)" data-accepted="([^"]+)" data-refused="([^"]+)"/g)];
    assert.deepEqual(
      marks.map((m) => [m[1], Number(m[2]), Number(m[3])]),
      l.analysis.stages.map((s) => [s.name, s.targetRate, s.acceptedRate]),
    );
    const raw = new Map(l.stages.map((s) => [s.name, s]));
    for (const m of marks) assert.equal(Number(m[4]), Math.round((raw.get(m[1]!)!.rateLimited / raw.get(m[1]!)!.iterations) * 100) / 100);
    assert.match(part, new RegExp(`data-testid="limit" data-value="${l.analysis.estimatedLimit}"`));
    assert.match(part, new RegExp(`data-testid="limit-value">${l.analysis.estimatedLimit}<`));
    assert.match(part, /data-testid="confidence">high confidence, ±0\.6%<\/span>: 2 drained rungs pooled, 32\d accepted requests counted\./);
    assert.match(part, /Refused with 429, Retry-After 1 s, X-Ratelimit-Limit: 10/);
  }
});

test('a size search: one mark per value tried, in order, and the limit found', () => {
  const report = fixture('size-limits');
  const html = renderLoadPage(report);
  const expected = { 'limit.maxPageCount': 500, 'limit.maxTextLength.send': 4096, 'limit.maxTextLength.sendMessage': 4096, 'limit.maxVariablesBytes': 8192 };
  assert.deepEqual(Object.fromEntries(limitsOf(report).map((f) => [f.id, f.result?.limit])), expected);
  for (const f of limitsOf(report)) {
    const part = section(html, `<section class="search" data-id="${f.id}">`);
    assert.deepEqual(
      [...part.matchAll(/<circle class="probe (accepted|refused)" data-value="(\d+)"/g)].map((m) => ({ value: Number(m[2]), accepted: m[1] === 'accepted' })),
      f.result!.probes,
    );
    assert.match(part, new RegExp(`data-testid="size-limit" data-value="${f.result!.limit}"`));
    assert.match(
      part,
      new RegExp(`data-testid="size-limit-value">${f.result!.limit}</strong>; ${f.result!.firstRejected} refused with 400 application/problem\\+json`),
    );
  }
  assert.doesNotMatch(html, /<section id="ladders">|<g class="rung /);
  const skipped = renderLoadPage({
    ...report,
    findings: { limits: [{ id: 'limit.maxTextLength.sendMessage', operation: 'x', result: null, skipped: 'no vertexToken in the context', refusal: null }] },
  });
  assert.match(skipped, /Not searched: no vertexToken in the context\./);
});

test("a merged report: each runner's share of the test and of the requests, its own limit, the merged ladder", () => {
  const runners = [fixture('rate-limit.runner-1-of-2'), fixture('rate-limit.runner-2-of-2')];
  const merged = mergeReports(runners);
  const html = renderLoadPage(merged);
  assert.match(html, /data-testid="part">merged from 2 runners \(the whole test\)</);
  const rows = [...html.matchAll(/<tr class="runner" data-testid="runner" data-share="([^"]+)" data-requests="(\d+)"><td>([^<]+)<\/td>/g)];
  assert.deepEqual(
    rows.map((m) => [Number(m[1]), Number(m[2]), m[3]]),
    runners.map((r) => [0.5, r.requests.count, `runner ${r.segment.text === '0:1/2' ? 1 : 2}/2 (segment ${r.segment.text})`]),
  );
  for (const r of runners) assert.ok(html.includes(`≈ ${laddersOf(r)[0]!.analysis.estimatedLimit}/s`));
  const ladder = laddersOf(merged)[0]!;
  assert.equal(count(html, /<g class="rung /g), ladder.stages.length);
  assert.match(html, new RegExp(`data-testid="limit-value">${ladder.analysis.estimatedLimit}<`));
  assert.match(html, /<p data-testid="disagreements">none<\/p>/);
  // A runner's own page names its part.
  assert.match(renderLoadPage(runners[1]!), /data-testid="part">runner 2\/2 \(segment 1\/2:1\)</);
});

test('everything the target said is escaped, and secrets are redacted in every form', () => {
  const report = fixture('rate-limit');
  const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp;';
  const secret = 'p&ss<"word>';
  const ladders = laddersOf(report).map((l) => ({
    ...l,
    operation: `${l.operation}${hostile}`,
    analysis: {
      ...l.analysis,
      rejection: { ...l.analysis.rejection!, body: `${hostile} ${secret}`, rateLimitHeaders: { 'X-Ratelimit-Policy': `${hostile}` } },
    },
  }));
  const html = loadPageHtml(
    {
      ...report,
      target: `evil.example${hostile}`,
      lines: [`${hostile} Basic cWEtY29udHJhY3Q6c2lt`],
      thresholds: [{ metric: `checks${hostile}`, expression: 'rate>0.99', ok: false }],
      findings: { ...(report.findings as object), ladders },
    },
    [secret],
  );
  assert.doesNotMatch(html, /<img|<script|onerror="/i);
  assert.ok(html.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;&amp;amp;'));
  assert.ok(!html.includes('cWEtY29udHJhY3Q6c2lt'));
  for (const form of [secret, 'p&amp;ss&lt;&quot;word&gt;', JSON.stringify(secret)]) assert.ok(!html.includes(form), form);
  assert.ok(html.includes(REDACTED));
  assert.match(html, /data-testid="thresholds-verdict">1 of 1 failed</);
  assert.match(html, /<tr class="threshold fail" data-testid="threshold">/);
});

test('the page is self-contained: a policy without script or network, nothing referenced but the SVG namespace', () => {
  for (const name of ['rate-limit', 'size-limits', 'rate-limit.runner-1-of-2']) {
    const html = renderLoadPage(fixture(name));
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/);
    assert.deepEqual([...new Set(html.match(/https?:\/\/[^"'\s<)]+/g))], ['http://www.w3.org/2000/svg'], name);
    assert.doesNotMatch(html, /<(script|link|img|iframe|object)\b|\s(src|href)=|url\(|@import|@font-face/i, name);
  }
});
