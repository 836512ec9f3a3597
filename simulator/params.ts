// Parsing of path, query and body values. Each parser throws an HttpError with the status the specification
// documents for that operation (400 where listed, else 404 "parameter value is wrong", spec §7).
import { HttpError } from './exchange.ts';
import { offsetMinutes } from './times.ts';
import { isCalendarDate } from '../lib/calendar.ts';

const INTEGER = /^-?\d{1,16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

export function parseInteger(text: string, status: number, what: string): number {
  const value = Number(text);
  if (!INTEGER.test(text) || !Number.isSafeInteger(value)) throw new HttpError(status, `${what} must be an integer, got ${quote(text)}`);
  return value;
}

export function parsePositive(text: string, status: number, what: string): number {
  const value = parseInteger(text, status, what);
  if (value <= 0) throw new HttpError(status, `${what} must be 1 or more, got ${value}`);
  return value;
}

export function parseUuid(text: string, status: number, what: string): string {
  if (!UUID.test(text)) throw new HttpError(status, `${what} must be a UUID, got ${quote(text)}`);
  return text.toLowerCase();
}

/** A boolean query value: true/false (also 1/0, as form-encoded clients send). */
export function parseBoolean(text: string, status: number, what: string): boolean {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new HttpError(status, `${what} must be true or false, got ${quote(text)}`);
}

/**
 * An ISO 8601 filter bound as epoch ms: a date ("2026-01-31", UTC; as an upper bound it covers the whole day)
 * or a date-time with optional seconds, a fraction of any length and an offset (±hh:mm, ±hhmm, ±hh; none: UTC), years
 * 0001 to 9999.
 */
export function parseFilterDate(text: string, upper: boolean, status: number, what: string): number {
  const date = DATE.exec(text);
  const dateTime = date ? undefined : DATE_TIME.exec(text);
  const m = date ?? dateTime;
  const bad = () => new HttpError(status, `${what} must be an ISO 8601 date or date-time (2026-01-31 or 2026-01-31T10:00:00+02:00), got ${quote(text)}`);
  if (!m) throw bad();
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isCalendarDate(year, month, day)) throw bad();
  // Date.UTC reads years 0-99 as 1900-1999: the year is set apart so that 0001 is year 1.
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  if (date) return probe.getTime() + (upper ? 86_400_000 - 1 : 0);
  const [hours, minutes, seconds] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) throw bad();
  const offset = offsetMinutes(m[8] ?? 'Z');
  const fraction = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  return probe.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000 + fraction - offset * 60_000;
}

/** The request body as JSON; `required` false lets an empty body through as undefined. */
export function parseJsonBody(body: Buffer, status: number, required: boolean): unknown {
  if (body.length === 0) {
    if (required) throw new HttpError(status, 'a JSON body is required');
    return undefined;
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpError(status, `the body is not valid JSON (${(err as Error).message})`);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value at a dotted path ("message.text") of a JSON value, or undefined when the path does not lead anywhere. */
export function valueAt(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined), value);
}

/** `variables`: a JSON object serialized as a string (spec §4.1). */
export function parseVariables(text: string, status: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(status, `variables must be a JSON object serialized as a string, got ${quote(text)}`);
  }
  if (!isObject(value)) throw new HttpError(status, `variables must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

/** A user value inside a message, shortened so a huge input cannot make a huge error body. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
