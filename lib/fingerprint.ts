// Observation items in the fingerprint format of the drift report and the baselines: a stable id per item, sorted
// keys at every depth, no timestamps, so two runs diff line by line. The file holds the run's metadata first (what
// changes from run to run lives there only) and then the items.
// In lib/ because every layer writes or reads these items: contract, load, discovery, report and scripts.
import type { FailureSeverity } from './failure.ts';
import { stableStringify } from './json.ts';

/** Which run a report belongs to: every JSON report carries it. */
export interface RunMeta {
  runId: string;
  /** ISO time the run started. */
  startedAt: string;
  /** Host (and port) of the target: never a credential. */
  target: string;
  /** This suite's version (package.json, plus the commit when CI gives it). */
  suiteVersion: string;
  /** What the vendor says its version is (a version header of its answers), or null. */
  vendorVersion: string | null;
  /** A k6 run's script and the part of a split test it ran (its execution segment; "0:1" the whole test). */
  load?: { script: string; segment: string };
  /**
   * The target's rate limit as the run knew it at its end (found from its throttled answers, or carried from the run
   * before or a baseline): what the next run against the same target starts paced at. Absent when none was known.
   */
  rateLimit?: KnownLimit;
  /** What the run set out to do, and whether it did it all (a contract run's; absent in files written before). */
  scope?: RunScope;
}

/**
 * What a run selected and whether it ran it all: the part of the API it set out to observe. A comparison with a
 * baseline calls an item this run never set out to observe unreached, never changed; a partial run's fingerprint
 * becomes a baseline only when asked for by name.
 */
export interface RunScope {
  /**
   * Why the run is not the whole suite run to its end with every check (empty when it is): a filter, a project or
   * file named, checks left out, a cancel, catalogued "not shown" items it set out to observe and observed nowhere.
   */
  partial: string[];
  /** Ran to its end, or cancelled (a run that stopped before a verdict writes no fingerprint). */
  ended: 'complete' | 'cancelled';
  /** The tests it selected and ran (not skipped), and the spec files and projects they are in. */
  tests: { selected: number; ran: number; specs: string[]; projects: string[] };
  /** The tests it selected, by key ("v2/lifecycle.spec.ts › title"), when it did not select the whole suite. */
  selected?: string[];
  /** The checks it made, and those it left out. */
  checks: { made: number; leftOut: string[] };
  /** The operations its answers exercised, each with the statuses it saw: "getV2Conversation 200". */
  operations: string[];
}

/** A rate limit a run keeps to, and where it comes from (MAX_RPS, the run before, a baseline, this run's answers). */
export interface KnownLimit {
  /** The target's limit: what it announced, or let through while the run pressed it. */
  perSecond: number;
  /**
   * The pace a run keeps under it, where it is slower: a margin below an announced or learned limit, or as slow as the
   * network's jitter requires to meet no throttle. Absent (MAX_RPS, files written before it was kept): perSecond.
   */
  pace?: number;
  from: string;
  /**
   * How it was known: announced by the target (its rate-limit headers), bracketed by a probe (a pace 10% above it
   * throttled), or learned from throttles. Absent in files written before it was kept: learned from throttles.
   */
  basis?: 'announced' | 'probed' | 'throttles';
  /** Confirmed: later runs keep to it and probe no further. An estimate (or absent): the next run probes above it. */
  confidence?: 'confirmed' | 'estimate';
}

/** A fingerprint as a file (and a baseline) holds it. Baselines saved before metadata existed are a bare array. */
export interface FingerprintFile {
  run: RunMeta | null;
  items: FingerprintItem[];
  /**
   * Which tests observed each item (test keys, or the run's setup or end): where a later run looks to tell whether it
   * set out to observe the item. Absent in files written before.
   */
  observedBy?: Record<string, string[]>;
  /** Saved as a baseline from a partial run, asked for by name (npm run baseline -- NAME --partial): why it is partial. */
  partial?: string;
}

export interface FingerprintItem {
  /** Stable across runs, e.g. "limit.maxPageCount". */
  id: string;
  /** Section of the vendor specification that leaves the item unsaid, e.g. "8.3". */
  section: string;
  /** How QA names the endpoint, e.g. "GET /v2/conversations". */
  operation: string;
  /** What was observed, in words. */
  item: string;
  /** The observation: JSON, no timestamps. */
  observed: unknown;
  /** A contract failure's class (lib/failure.ts), decided by its check; observations have none. */
  severity?: FailureSeverity;
}

/** Items by id, the later list winning for an id seen twice, sorted by id. */
export function mergeFingerprints(...lists: ReadonlyArray<readonly FingerprintItem[]>): FingerprintItem[] {
  const byId = new Map<string, FingerprintItem>();
  for (const item of lists.flat()) byId.set(item.id, item);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The file text: the run's metadata, then the items sorted by id, keys sorted, newline-terminated. */
export function fingerprintJson(items: readonly FingerprintItem[], run: RunMeta | null, observedBy?: Record<string, string[]>, partial?: string): string {
  // Keys sorted: the items come first in the text, so two runs' files differ only in what follows them.
  return `${stableStringify({ items: mergeFingerprints(items), ...(observedBy ? { observedBy } : {}), ...(partial ? { partial } : {}), run })}\n`;
}

/** A fingerprint file's content, either form; undefined when it is neither. */
export function readFingerprintFile(value: unknown): FingerprintFile | undefined {
  const isItems = (v: unknown): v is FingerprintItem[] =>
    Array.isArray(v) && v.every((i) => i && typeof i === 'object' && typeof (i as FingerprintItem).id === 'string');
  if (isItems(value)) return { run: null, items: value };
  if (value && typeof value === 'object' && isItems((value as FingerprintFile).items)) {
    const { run, items, observedBy, partial } = value as FingerprintFile;
    return {
      run: run ?? null,
      items,
      ...(observedBy && typeof observedBy === 'object' ? { observedBy } : {}),
      ...(typeof partial === 'string' ? { partial } : {}),
    };
  }
  return undefined;
}
