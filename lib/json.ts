// JSON values, and JSON text that two runs can diff line by line. In lib/ because fingerprints, failures and reports
// all write it.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

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

/** A value of an answer as a failure's context keeps it (clipped: a body can be large). */
export function contextValue(value: unknown): Json {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 400 ? `${text.slice(0, 397)}...` : (JSON.parse(text) as Json);
}

/** A text's JSON value, or undefined when it is no JSON (a body sent broken on purpose, a proxy's HTML page). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
