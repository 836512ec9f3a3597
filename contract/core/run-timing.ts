// Where a run's wall time goes: each part of the run (the main command's start, global setup's steps, the stretch of
// tests each worker ran, the run's end) journalled by the process that ran it, a dozen lines a run. `npm run bench`
// splits the main command's and each mutation suite run's wall time by them (bench/run-split.ts).
import { journal, readJournal, type TimingRecord } from './journal.ts';

/** The parts a run journals, by the name bench/run-split.ts reads them by. */
export const PART = {
  /** The main command, from its process's start to Playwright's (scripts/contract.ts, through COMMAND_TIMING_ENV). */
  command: 'command',
  /** Global setup, whole, and its steps: waiting for the embedded simulator, judging the target and starting the run's listener and pace, the body shapes, the vendor's clock. */
  setup: 'setup',
  simulator: 'setup.simulator',
  preflight: 'setup.preflight',
  shapes: 'setup.shapes',
  clock: 'setup.clock',
  /** Playwright's onBegin: the tests loaded, the workers about to start (a point). */
  begin: 'begin',
  /** One worker's stretch of tests, from its first test's start to its last test's end. */
  lane: 'lane',
  /** The run reporter's end, whole, and its steps: the journal folded into the HAR, the whole-run checks, the reports. */
  end: 'end',
  fold: 'end.fold',
  judging: 'end.judging',
  reports: 'end.reports',
  /** The secret guard's scan of every file the run wrote. */
  guard: 'end.guard',
} as const;

/** "FROM,TO" (ms since the epoch): the main command's start and when it started Playwright, for global setup to journal. */
export const COMMAND_TIMING_ENV = 'DIALOG_CONTRACT_COMMAND_TIMING';

/** Journals a part of the run that ran from `from` to `to`. */
export function markPart(reportsDir: string, part: string, from: number, to = Date.now(), extra: Omit<TimingRecord, 'part' | 'from' | 'to'> = {}): void {
  journal(reportsDir, 'timing', { part, from, to, ...extra });
}

/** `fn`, journalled as `part`. */
export async function timed<T>(reportsDir: string, part: string, fn: () => Promise<T>): Promise<T> {
  const from = Date.now();
  try {
    return await fn();
  } finally {
    markPart(reportsDir, part, from);
  }
}

/** `fn`, journalled as `part`, when it returns at once. */
export function timedSync<T>(reportsDir: string, part: string, fn: () => T): T {
  const from = Date.now();
  try {
    return fn();
  } finally {
    markPart(reportsDir, part, from);
  }
}

export const readTiming = (reportsDir: string): TimingRecord[] => readJournal(reportsDir, 'timing');
