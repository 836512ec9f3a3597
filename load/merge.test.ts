// npm run load:merge: pods' logs (the report line among k6's output) or runners' JSON reports in, the merged report
// and its page out where the contract run looks for it, stamped with its run; a file that holds no report is one
// line, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operatorSegmentArgs, segmentOf } from '../discovery/execution-segment.ts';
import { buildReport, REPORT_LINE, summaryFiles } from '../discovery/load-summary.ts';
import { readFingerprintFile } from '../lib/fingerprint.ts';
import { main } from './merge.ts';

const item = {
  id: 'limit.maxPageCount',
  section: '8.3',
  operation: 'GET /v2/conversations',
  item: 'largest accepted PageCount',
  observed: { largestAccepted: 500 },
};

/** A pod's log: k6's own lines around what handleSummary printed. */
function podLog(dir: string, runner: number): string {
  const segment = segmentOf({ executionSegment: operatorSegmentArgs(runner, 2)[0]!.split('=')[1] });
  const data = { metrics: { http_reqs: { values: { count: 10, rate: 2 } } }, root_group: { checks: [] }, state: { testRunDurationMs: 5000 } };
  const report = buildReport('size-limits', 'staging.example.com', segment, Date.parse('2026-11-24T10:00:05Z'), data, {
    findings: { limits: runner === 1 ? [{ id: 'limit.maxPageCount' }] : [] },
    lines: [],
    fingerprint: runner === 1 ? [item] : [],
  });
  const file = join(dir, `pod-${runner}.log`);
  writeFileSync(file, `time="…" level=info msg="k6 starting"\n${summaryFiles(report, [], '/reports', '0.1.0').stdout}time="…" level=info msg="done"\n`);
  return file;
}

test("merges pods' logs into reports the contract run reads, the run named", () => {
  const dir = mkdtempSync(join(tmpdir(), 'merge-'));
  const out = join(dir, 'out');
  assert.equal(main([podLog(dir, 2), podLog(dir, 1), '--out', out]), 0);
  const merged = JSON.parse(readFileSync(join(out, 'size-limits.json'), 'utf8'));
  assert.equal(merged.requests.count, 20);
  assert.deepEqual(merged.findings.limits, [{ id: 'limit.maxPageCount' }]);
  const fingerprint = readFingerprintFile(JSON.parse(readFileSync(join(out, 'size-limits.fingerprint.json'), 'utf8')))!;
  assert.deepEqual(fingerprint.items, [item]);
  assert.equal(fingerprint.run?.target, 'staging.example.com');
  assert.equal(fingerprint.run?.startedAt, '2026-11-24T10:00:00.000Z');
  assert.deepEqual(
    [fingerprint.run?.runId, fingerprint.run?.load],
    ['k6 size-limits 2026-11-24T10:00:00.000Z (2 runners)', { script: 'size-limits', segment: '0:1' }],
  );
  assert.match(readFileSync(join(out, 'size-limits.txt'), 'utf8'), /runners:\n {2}runner 1\/2 \(segment 0:1\/2\)/);
  // The page beside it shows each runner's share.
  const page = readFileSync(join(out, 'size-limits.html'), 'utf8');
  assert.deepEqual(
    [...page.matchAll(/data-testid="runner" data-share="([^"]+)" data-requests="(\d+)"><td>([^<]+)</g)].map((m) => [m[3], m[1], m[2]]),
    [
      ['runner 1/2 (segment 0:1/2)', '0.5', '10'],
      ['runner 2/2 (segment 1/2:1)', '0.5', '10'],
    ],
  );
});

test('a file without a report, a missing file or no file: one line, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'merge-'));
  const junk = join(dir, 'junk.log');
  writeFileSync(junk, 'level=error msg="could not open"\n');
  const errors: string[] = [];
  const original = console.error;
  console.error = (line: string) => errors.push(line);
  try {
    assert.equal(main([junk]), 2);
    assert.equal(main([join(dir, 'missing.json')]), 2);
    assert.equal(main([]), 2);
  } finally {
    console.error = original;
  }
  assert.match(errors[0]!, new RegExp(`^load:merge: .*junk\\.log holds no load report: .*"${REPORT_LINE.trim()}"`));
  assert.match(errors[1]!, /^load:merge: ENOENT/);
  assert.match(errors[2]!, /give the runners' reports; see npm run load:merge -- --help/);
});
