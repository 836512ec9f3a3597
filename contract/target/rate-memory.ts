// What a run knows of its target's rate limit (spec §8.2: not shown) before it sends anything, and what it leaves the
// next run: the limit the run before against the same target ended with (reports/rate-limits.json, kept across runs
// as no report is), else the one a --baseline of the same target recorded in its run block, each with how the target
// refused when that limit was met. The run's pace keeps it there from its first request (contract/target/pace-link.ts)
// and records the limit as it goes (reports/run/pace.json); the run's end reads both.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KnownLimit, RunMeta } from '../../lib/fingerprint.ts';
import { ObservedItems, type RateLimitObserved } from '../../lib/observations.ts';
import type { NamedFingerprint } from '../../report/history.ts';
import { FROM_MAX_RPS, LEARNED_HERE, type PaceRecord } from '../../http/run-pace.ts';
import { readRunJson } from '../core/run-records.ts';

/** Not among the run's files (contract/run/run-files.ts): what the runs before learned, by target. */
const MEMORY_FILE = 'rate-limits.json';
/** The run's pace as its global setup keeps it, and the refusal it carried in. */
const PACE_FILE = join('run', 'pace.json');

/** A limit the run knows before it starts, and how the target refused when it was met. */
export interface CarriedLimit {
  limit: KnownLimit;
  refusal: RateLimitObserved;
}

type PaceFile = PaceRecord & { carried: CarriedLimit | null };

/**
 * A limit as a later run names where it came from ("this run's" answers are the run of its start), with the pace kept
 * under it, how it was known and how sure (a file of before these were kept has none of them: its limit was the pace,
 * learned from throttles, an estimate).
 */
const carriedFrom = (limit: KnownLimit, run: Pick<RunMeta, 'startedAt'>, via?: string): KnownLimit => {
  const origin = limit.from === LEARNED_HERE ? `the run of ${run.startedAt}` : limit.from;
  const { basis = 'throttles', confidence = 'estimate' } = limit;
  const pace = limit.pace === undefined ? {} : { pace: limit.pace };
  return { perSecond: limit.perSecond, ...pace, from: via ? `${via} (${origin})` : origin, basis, confidence };
};

const readMemory = (reportsDir: string): Record<string, CarriedLimit> => {
  const file = join(reportsDir, MEMORY_FILE);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, CarriedLimit>;
  } catch {
    // A broken memory only costs the run what it would learn again.
    return {};
  }
};

/**
 * The limit a run against `target` starts with: the run before's against it, else `baseline`'s when that run was
 * against it and knew one. Never MAX_RPS's (http/run-pace.ts startingLimit weighs that): a user's pace is no vendor's.
 */
export function knownLimit(reportsDir: string, target: string, baseline: NamedFingerprint | undefined): CarriedLimit | undefined {
  const remembered = readMemory(reportsDir)[target];
  if (remembered) return remembered;
  if (!baseline?.run?.rateLimit || baseline.run.target !== target) return undefined;
  const refusal = new ObservedItems(baseline.items).get('rate.limit');
  return refusal && { limit: carriedFrom(baseline.run.rateLimit, baseline.run, `baseline ${baseline.name}`), refusal };
}

/**
 * What the run leaves the next against the same target: the target's limit it ended with and how the target refused
 * (a limit it announced may never have been met), unless its limit was only MAX_RPS (nothing learned: the memory
 * stays); a run that went unpaced and met no limit forgets the target's.
 */
export function rememberLimit(reportsDir: string, run: RunMeta, pace: PaceRecord, refusal: RateLimitObserved): void {
  if (pace.limit?.from === FROM_MAX_RPS) return;
  const memory = readMemory(reportsDir);
  if (pace.limit && (refusal.limited || pace.limit.basis === 'announced')) memory[run.target] = { limit: carriedFrom(pace.limit, run), refusal };
  else if (memory[run.target]) delete memory[run.target];
  else return;
  mkdirSync(reportsDir, { recursive: true });
  writeFileSync(join(reportsDir, MEMORY_FILE), `${JSON.stringify(memory, null, 2)}\n`);
}

export function writePace(reportsDir: string, pace: PaceRecord, carried: CarriedLimit | undefined): void {
  const file = join(reportsDir, PACE_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...pace, carried: carried ?? null } satisfies PaceFile));
}

/** The run's pace as the run left it; none when its setup did not run. */
export function readPace(reportsDir: string): PaceFile | undefined {
  const file = join(reportsDir, PACE_FILE);
  return existsSync(file) ? readRunJson<PaceFile>(file) : undefined;
}
