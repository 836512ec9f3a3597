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
export function fingerprintJson(items: readonly FingerprintItem[], run: RunMeta | null): string {
  // Keys sorted: the items come first in the text, so two runs' files differ only in the closing run block.
  return `${stableStringify({ items: mergeFingerprints(items), run })}\n`;
}

/** A fingerprint file's content, either form; undefined when it is neither. */
export function readFingerprintFile(value: unknown): FingerprintFile | undefined {
  const isItems = (v: unknown): v is FingerprintItem[] =>
    Array.isArray(v) && v.every((i) => i && typeof i === 'object' && typeof (i as FingerprintItem).id === 'string');
  if (isItems(value)) return { run: null, items: value };
  if (value && typeof value === 'object' && isItems((value as FingerprintFile).items))
    return { run: (value as FingerprintFile).run ?? null, items: (value as FingerprintFile).items };
  return undefined;
}
