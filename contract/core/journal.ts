// The run's journal: the one channel through which a run's processes (global setup, the workers, the main command)
// leave records for each other and for the run's end. Every kind of record is declared here, once, with its type; a
// feature writes its records with `journal` and reads them with `readJournal`, never a file of its own. One file per
// kind and process (reports/run/journal/KIND-PID.jsonl): writers never interleave, and a reader of one kind (a
// worker adding up the run's throttle waits) parses no other (the exchanges are most of the bytes).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TransientKind } from '../../http/health.ts';
import type { ThrottleRecord } from '../../http/throttle.ts';
import type { RecordedExchange, RecordedExpectation } from '../../lib/exchange.ts';
import { appendJsonl } from './run-records.ts';
import type { WriteOperation } from './state-table.ts';

/** One request's answer lost to the network, and what the client did about it. */
export interface TransientRecord {
  operationId: string;
  kind: TransientKind;
  /** Sent again (a request that may be), or given up as inconclusive (one that must not). */
  resent: boolean;
  /** Seconds since the run started. */
  atSeconds: number;
}

/** A list read again until it showed a write (settle): what was awaited, for how long, in how many reads. */
export interface LagRecord {
  what: string;
  waitedMs: number;
  settled: boolean;
  /** 1: the first read showed it (no lag, whatever that read took). */
  reads: number;
}

/** A test skipped because the run could not bring about what it needs, and what it would have covered. */
export interface PreconditionRow {
  test: string;
  reason: string;
  /** "operationId status" pairs the test would have exercised. */
  pairs: string[];
  /** Observation ids it would have recorded. */
  observations: string[];
  /** (state × trigger) pairs of spec §3 it would have walked (core/state-table.ts). */
  transitions?: string[];
  /** Documented variants it would have exercised (report/variants.ts). */
  variants?: string[];
}

/** One step of a walk of spec §3, for the state × trigger coverage. */
export interface WalkedStep {
  pair: string;
  /** The write that brought the dialog where it is (its create, a trigger), when the walk knows it. */
  prior?: WriteOperation | null;
  /** The trigger's answer. */
  status: number;
  /** The dialog's status string read right after, when it could be read. */
  after: string | null;
  test: string;
}

/** A dialog the run created, journalled the moment its create answered (so a cancelled run can still stop it). */
export interface JournalledDialog {
  runId?: string;
  uuid: string;
  botId: number;
  via: string;
  test: string;
  /** Its create's exchange (lib/exchange.ts RecordedExchange.exchangeId): the run's HAR names the dialog there. */
  createExchangeId?: string;
}

/**
 * What a test held an answer to beyond the document's list of statuses (toMatchContract's expectation), beside the
 * exchange it names: the run's HAR carries it, so the engine judges that answer as the test did.
 */
export interface ExpectationRecord {
  /** The exchange (lib/exchange.ts RecordedExchange.exchangeId). */
  exchangeId: string;
  /** What the test held the answer to. */
  heldTo: RecordedExpectation;
}

/**
 * A part of the run and when it ran (ms since the epoch), written by the process that ran it (contract/core/run-timing.ts):
 * `npm run bench` splits a run's wall time by them.
 */
export interface TimingRecord {
  part: string;
  from: number;
  to: number;
  /**
   * A worker's stretch of tests: its parallel index, its tests, the time they took (less than the stretch when the
   * worker ran other runs' tests between them) and the time in their fixtures and hooks.
   */
  lane?: number;
  tests?: number;
  busyMs?: number;
  fixturesMs?: number;
}

/** Every kind of record a run journals. */
export interface JournalKinds {
  /** Every request sent and its answer, credentials redacted: folded into reports/exchanges.har at the run's end. */
  exchange: RecordedExchange;
  /** Answers lost to the network: the run's `network:` line and its verdict on an outage. */
  transient: TransientRecord;
  /** Lists that trailed writes: the observation lists.lag. */
  lag: LagRecord;
  /** Throttled answers (429/503), waited out: the observation rate.limit and the run's bound on waiting. */
  throttle: ThrottleRecord;
  /** Tests skipped for a state the run could not set up: the coverage report's reasons. */
  precondition: PreconditionRow;
  /** Steps of the walk of §3: the coverage report's state × trigger table. */
  transition: WalkedStep;
  /** Dialogs created: stopped by the main command when the run was cancelled before it cleaned them up. */
  created: JournalledDialog;
  /** The parts of the run and their times: where its wall time goes (`npm run bench`). */
  timing: TimingRecord;
  /** What tests expected of answers: the run's HAR carries it (report/har.ts `_expected`). */
  expectation: ExpectationRecord;
}

export type JournalKind = keyof JournalKinds;

/** The journal's folder under a run's reports folder (inside reports/run/, which every run starts without). */
export const JOURNAL_DIR = join('run', 'journal');

/** Appends a record of `kind` to this process's file of the run's journal. */
export function journal<K extends JournalKind>(reportsDir: string, kind: K, record: JournalKinds[K]): void {
  appendJsonl(join(reportsDir, JOURNAL_DIR, `${kind}-${process.pid}.jsonl`), record);
}

/** The journal's files of one kind, one per process that wrote it. */
function filesOf(reportsDir: string, kind: JournalKind): string[] {
  const dir = join(reportsDir, JOURNAL_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.startsWith(`${kind}-`))
    .sort()
    .map((file) => join(dir, file));
}

/** Every record of `kind` the run's processes journalled so far, each process's in the order written. */
export function readJournal<K extends JournalKind>(reportsDir: string, kind: K): JournalKinds[K][] {
  return filesOf(reportsDir, kind)
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as JournalKinds[K]);
}

/** Drops the records of `kind` once a report holds them (the exchanges, folded into the run's HAR). */
export function clearJournal(reportsDir: string, kind: JournalKind): void {
  for (const file of filesOf(reportsDir, kind)) rmSync(file, { force: true });
}
