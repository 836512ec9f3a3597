// The empty run's global setup: nothing to set up, journalled as a setup of no time so that its split has the main
// command's parts (bench/run-split.ts).
import { REPORTS_DIR } from '../contract/core/env.ts';
import { markPart, PART } from '../contract/core/run-timing.ts';

export default function emptySetup(): void {
  const now = Date.now();
  markPart(REPORTS_DIR, PART.setup, now, now);
}
