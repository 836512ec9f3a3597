import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isFirst,
  MAX_RUNNERS,
  operatorSegmentArgs,
  segmentFileSuffix,
  segmentLabel,
  segmentOf,
  segmentProblem,
  SegmentError,
  WHOLE,
} from './execution-segment.ts';

test('reads the segment as k6 writes it in exec.test.options, in every form k6 accepts', () => {
  assert.deepEqual(segmentOf({ executionSegment: '1/4:1/2' }), { from: 0.25, to: 0.5, share: 0.25, text: '1/4:1/2' });
  assert.equal(segmentOf({ executionSegment: '0.5:1' }).share, 0.5);
  assert.equal(segmentOf({ executionSegment: '25%:50%' }).from, 0.25);
  assert.equal(segmentOf({ executionSegment: '1/3' }).to, 1 / 3);
  for (const whole of [undefined, {}, { executionSegment: null }, { executionSegment: '' }]) assert.deepEqual(segmentOf(whole), WHOLE);
  assert.throws(() => segmentOf({ executionSegment: '1/2:1/4' }), SegmentError);
  assert.throws(() => segmentOf({ executionSegment: 'a:b' }), SegmentError);
  assert.throws(() => segmentOf({ executionSegment: '0:3/2' }), SegmentError);
});

test('names the runner and tells the first one, which runs what cannot be split', () => {
  assert.equal(segmentLabel(segmentOf({ executionSegment: '1/4:1/2' })), 'runner 2/4 (segment 1/4:1/2)');
  assert.equal(segmentLabel(segmentOf({ executionSegment: '0:1/3' })), 'runner 1/3 (segment 0:1/3)');
  assert.equal(segmentLabel(segmentOf({ executionSegment: '0:2/3' })), 'segment 0:2/3');
  assert.equal(segmentLabel(WHOLE), '');
  assert.equal(segmentLabel(segmentOf({ executionSegment: '1/8:3/8' })), 'segment 1/8:3/8');
  assert.deepEqual(
    ['3/4:1', '0:1/3', '1/8:3/8', '0:1'].map((s) => segmentFileSuffix(segmentOf({ executionSegment: s }))),
    ['runner-4-of-4', 'runner-1-of-3', 'segment-0.1250-0.3750', ''],
  );
  assert.ok(isFirst(segmentOf({ executionSegment: '0:1/4' })));
  assert.ok(!isFirst(segmentOf({ executionSegment: '3/4:1' })));
});

test('builds the flags of each runner exactly as k6-operator does (pkg/segmentation)', () => {
  assert.deepEqual(operatorSegmentArgs(1, 3), ['--execution-segment=0:1/3', '--execution-segment-sequence=0,1/3,2/3,1']);
  assert.deepEqual(operatorSegmentArgs(4, 4), ['--execution-segment=3/4:1', '--execution-segment-sequence=0,1/4,2/4,3/4,1']);
  assert.deepEqual(operatorSegmentArgs(1, 1), ['--execution-segment=0:1', '--execution-segment-sequence=0,1']);
  assert.throws(() => operatorSegmentArgs(3, 2), SegmentError);
  const shares = [1, 2, 3, 4].map((i) => segmentOf({ executionSegment: operatorSegmentArgs(i, 4)[0]!.split('=')[1] }).share);
  assert.equal(
    shares.reduce((a, b) => a + b, 0),
    1,
  );
});

test('refuses a split into more runners than every scenario has VUs for', () => {
  assert.equal(segmentProblem(segmentOf({ executionSegment: `0:1/${MAX_RUNNERS}` })), undefined);
  assert.match(segmentProblem(segmentOf({ executionSegment: `0:1/${MAX_RUNNERS * 2}` })) ?? '', /at most 8 runners \(k6-operator: parallelism ≤ 8\)/);
});
