// The run's health, across its workers: the transient failures each worker resent (the run's journal), and the end of
// the run when the target went down or kept throttling past the run's bounds (reports/run/no-verdict.json, written
// once, by whichever process saw it first; the main command watches for it and stops the run within a second).
// The decisions are http/health.ts's; this module records them and tells a test that the run is over.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_HEALTH,
  failing,
  outageLine,
  recordOutcome,
  type FailureStreak,
  type HealthSettings,
  type SendOutcome,
  type TransientKind,
} from '../../http/health.ts';
import { journal, readJournal, type TransientRecord } from '../core/journal.ts';

export const NO_VERDICT_FILE = join('run', 'no-verdict.json');
/** The current streak of failures, shared by the run's processes: a worker restarted after a failed test keeps it. */
const STREAK_FILE = join('run', 'failure-streak.json');
/** Written by the main command when CI or a person cancels the run, before it interrupts Playwright. */
export const CANCELLED_FILE = join('run', 'cancelled.json');

/** Annotation of a test that could not judge: a request that must not be sent twice lost its answer, or the run stopped. */
export const INCONCLUSIVE = 'inconclusive';

/** The run cannot judge the contract any more: the test that meets it is not run, no contract failure. */
export class RunStopped extends Error {
  override name = 'RunStopped';
}

export interface NoVerdict {
  reason: string;
  /** Epoch ms. */
  at: number;
  /** Decided by the run's reporter once every test had run: nothing left to stop. */
  atEnd?: boolean;
}

/** Why the run stopped, when it did (another worker may have written it). */
export function readNoVerdict(reportsDir: string): NoVerdict | undefined {
  const file = join(reportsDir, NO_VERDICT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as NoVerdict;
  } catch {
    return undefined; // being written this instant: the next look reads it
  }
}

/** Records that the run cannot judge: the first reason stays (a later worker's is a consequence of it). */
export function stopRun(reportsDir: string, reason: string, at = Date.now(), atEnd = false): NoVerdict {
  mkdirSync(join(reportsDir, 'run'), { recursive: true });
  try {
    writeFileSync(join(reportsDir, NO_VERDICT_FILE), JSON.stringify({ reason, at, ...(atEnd ? { atEnd } : {}) }), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readNoVerdict(reportsDir) ?? { reason, at };
}

export function markCancelled(reportsDir: string, signal: 'SIGINT' | 'SIGTERM'): void {
  mkdirSync(join(reportsDir, 'run'), { recursive: true });
  writeFileSync(join(reportsDir, CANCELLED_FILE), JSON.stringify({ signal, at: Date.now() }));
}

/** The signal that cancelled the run, as the main command recorded it; undefined when it did not. */
export function readCancelled(reportsDir: string): 'SIGINT' | 'SIGTERM' | undefined {
  const file = join(reportsDir, CANCELLED_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { signal: 'SIGINT' | 'SIGTERM' }).signal : undefined;
}

export const readTransients = (reportsDir: string): TransientRecord[] => readJournal(reportsDir, 'transient');

/** "7 transient failures of 491 requests: 3 × 502 (resent), 4 × connection reset (resent)" for the reports. */
export function transientSummary(records: readonly TransientRecord[]): string | undefined {
  if (records.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const r of records)
    counts.set(`${r.kind}${r.resent ? ', resent' : ', inconclusive'}`, (counts.get(`${r.kind}${r.resent ? ', resent' : ', inconclusive'}`) ?? 0) + 1);
  return `${records.length} transient failure${records.length === 1 ? '' : 's'} of the network or a gateway (none is a contract failure): ${[...counts].map(([k, n]) => `${n} × ${k}`).join('; ')}`;
}

/** One worker's (or the setup's) view: its sends go in, the run's end comes out. */
export class RunHealth {
  private stopped: NoVerdict | undefined;
  private readonly streakFile: string;

  constructor(
    private readonly reportsDir: string,
    private readonly runStartedAt: number,
    readonly settings: HealthSettings = DEFAULT_HEALTH,
  ) {
    this.streakFile = join(reportsDir, STREAK_FILE);
  }

  /** Throws RunStopped when the run has ended for want of a target to judge. */
  check(): void {
    this.stopped ??= readNoVerdict(this.reportsDir);
    if (this.stopped) throw new RunStopped(`not run: ${this.stopped.reason}`);
  }

  /** A send's outcome; an outage ends the run (for every worker) and throws RunStopped. */
  record(operationId: string, outcome: SendOutcome): void {
    // A good answer costs one stat: the streak file exists only while requests fail.
    if (!failing(outcome)) {
      if (existsSync(this.streakFile)) rmSync(this.streakFile, { force: true });
      return;
    }
    let streak: FailureStreak | undefined;
    try {
      streak = JSON.parse(readFileSync(this.streakFile, 'utf8')) as FailureStreak;
    } catch {
      streak = undefined; // none yet, or being replaced this instant
    }
    const next = recordOutcome(streak, operationId, outcome, Date.now(), this.settings);
    mkdirSync(join(this.reportsDir, 'run'), { recursive: true });
    const temporary = `${this.streakFile}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(next.streak));
    renameSync(temporary, this.streakFile);
    if (next.outage) {
      this.stopped = stopRun(this.reportsDir, outageLine(next.outage), next.outage.at);
      throw new RunStopped(`not run: ${this.stopped.reason}`);
    }
  }

  transient(operationId: string, kind: TransientKind, resent: boolean): void {
    journal(this.reportsDir, 'transient', { operationId, kind, resent, atSeconds: (Date.now() - this.runStartedAt) / 1000 });
  }

  /** The target throttled past the run's bounds (run-throttle.ts): the run cannot finish, the contract is not judged. */
  giveUp(reason: string): never {
    this.stopped = stopRun(this.reportsDir, reason);
    throw new RunStopped(`not run: ${this.stopped.reason}`);
  }
}
