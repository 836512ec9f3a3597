// The custom block's call to the external service (spec §6.1: "the request shape of that call: not shown"), read
// without assuming its shape: any method; a JSON body (the token at any depth), a form, a multipart form, plain text;
// the query string; headers (Authorization: Bearer, X-…-Token). No I/O: parsing happens in memory.
import { Busboy } from '@fastify/busboy';
import type { CallPlace } from '../lib/observations.ts';

export interface RawCall {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** One value the call carried, its place, and the last name of the place (the JSON key, field, parameter or header). */
export interface CallField extends CallPlace {
  name: string;
  value: string;
}

/** What the call looked like, with no values: safe to record and to print. */
export interface CallShape {
  method: string;
  contentType: string | null;
  fields: Array<CallPlace & { type: string; length: number }>;
}

/** A place as people read it: "json $.block.token", "form token", "query token", "header authorization (Bearer)". */
export function placeText(place: CallPlace): string {
  if (place.in === 'text') return 'body (text)';
  if (place.in === 'bearer') return 'header authorization (Bearer)';
  if (place.in !== 'json') return `${place.in} ${place.path.join('.')}${place.file ? ' (file)' : ''}`;
  const steps = place.path.map((key) => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`));
  return `json $${steps.join('')}`;
}

// Headers every HTTP client sends: never a token, and their values are no secret.
const PLAIN_HEADERS =
  /^(host|content-type|content-length|user-agent|accept|accept-encoding|accept-language|connection|date|keep-alive|transfer-encoding|expect|traceparent|tracestate|cache-control|pragma|priority|sec-.*)$/i;
const MAX_PART = 64 * 1024;

function jsonFields(value: unknown, path: Array<string | number>, out: CallField[], name = ''): void {
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (Array.isArray(value)) jsonFields(child, [...path, Number(key)], out, name);
      else jsonFields(child, [...path, key], out, key);
    }
    return;
  }
  out.push({ in: 'json', path, name, value: value === null ? 'null' : String(value) });
}

function formFields(body: Buffer, contentType: string, kind: 'form' | 'multipart'): Promise<CallField[]> {
  return new Promise((resolve, reject) => {
    const out: CallField[] = [];
    const parser = new Busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: MAX_PART } });
    parser.on('field', (name: string, value: string) => out.push({ in: kind, path: [name], name, value }));
    parser.on('file', (name: string, stream: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => out.push({ in: kind, path: [name], file: true, name, value: Buffer.concat(chunks).toString('utf8').slice(0, MAX_PART) }));
    });
    parser.on('finish', () => resolve(out));
    parser.on('error', reject);
    parser.end(body);
  });
}

/** Every value of the call with its place. A body that cannot be parsed as it claims is taken as text. */
export async function callFields(call: RawCall): Promise<CallField[]> {
  const out: CallField[] = [];
  const query = call.url.indexOf('?');
  if (query >= 0) for (const [name, value] of new URLSearchParams(call.url.slice(query + 1))) out.push({ in: 'query', path: [name], name, value });
  for (const [rawName, value] of Object.entries(call.headers)) {
    const name = rawName.toLowerCase();
    if (PLAIN_HEADERS.test(name)) continue;
    const bearer = name === 'authorization' ? /^bearer\s+(\S+)\s*$/i.exec(value) : null;
    out.push(bearer ? { in: 'bearer', path: [name], name, value: bearer[1]! } : { in: 'header', path: [name], name, value });
  }
  if (call.body.length === 0) return out;
  const type = (call.headers['content-type'] ?? '').toLowerCase();
  try {
    if (type.startsWith('application/x-www-form-urlencoded')) return [...out, ...(await formFields(call.body, type, 'form'))];
    if (type.startsWith('multipart/form-data')) return [...out, ...(await formFields(call.body, call.headers['content-type']!, 'multipart'))];
  } catch {
    // Not the form it claims to be: read below as JSON or text.
  }
  const text = call.body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    out.push({ in: 'text', path: [], name: '', value: text });
    return out;
  }
  jsonFields(parsed, [], out);
  return out;
}

const kindOf = (value: string) =>
  value === ''
    ? 'empty'
    : /^-?\d+$/.test(value)
      ? 'integer'
      : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
        ? 'uuid'
        : 'string';

export function callShape(call: RawCall, fields: readonly CallField[]): CallShape {
  return {
    method: call.method.toUpperCase(),
    contentType: (call.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() || null,
    fields: fields.map(({ in: part, path, file, value }) => ({ in: part, path, ...(file ? { file } : {}), type: kindOf(value), length: value.length })),
  };
}

/**
 * Where the integration token may be: the configured field (CALLBACK_TOKEN_FIELD: a name or a JSON path such as
 * "block.token", or a header name); else every value whose name mentions "token" and a Bearer credential; else,
 * when nothing is so named, every value long enough to be one. Distinct values, in the order of the call.
 */
export function tokenCandidates(fields: readonly CallField[], configured?: string): CallField[] {
  const distinct = (list: CallField[]) => list.filter((f, i) => f.value !== '' && list.findIndex((g) => g.value === f.value) === i);
  if (configured) {
    const wanted = configured.toLowerCase();
    const jsonPath = (f: CallField) => (f.in === 'json' ? f.path.join('.').toLowerCase() : undefined);
    return distinct(fields.filter((f) => f.name.toLowerCase() === wanted || jsonPath(f) === wanted || jsonPath(f)?.endsWith(`.${wanted}`)));
  }
  const named = fields.filter((f) => /token/i.test(f.name) || f.in === 'bearer');
  return distinct(named.length > 0 ? named : fields.filter((f) => f.value.length >= 8 && kindOf(f.value) === 'string'));
}

/**
 * Values to treat as secret before anything can print them: every value that could be a credential (a token
 * candidate, or any text of 8 characters or more that is not a number or a UUID, which name dialogs). The listener
 * adds them to the secret guard's list as soon as it receives the call.
 */
export function secretCandidates(fields: readonly CallField[], configured?: string): string[] {
  const credentials = tokenCandidates(fields, configured).map((f) => f.value);
  const texts = fields.map((f) => f.value).filter((v) => v.length >= 8 && kindOf(v) === 'string');
  return [...new Set([...credentials, ...texts])];
}
