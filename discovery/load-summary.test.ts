import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseLadder, ladderFinding, ladderStagesFromSummary, ladderThresholds, LADDER_METRICS } from './ladder-analysis.ts';
import { ladder } from './load-shapes.ts';
import { segmentOf, WHOLE } from './execution-segment.ts';
import { REDACTED } from '../http/redact.ts';
import { freshLoadFindings } from '../report/load-findings.ts';
import { buildReport, evidenceCheckName, evidenceOf, REPORT_LINE, reportText, summaryFiles, type SummaryData } from './load-summary.ts';

/** When handleSummary ran, in the tests. */
const ENDED = Date.parse('2026-11-24T10:00:00Z');

const sample429 = { status: 429, headers: { 'Retry-After': '1', 'X-RateLimit-Limit': '10' }, body: '{"title":"Too Many Requests"}' };

/** Summary data shaped like k6's handleSummary argument (checks as an array in a nested group). */
function summaryData(): SummaryData {
  return {
    state: { testRunDurationMs: 12_345 },
    metrics: {
      http_reqs: { type: 'counter', values: { count: 120, rate: 9.72 } },
      http_req_failed: { type: 'rate', values: { rate: 0.05 }, thresholds: { 'rate<0.02': { ok: false } } },
      http_req_duration: { type: 'trend', values: { 'p(95)': 3.21 } },
      'http_req_duration{operation:getV2Conversations}': {
        type: 'trend',
        values: { count: 60, 'p(95)': 2.5, 'p(99)': 4 },
        thresholds: { 'p(95)<1500': { ok: true } },
      },
      checks: { type: 'rate', values: { rate: 0.99 }, thresholds: { 'rate>0.99': { ok: true } } },
    },
    root_group: {
      name: '',
      checks: [{ name: 'status is 200', passes: 99, fails: 1 }],
      groups: [{ name: 'g', checks: [{ name: evidenceCheckName('rejection', sample429), passes: 1, fails: 0 }], groups: [] }],
    },
  };
}

test('reads evidence back from check names, in nested groups too, and keeps it out of the checks', () => {
  const data = summaryData();
  assert.deepEqual(evidenceOf(data, 'rejection'), [sample429]);
  assert.deepEqual(evidenceOf(data, 'size-limit'), []);
  const report = buildReport('list', 'http://127.0.0.1:4010', WHOLE, ENDED, data, { findings: null, lines: [], fingerprint: [] });
  assert.deepEqual(report.checks, [{ name: 'status is 200', passes: 99, fails: 1 }]);
  assert.equal(report.startedAt, '2026-11-24T09:59:47.655Z', 'its end less its 12.345 s');
});

test('the text summary names failed thresholds and checks, requests and each operation', () => {
  const report = buildReport('list', 'http://127.0.0.1:4010', WHOLE, ENDED, summaryData(), {
    findings: {},
    lines: ['limit.maxPageCount: 500'],
    fingerprint: [],
  });
  assert.equal(
    reportText(report),
    [
      'k6 load: list against http://127.0.0.1:4010, 12.35 s',
      'thresholds: 2 passed, 1 failed',
      '  FAILED http_req_failed rate<0.02',
      'checks: 99.00% of 100 passed',
      '  FAILED status is 200: 1 of 100',
      'requests: 120 (9.72/s), failed 5.00%, p95 3.21 ms',
      '  getV2Conversations: 60 requests, p95 2.5 ms, p99 4 ms',
      'findings:',
      '  limit.maxPageCount: 500',
      '',
    ].join('\n'),
  );
});

test('writes report, text and fingerprint files, with secrets redacted', () => {
  const item = { id: 'limit.maxPageCount', section: '8.3', operation: 'GET /v2/conversations', item: 'x', observed: 500 };
  // A secret with a quote and a backslash is written escaped in JSON: redacted before, not searched for after.
  const quoted = 'pa"ss\\word';
  const report = buildReport('size-limits', 'http://127.0.0.1:4010', WHOLE, ENDED, summaryData(), {
    findings: { token: 'tok-secret-123', body: `refused: ${quoted}` },
    lines: [],
    fingerprint: [item],
  });
  const files = summaryFiles(report, ['tok-secret-123', quoted], 'reports/load', '0.1.0');
  assert.ok(!Object.values(files).some((text) => text.includes(JSON.stringify(quoted).slice(1, -1)) || text.includes(quoted)));
  assert.deepEqual(Object.keys(files).sort(), [
    'reports/load/size-limits.fingerprint.json',
    'reports/load/size-limits.json',
    'reports/load/size-limits.txt',
    'stdout',
  ]);
  assert.ok(!files['reports/load/size-limits.json']!.includes('tok-secret-123'));
  // The run the findings come from, written by the bundle itself: k6 run alone leaves it too.
  const started = '2026-11-24T09:59:47.655Z';
  assert.deepEqual(JSON.parse(files['reports/load/size-limits.fingerprint.json']!), {
    items: [item],
    run: {
      runId: `k6 size-limits ${started}`,
      startedAt: started,
      target: 'http://127.0.0.1:4010',
      suiteVersion: '0.1.0',
      vendorVersion: null,
      load: { script: 'size-limits', segment: '0:1' },
    },
  });
  assert.equal(
    Object.keys(
      summaryFiles(buildReport('list', 't', WHOLE, ENDED, summaryData(), { findings: null, lines: [], fingerprint: [] }), [], 'reports/load', '0.1.0'),
    ).length,
    3,
  );
});

test('a ladder round trip: thresholds expose each rung, the summary gives the stages back, the finding names the limit', () => {
  const plan = ladder('getV2Conversations', 'listRung', [10, 20, 40], 10);
  const thresholds = ladderThresholds(plan.steps);
  assert.deepEqual(thresholds['http_req_duration{scenario:getV2Conversations_r20}'], ['p(95)>=0']);
  assert.equal(Object.keys(thresholds).length, 3 * 6);

  const data: SummaryData = { metrics: {}, root_group: { checks: [] } };
  const counts: Record<number, [number, number, number]> = { 10: [100, 100, 0], 20: [200, 200, 0], 40: [400, 300, 100] };
  for (const step of plan.steps) {
    const [iterations, ok, limited] = counts[step.targetRate]!;
    data.metrics[`iterations{scenario:${step.scenario}}`] = { values: { count: iterations } };
    data.metrics[`${LADDER_METRICS.ok}{scenario:${step.scenario}}`] = { values: { count: ok } };
    data.metrics[`${LADDER_METRICS.rateLimited}{scenario:${step.scenario}}`] = { values: { count: limited } };
    data.metrics[`http_req_duration{scenario:${step.scenario}}`] = { values: { 'p(95)': 3 } };
  }
  const stages = ladderStagesFromSummary(data, plan.steps, 1);
  assert.deepEqual(stages[2], {
    name: 'getV2Conversations_r40',
    targetRate: 40,
    durationSeconds: 10,
    iterations: 400,
    droppedIterations: 0,
    ok: 300,
    rateLimited: 100,
    failed: 0,
    p95Ms: 3,
    share: 1,
  });

  const { line, item } = ladderFinding('getV2Conversations', 'GET /v2/conversations', analyseLadder(stages, [sample429]));
  assert.equal(
    line,
    'GET /v2/conversations: sustained 20/s, rate limit ≈ 30/s (low confidence), refused with 429, Retry-After 1 s, X-RateLimit-Limit: 10; first rung not sustained: 40/s (rate-limited)',
  );
  assert.deepEqual(item, {
    id: 'rate.limit.getV2Conversations',
    section: '8.2',
    operation: 'GET /v2/conversations',
    item: 'rate limit per credential (requests per second) and how it is refused',
    observed: { estimatedPerSecond: 30, sustainedRung: 20, refusalStatus: 429, retryAfter: 'seconds', rateLimitHeaders: ['x-ratelimit-limit'] },
  });
});

test('stdout carries the text and the whole report as one JSON line, secrets redacted, the runner named', () => {
  const segment = segmentOf({ executionSegment: '1/4:1/2' });
  const report = buildReport('size-limits', '127.0.0.1:4010', segment, ENDED, summaryData(), {
    findings: { token: 'tok-secret-123' },
    lines: [],
    fingerprint: [],
  });
  const stdout = summaryFiles(report, ['tok-secret-123'], '.', '0.1.0').stdout!;
  assert.match(stdout, /^k6 load: size-limits against 127\.0\.0\.1:4010, runner 2\/4 \(segment 1\/4:1\/2\), 12\.35 s\n/);
  const lines = stdout.trimEnd().split('\n');
  const last = lines[lines.length - 1]!;
  assert.ok(last.startsWith(REPORT_LINE));
  const parsed = JSON.parse(last.slice(REPORT_LINE.length));
  assert.deepEqual(parsed.segment, segment);
  assert.equal(parsed.findings.token, REDACTED);
  assert.ok(!stdout.includes('tok-secret-123'));
});

test("a runner's findings, as k6 alone writes them under an execution segment, are taken in by the next contract run", () => {
  const item = { id: 'rate.limit', section: '8.2', operation: 'GET /v2/conversations', item: 'x', observed: { estimatedPerSecond: 40 } };
  const segment = segmentOf({ executionSegment: '0:1/2' });
  const report = buildReport('rate-limit', '127.0.0.1:4010', segment, ENDED, summaryData(), { findings: null, lines: [], fingerprint: [item] });
  const name = 'rate-limit.runner-1-of-2.fingerprint.json';
  const content = JSON.parse(summaryFiles(report, [], 'reports/load', '0.1.0')[`reports/load/${name}`]!);
  assert.equal(content.run.runId, 'k6 rate-limit 2026-11-24T09:59:47.655Z, runner 1/2 (segment 0:1/2)');
  assert.deepEqual(content.run.load, { script: 'rate-limit', segment: '0:1/2' });
  const taken = freshLoadFindings([{ name, content }], '127.0.0.1:4010', 24, ENDED + 60_000);
  assert.deepEqual([taken.items, taken.skipped], [[item], []]);
  assert.equal(taken.origin.get('rate.limit'), `from the k6 run of 2026-11-24T09:59:47.655Z (reports/load/${name})`);
});
