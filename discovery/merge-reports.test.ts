import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseLadder, type LadderResult, type LadderStage } from './ladder-analysis.ts';
import { operatorSegmentArgs, segmentOf } from './execution-segment.ts';
import type { LoadReport } from './load-summary.ts';
import { disagreesBy, mergedText, mergeReports, MergeError } from './merge-reports.ts';

const segment = (index: number, runners: number) => segmentOf({ executionSegment: operatorSegmentArgs(index, runners)[0]!.split('=')[1] });

/** A runner of `runners` that got `acceptedShare` of a 40/s bucket's tokens on rungs 20, 30, 45, 68 of 5 s. */
function ladderRunner(index: number, runners: number, acceptedShare: number): LoadReport {
  const share = 1 / runners;
  const accepted = (rate: number) => Math.round(Math.min(rate * share, 40 * acceptedShare) * 5);
  const stages: LadderStage[] = [20, 30, 45, 68].map((rate) => ({
    name: `getV2Conversations_r${rate}`,
    targetRate: rate,
    durationSeconds: 5,
    iterations: rate * 5 * share,
    droppedIterations: 0,
    ok: accepted(rate),
    rateLimited: rate * 5 * share - accepted(rate),
    failed: 0,
    p95Ms: 2 + index,
    share,
  }));
  const sample = { status: 429, headers: { 'Retry-After': '1' }, body: '' };
  const result: LadderResult = { operationId: 'getV2Conversations', operation: 'GET /v2/conversations', stages, analysis: analyseLadder(stages, [sample]) };
  return report(
    'rate-limit',
    segment(index, runners),
    { sendBody: null, ladders: [result] },
    [`GET /v2/conversations: runner ${index}'s own line`],
    [
      {
        id: 'rate.limit.getV2Conversations',
        section: '8.2',
        operation: 'GET /v2/conversations',
        item: 'x',
        observed: { estimatedPerSecond: result.analysis.estimatedLimit },
      },
    ],
  );
}

function report(script: string, seg: LoadReport['segment'], findings: unknown, lines: string[], fingerprint: LoadReport['fingerprint'] = []): LoadReport {
  return {
    script,
    target: '127.0.0.1:4300',
    segment: seg,
    startedAt: `2026-11-24T10:00:0${Math.round(seg.from * 4)}.000Z`,
    durationSeconds: 30,
    thresholds: [{ metric: 'checks', expression: 'rate>0.99', ok: true }],
    checks: [{ name: 'answers 2xx or 429', passes: 100, fails: 0 }],
    requests: { count: 100, perSecond: 3.3, failedRatio: 0.01, p95Ms: 2 + seg.from * 10 },
    operations: [{ operation: 'getV2Conversations', count: 100, p95Ms: 2 + seg.from * 10, p99Ms: 3 }],
    findings,
    lines,
    fingerprint,
  };
}

test('the ladders of two runners add up to the whole test: counts, rates, and one finding', () => {
  const merged = mergeReports([ladderRunner(2, 2, 0.5), ladderRunner(1, 2, 0.5)]);
  assert.equal(merged.segment.text, '0:1');
  assert.equal(merged.startedAt, '2026-11-24T10:00:00.000Z', "the earliest runner's start");
  assert.deepEqual(merged.requests, { count: 200, perSecond: 6.6, failedRatio: 0.01, p95Ms: 7 });
  assert.deepEqual(merged.checks, [{ name: 'answers 2xx or 429', passes: 200, fails: 0 }]);
  const ladder = (merged.findings as { ladders: LadderResult[] }).ladders[0]!;
  assert.equal(ladder.stages[3]!.share, 1);
  assert.equal(ladder.analysis.estimatedLimit, 40);
  assert.equal(ladder.analysis.sustainedRate, 30);
  assert.equal(ladder.analysis.rejection?.status, 429);
  assert.deepEqual(
    merged.fingerprint.map((i) => [i.id, i.observed]),
    [['rate.limit.getV2Conversations', { estimatedPerSecond: 40, sustainedRung: 30, refusalStatus: 429, retryAfter: 'seconds', rateLimitHeaders: [] }]],
  );
  assert.deepEqual(merged.disagreements, []);
  assert.deepEqual(
    merged.runners.map((r) => [r.runner, r.segment.share, r.requests, r.limits]),
    [
      ['runner 1/2 (segment 0:1/2)', 0.5, 100, [{ operation: 'GET /v2/conversations', estimatedLimit: 40 }]],
      ['runner 2/2 (segment 1/2:1)', 0.5, 100, [{ operation: 'GET /v2/conversations', estimatedLimit: 40 }]],
    ],
  );
  assert.match(merged.lines[1]!, /^GET \/v2\/conversations: sustained 30\/s, rate limit ≈ 40\/s/);
  assert.ok(!merged.lines.some((line) => line.includes('own line')));
});

test('a runner whose share of the tokens strays beyond its counting names itself as a disagreement; the merged finding stays right', () => {
  const merged = mergeReports([1, 2, 3, 4].map((i) => ladderRunner(i, 4, i === 3 ? 0.4 : 0.2)));
  assert.equal((merged.findings as { ladders: LadderResult[] }).ladders[0]!.analysis.estimatedLimit, 40);
  assert.deepEqual(merged.disagreements, ['GET /v2/conversations: runner 3/4 (segment 2/4:3/4) found ≈ 64/s, 60% off the merged ≈ 40/s']);
  assert.match(mergedText(merged), /disagreements:\n {2}GET \/v2\/conversations: runner 3\/4/);
});

test('a runner that strays no further than its own margin allows is no disagreement: chance, not a finding', () => {
  // 24% off on 62 counted tokens: its margin says ±22.4%, and past 1.5 margins (34%) is where chance ends.
  const runners = [1, 2, 3, 4].map((i) => ladderRunner(i, 4, i === 3 ? 0.31 : 0.23));
  const own = (runners[2]!.findings as { ladders: LadderResult[] }).ladders[0]!.analysis;
  assert.equal(own.estimatedLimit, 49.6);
  assert.ok(own.confidence!.margin! * 1.5 > 0.24, `margin ${own.confidence!.margin}`);
  assert.deepEqual(mergeReports(runners).disagreements, []);
  assert.equal(disagreesBy(49.6, 40, 0.05), true, 'the same stray on a runner that counted enough is one');
  assert.equal(disagreesBy(45, 40, null), false, 'within DISAGREEMENT whatever the margin');
});

test('a missing runner is named as a gap, and the rates scale to the runners present', () => {
  const merged = mergeReports([1, 2, 3].map((i) => ladderRunner(i, 4, 0.25)));
  assert.match(merged.lines.join('\n'), /the reports cover 75% of the test/);
  assert.equal((merged.findings as { ladders: LadderResult[] }).ladders[0]!.stages[0]!.share, 0.75);
});

test('the size searches come from the first runner; the others only say they did not search', () => {
  const limits = [{ id: 'limit.maxPageCount', result: { outcome: 'found' } }];
  const item = {
    id: 'limit.maxPageCount',
    section: '8.3',
    operation: 'GET /v2/conversations',
    item: 'largest accepted PageCount',
    observed: { largestAccepted: 500 },
  };
  const merged = mergeReports([
    report('size-limits', segment(2, 2), { sendBody: null, limits: [] }, ['runner 2/2 (segment 1/2:1): the size searches ran on the first runner only']),
    report('size-limits', segment(1, 2), { sendBody: { template: '{"text":"{{text}}"}' }, limits }, ['limit.maxPageCount: 500'], [item]),
  ]);
  assert.deepEqual(merged.findings, { sendBody: { template: '{"text":"{{text}}"}' }, limits });
  assert.deepEqual(merged.fingerprint, [item]);
  assert.deepEqual(merged.lines.slice(1), ['limit.maxPageCount: 500']);
  assert.deepEqual(merged.disagreements, []);
});

test('refuses reports that are not parts of one test', () => {
  assert.throws(() => mergeReports([]), MergeError);
  assert.throws(() => mergeReports([ladderRunner(1, 2, 0.5), ladderRunner(1, 2, 0.5)]), /overlap/);
  assert.throws(() => mergeReports([ladderRunner(1, 2, 0.5), report('list', segment(2, 2), null, [])]), /different scripts/);
});
