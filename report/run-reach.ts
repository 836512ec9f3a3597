// Whether a run set out to observe an item: what tells an item a run never looked at ("unreached": no change, no
// ticket) from one it looked for and saw differently or could not see ("changed"), a baseline's failure the run met
// holding ("fixed") from one it never exercised, and an acknowledged drift the run found holding ("resolved") from one
// it did not judge. Read from the run's scope (its selection, how it ended), the tests that observed each item in the
// baseline or in this run (a fingerprint's `observedBy`), how each test of this run ended, and, for a contract
// failure no test is known for, whether the run judged its check at its operation and status. Pure.
import type { RunScope } from '../lib/fingerprint.ts';

/** How a test of this run ended, by its key (contract/core/run-scope.ts testKey). */
export type TestOutcome = 'passed' | 'failed' | 'not judged' | 'skipped';

/** Names of what observes an item that is no test: the run's setup, the run's end. */
export const SETUP_OBSERVER = '[setup]';
export const RUN_END_OBSERVER = '[run end]';

/**
 * Who observed an item, named alike in every run: a test by its file and title path (`[api] v2/x.spec.ts › title` →
 * `v2/x.spec.ts › title`, whatever project or run of several it ran in), the run's setup and end by their names.
 */
export function observerKey(title: string): string {
  if (title.startsWith('[global setup]')) return SETUP_OBSERVER;
  if (title.startsWith(RUN_END_OBSERVER)) return RUN_END_OBSERVER;
  return title.replace(/^\[[^\]]*\] (?=\S+\.ts › )/, '');
}

/** Each item's observers, by id: keys sorted, each once. */
export function observersOf(
  observed: Iterable<readonly [string, readonly string[]]>,
  failures: ReadonlyArray<{ id: string; test: string }>,
): Record<string, string[]> {
  const by = new Map<string, Set<string>>();
  const add = (id: string, title: string) => by.set(id, (by.get(id) ?? new Set()).add(observerKey(title)));
  for (const [id, titles] of observed) for (const t of titles) add(id, t);
  for (const f of failures) add(f.id, f.test);
  return Object.fromEntries([...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, keys]) => [id, [...keys].sort()]));
}

/** This run's observers and a baseline's, together. */
export function mergeObservers(...maps: ReadonlyArray<Readonly<Record<string, readonly string[]>> | undefined>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const map of maps) for (const [id, keys] of Object.entries(map ?? {})) out[id] = [...new Set([...(out[id] ?? []), ...keys])].sort();
  return out;
}

export interface RunReachInput {
  scope: Pick<RunScope, 'partial' | 'ended'>;
  /** Every test this run ran or skipped, by key. */
  outcomes: ReadonlyMap<string, TestOutcome>;
  /** The operations the run's answers came from, by id (whatever their status: a drift's status is not the fix's). */
  exercised: ReadonlySet<string>;
  /** The checks the run judged at least once, by name (a family's checks count for it). */
  judged: ReadonlySet<string>;
  /** Why items may be missing from a whole run: tests failed ("[api] x failed (and 3 more tests)"). */
  failedBefore?: string;
}

export type Reach = { reached: true } | { reached: false; why: string };

const REACHED: Reach = { reached: true };

/** contract.CHECK OPERATIONID STATUS PLACE → its check family and operation; undefined for other ids. */
function failureAt(id: string): { family: string; operation: string } | undefined {
  const m = /^(?:contract|learned)\.(\S+) (\S+) \S+ /.exec(id);
  return m ? { family: m[1]!, operation: m[2]! } : undefined;
}

/** "-g, file filter v2/" or "the run was cancelled": why a partial run did not look at everything. */
const partialText = (scope: RunReachInput['scope']) => (scope.partial.length ? scope.partial.join('; ') : 'a partial run');

/**
 * Whether this run set out to observe `id`, and found it (or its absence) by a test that ran to its end; `observedBy`:
 * the tests that observed it in the baseline and in this run.
 */
export function reachOf(id: string, observedBy: readonly string[] | undefined, run: RunReachInput): Reach {
  const whole = run.scope.partial.length === 0 && run.scope.ended === 'complete';
  const failure = failureAt(id);
  // A contract failure whose check this run never made (left out by --checks, or no test of it ran) is not found holding.
  const judged = failure && [...run.judged].some((name) => name === failure.family || name.startsWith(`${failure.family}.`));
  if (failure && !judged) return { reached: false, why: `this run did not make ${failure.family} (left out, or none of its tests ran)` };
  if (observedBy?.length) {
    if (observedBy.includes(SETUP_OBSERVER)) return REACHED;
    if (observedBy.includes(RUN_END_OBSERVER) && whole) return REACHED;
    const tests = observedBy.filter((t) => t !== RUN_END_OBSERVER);
    const ran = tests.filter((t) => run.outcomes.has(t) && run.outcomes.get(t) !== 'skipped');
    if (ran.length === 0) {
      const skipped = tests.find((t) => run.outcomes.get(t) === 'skipped');
      if (skipped) return { reached: false, why: `its test was skipped in this run (${skipped})` };
      if (run.scope.ended === 'cancelled') return { reached: false, why: `the run was cancelled before its test ran (${tests[0] ?? 'the run end'})` };
      return { reached: false, why: `this run did not select its test (${tests[0] ?? 'the run end'}): ${partialText(run.scope)}` };
    }
    if (ran.some((t) => run.outcomes.get(t) === 'passed')) return REACHED;
    const [first] = ran;
    return { reached: false, why: `its test ${run.outcomes.get(first!) === 'failed' ? 'failed' : 'could not judge'} before recording it (${first})` };
  }
  if (failure && failure.operation !== '-') {
    if (run.exercised.has(failure.operation)) return REACHED;
    return { reached: false, why: `this run did not judge ${failure.family} at ${failure.operation}` };
  }
  if (!whole) return { reached: false, why: run.scope.ended === 'cancelled' ? 'the run was cancelled' : partialText(run.scope) };
  return run.failedBefore ? { reached: false, why: run.failedBefore } : REACHED;
}
