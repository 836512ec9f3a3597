// The shape of a JSON value (keys and kinds, no values): what a probe records for a body the spec does not show,
// so two runs against the same API give the same observation even though ids and times differ.
// In lib/ because three layers record shapes: the contract tests, the size-limit discovery and the report's overlay.

export type Shape = string | Shape[] | { [key: string]: Shape };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An ISO 8601 date or date-time, as the vendor writes times and as a user gives them (SAMPLE_CREATED_FROM…). */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    // Arrays are summarised by the distinct shapes of their elements.
    const distinct = new Map<string, Shape>();
    for (const item of value) {
      const s = shapeOf(item);
      distinct.set(JSON.stringify(s), s);
    }
    return [...distinct.values()];
  }
  if (typeof value === 'object') {
    const out: Record<string, Shape> = {};
    for (const key of Object.keys(value).sort()) out[key] = shapeOf((value as Record<string, unknown>)[key]);
    return out;
  }
  if (typeof value === 'string') {
    if (value === '') return 'string(empty)';
    if (UUID.test(value)) return 'string(uuid)';
    if (ISO_DATE_TIME.test(value)) return 'string(iso-date-time)';
    return 'string';
  }
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Shape of a raw body: JSON shape, or "empty" / "text" when it is not JSON. */
export function bodyShape(text: string): Shape {
  if (text.length === 0) return 'empty';
  try {
    return shapeOf(JSON.parse(text));
  } catch {
    return 'text';
  }
}
