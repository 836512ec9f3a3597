// Observation items in the fingerprint format of the drift report and the baselines: a stable id per item, sorted
// keys at every depth, no timestamps, so two runs diff line by line.

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
}

/** JSON with object keys sorted at every depth (arrays keep their order). */
export function stableStringify(value: unknown, indent = 2): string {
  const sortKeys = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sortKeys);
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) if (record[key] !== undefined) out[key] = sortKeys(record[key]);
    return out;
  };
  return JSON.stringify(sortKeys(value), null, indent);
}

/** Items by id, the later list winning for an id seen twice, sorted by id. */
export function mergeFingerprints(...lists: ReadonlyArray<readonly FingerprintItem[]>): FingerprintItem[] {
  const byId = new Map<string, FingerprintItem>();
  for (const item of lists.flat()) byId.set(item.id, item);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The file text: a JSON array of items sorted by id, keys sorted, newline-terminated. */
export function fingerprintJson(items: readonly FingerprintItem[]): string {
  return `${stableStringify(mergeFingerprints(items))}\n`;
}
