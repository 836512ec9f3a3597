// The list envelope (spec §2.3): keys "0".."count-1" holding the items, plus meta.pagination. The field names and
// types come from the OpenAPI document at build time (load/openapi-data.ts), so this check re-declares nothing; it
// stays a few lines of plain code because k6 cannot run ajv.
import type { Json } from '../lib/json.ts';

/** meta.pagination of a list envelope (spec §2.3). */
export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
  links: Json;
}

export interface EnvelopeShape {
  /** Required fields of meta.pagination and their JSON Schema types. */
  pagination: Record<string, string>;
  /** Required fields of every list item. */
  itemFields: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    default:
      return typeof value === type;
  }
}

/** What is wrong with a list body, in words; empty when it has the envelope's shape. */
export function envelopeProblems(body: unknown, shape: EnvelopeShape): string[] {
  if (!isObject(body)) return ['the body is not a JSON object'];
  const pagination = isObject(body.meta) ? body.meta.pagination : undefined;
  if (!isObject(pagination)) return ['meta.pagination is missing'];
  const problems: string[] = [];
  for (const [field, type] of Object.entries(shape.pagination)) {
    if (!hasType(pagination[field], type)) problems.push(`meta.pagination.${field} is not a${/^[aeiou]/.test(type) ? 'n' : ''} ${type}`);
  }
  const count = pagination.count;
  const itemKeys = Object.keys(body).filter((key) => key !== 'meta');
  if (Number.isInteger(count)) {
    const expected = Array.from({ length: count as number }, (_, i) => String(i));
    if (itemKeys.length !== expected.length || expected.some((key) => !(key in body))) {
      problems.push(
        `item keys are ${itemKeys.slice(0, 5).join(',') || 'none'}${itemKeys.length > 5 ? ',…' : ''}, expected "0".."${(count as number) - 1}" (count ${count})`,
      );
    }
  }
  for (const key of itemKeys) {
    const item = body[key];
    const missing = isObject(item) ? shape.itemFields.filter((field) => !(field in item)) : shape.itemFields;
    if (missing.length > 0) {
      problems.push(`item "${key}" lacks ${missing.join(', ')}`);
      break; // one item says enough
    }
  }
  return problems;
}
