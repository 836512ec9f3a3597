// What the judging engine (checks/engine.ts) is made of: feeders. A feeder assembles one kind of evidence from the
// exchanges in time order (checks/timeline.ts) and hands it to the checks it declares; each judgement names the
// exchange a failure is raised at and the others that show it. The declaration is what the registry's recipe test
// reads (scripts/check-recipe.test.ts): a check is fed by a feeder, or NOT_FROM_RECORDINGS says why none can. Pure.
import type { ContractValidators } from '../openapi/validators.ts';
import type { AnyCheck, Finding } from './check.ts';
import type { ExchangeEvidence } from './evidence.ts';
import type { CheckName } from './registry.ts';
import type { Timeline } from './timeline.ts';

/** A check judged on exchanges: its findings at the exchange they are about, and the others that show them. */
export interface Judged {
  check: AnyCheck;
  findings: Finding[];
  at: ExchangeEvidence;
  shownBy?: readonly ExchangeEvidence[];
  /** The other operation, where the check holds one answer against another's (V1 against V2). */
  comparedWith?: ExchangeEvidence;
}

/** What a feeder knows beside the exchanges. */
export interface FeedContext {
  validators: ContractValidators;
  /**
   * How long a list may trail a write (LIST_SETTLE_S): a list read this long after a write that does not show it is
   * evidence; one read sooner says nothing.
   */
  settleMs: number;
  /**
   * The vendor's clock against the recorder's, where the recorder measured it (the suite's run: offset and the margin
   * its sources leave); else a time is read from the answers' Date headers, an unverified quarter of an hour either way.
   */
  clock?: RecordedClock;
}

/** A recorder's measure of the vendor's clock: vendor time minus recorder time, and how far either way it may be off. */
export interface RecordedClock {
  offsetMs: number;
  marginMs: number;
}

export interface Feeder {
  /** The evidence it assembles, in words: the engine's place of each check it feeds. */
  evidence: string;
  /** The checks it hands evidence to; it judges no other. */
  checks: readonly CheckName[];
  feed(timeline: Timeline, context: FeedContext): Judged[];
}

export const defineFeeder = (feeder: Feeder): Feeder => feeder;
