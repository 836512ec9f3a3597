// Checks of the run, not of an answer: what only the whole run tells (every "not shown" item observed, every
// documented pair exercised, every pair of §3 walked, every documented variant exercised), a body shape the run could
// not establish with REQUIRE_SHAPES, and test_passes: a test that failed without recording a contract failure, a fault
// of the suite or its set-up, which the run reports as not judged, never as the vendor's.
// Each failure is filed under the test or the run's end that raised it (its pointer), with no operation. Pure.
import { failureId, type RecordedFailure } from '../lib/failure.ts';
import { defineCheck, failuresOf, type Check, type Finding } from './check.ts';

/** What a run check judged: the title it is filed under, and what is missing (nothing: it holds). */
export interface RunEvidence {
  title: string;
  missing: readonly string[];
}

const runCheck = <const N extends string>(name: N, statement: string, expected: string, what: string) =>
  defineCheck({
    name,
    sections: ['-'],
    severity: 'low',
    statement,
    evidence: 'run',
    judge: ({ title, missing }: RunEvidence): Finding[] => [
      { at: title, holds: missing.length === 0, expected, observed: missing.length ? `${what}: ${missing.join('; ')}` : 'none' },
    ],
  });

export const testPasses = defineCheck({
  name: 'test_passes',
  sections: ['-'],
  severity: 'low',
  statement:
    'every test ends in a verdict: one that failed without naming a contract failure (a fixture that could not be set up, a bug of the suite) is not judged, never the vendor’s',
  evidence: 'run',
  judge: ({ test, error }: { test: string; error: string }) => [
    {
      at: test,
      holds: false,
      expected:
        "a fault of this side, not the vendor's: fix what the error names (a setting, the runner, a fixture's set-up) or report it to dialog-contract's maintainers with the test's output",
      observed: error || 'failed without a message',
    },
  ],
});

export const unknownsObserved = runCheck(
  'unknowns_observed',
  'every catalogued "not shown" item is observed in a whole run, or a skipped test says why it could not be',
  'every catalogued "not shown" item observed, or a skipped test saying why it could not be',
  'not observed in this run (the test or probe that records each failed before recording)',
);

export const pairsExercised = runCheck(
  'pairs_exercised',
  'every documented (operation, status) pair is exercised in a whole run, or explained',
  'every documented (operation, status) pair exercised, or explained in contract/core/not-drivable.ts',
  'documented pairs neither exercised nor explained in contract/core/not-drivable.ts',
);

export const transitionsWalked = runCheck(
  'transitions_walked',
  'every (state × trigger) pair of spec §3 is walked in a whole run, or a skipped test says why it could not be',
  'every (state × trigger) pair of spec §3 walked, or a skipped test saying why it could not be',
  '(state × trigger) pairs neither walked nor explained by a skipped test',
);

export const variantsExercised = runCheck(
  'variants_exercised',
  'every documented variant (an input in each of its places and forms, each write right after each other) is exercised in a whole run, or a skipped test says why it could not be',
  'every documented variant (report/variants.ts) exercised, or a skipped test saying why it could not be',
  'documented variants neither exercised nor explained by a skipped test',
);

export const bodyShapeEstablished = runCheck(
  'body_shape_established',
  'with REQUIRE_SHAPES, the run establishes a send and a command body shape, configured or verified by their effect',
  'a send and a command body shape, configured or verified by their effect (§4.2)',
  'not established',
);

/** A run check's failures, filed under the title of the test or the run's end that raised them. */
export const runFailures = <I>(check: Check<I>, input: I, title: string): RecordedFailure[] =>
  failuresOf(check, check.judge(input), { operationId: null, status: null }).map((f) => ({ ...f, id: failureId(f), test: title }));
