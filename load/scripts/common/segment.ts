// This process's part of a split test (k6-operator, --execution-segment), as k6 consolidated it: readable in
// setup(), VU code and handleSummary, never in the init context.
import exec from 'k6/execution';
import { segmentOf, type Segment } from '../../../discovery/execution-segment.ts';

export const currentSegment = (): Segment => segmentOf(exec.test.options as { executionSegment?: string | null });
