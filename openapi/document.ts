// Loads the OpenAPI document once and gives the rest of the project a typed, $ref-resolved view of it.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, relative } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { OPERATIONS, type OperationId } from './operations.generated.ts';

export const DOCUMENT_PATH = fileURLToPath(new URL('./dialog-bot.openapi.yaml', import.meta.url));

export type Document = OpenAPIV3_1.Document;
export type SchemaObject = Record<string, unknown>;

/** One "not shown" item of the vendor specification, found where the document marks it with x-unknown. */
export interface UnknownItem {
  section: string;
  item: string;
  /** JSON pointer of the node that carries the mark. */
  pointer: string;
  /** operationId when the mark sits inside an operation. */
  operationId?: string;
}

/** An operation of the document; `Id` is a plain string only while the generated table is being written. */
export interface Operation<Id extends string = OperationId> {
  operationId: Id;
  method: string;
  path: string;
  /** "GET /v2/conversations": how QA and the vendor name an endpoint. */
  label: string;
  section: string;
  tags: string[];
  parameters: OpenAPIV3_1.ParameterObject[];
  requestBody?: OpenAPIV3_1.RequestBodyObject;
  responses: Record<string, OpenAPIV3_1.ResponseObject>;
  /** false for the vertex operations, whose token travels in the body. */
  needsBasicAuth: boolean;
  /** Each call makes a new dialog (`x-creates`, spec §3), GET create included: never sent twice on the suite's own. */
  creates: boolean;
}

/** A document that cannot be read, parsed or compiled: one line naming the file and the place. */
export class DocumentError extends Error {
  override name = 'DocumentError';
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export function parseOpenApi(text: string, file = DOCUMENT_PATH): Document {
  const where = relative(process.cwd(), file) || file;
  // Required here, not imported: most processes take the parsed document from its JSON cache (parsedOnce), and loading
  // the YAML library cost each of them (every Playwright worker, the simulator) a twentieth of a second of CPU.
  const { parseDocument } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const doc = parseDocument(text, { prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    throw new DocumentError(`${where}:${pos ? `${pos.line}:${pos.col}` : '?'}: ${first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const value = doc.toJS() as Document | null;
  if (!value || typeof value !== 'object' || !String(value.openapi ?? '').startsWith('3.1')) {
    throw new DocumentError(`${where}: not an OpenAPI 3.1 document (openapi: ${String(value?.openapi)})`);
  }
  return value;
}

/** Follows a local "#/a/b" reference; throws a DocumentError naming the dangling pointer. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new DocumentError(`${DOCUMENT_PATH}: only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new DocumentError(`${relative(process.cwd(), DOCUMENT_PATH)}: $ref ${ref} points nowhere`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function deref<T>(doc: Document, node: T | OpenAPIV3_1.ReferenceObject): T {
  let current: unknown = node;
  for (let hops = 0; current && typeof current === 'object' && '$ref' in current; hops++) {
    if (hops > 16) throw new DocumentError(`${DOCUMENT_PATH}: $ref cycle at ${(node as { $ref: string }).$ref}`);
    current = resolvePointer(doc, (current as { $ref: string }).$ref);
  }
  return current as T;
}

/** The document's operations as it holds them, before their ids are checked against the generated table. */
export function readOperations(doc: Document): Array<Operation<string>> {
  const out: Array<Operation<string>> = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new DocumentError(`${DOCUMENT_PATH}: ${method.toUpperCase()} ${path} has no operationId`);
      const responses: Record<string, OpenAPIV3_1.ResponseObject> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        responses[status] = deref<OpenAPIV3_1.ResponseObject>(doc, response);
      }
      const security = op.security ?? doc.security ?? [];
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        label: `${method.toUpperCase()} ${path}`,
        section: String((op as Record<string, unknown>)['x-spec-section'] ?? '4'),
        tags: op.tags ?? [],
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref<OpenAPIV3_1.ParameterObject>(doc, p)),
        requestBody: op.requestBody ? deref<OpenAPIV3_1.RequestBodyObject>(doc, op.requestBody) : undefined,
        responses,
        needsBasicAuth: security.some((req) => 'basicAuth' in req),
        creates: (op as Record<string, unknown>)['x-creates'] !== undefined,
      });
    }
  }
  return out;
}

export const isOperationId = (id: string): id is OperationId => Object.hasOwn(OPERATIONS, id);

/** The document's operations; one the generated table (openapi/operations.generated.ts) does not know is an error. */
export function listOperations(doc: Document): Operation[] {
  return readOperations(doc).map((op) => {
    const { operationId } = op;
    if (!isOperationId(operationId)) {
      throw new DocumentError(`${DOCUMENT_PATH}: operation ${operationId} is not in openapi/operations.generated.ts: run npm run generate:api`);
    }
    return { ...op, operationId };
  });
}

/** Every x-unknown mark in the document, in document order, so probes can prove they cover each one. */
export function listUnknowns(doc: Document): UnknownItem[] {
  const found: UnknownItem[] = [];
  const walk = (node: unknown, pointer: string, operationId?: string): void => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) walk(child, `${pointer}/${i}`, operationId);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const opId = typeof record.operationId === 'string' ? record.operationId : operationId;
    const marks = record['x-unknown'];
    for (const mark of Array.isArray(marks) ? marks : marks ? [marks] : []) {
      const { section, item } = mark as { section: string; item: string };
      found.push({ section: String(section), item, pointer, ...(opId ? { operationId: opId } : {}) });
    }
    for (const [key, child] of Object.entries(record)) {
      if (key !== 'x-unknown') walk(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, opId);
    }
  };
  // Shared components are walked once where they are defined, so a $ref'd unknown counts once.
  walk(doc, '');
  return found;
}

let cached: Document | undefined;

/**
 * The parsed document kept as JSON in this checkout's node_modules/.cache (not a directory other users can write),
 * named by the hash of its text, of this parser and of the YAML library's version, so a change to any of them parses
 * again: every Playwright worker and simulator reads it, and parsing the YAML cost each of them a tenth of a second.
 */
function parsedOnce(text: string): Document {
  const require = createRequire(import.meta.url);
  const key = createHash('sha256')
    .update(text)
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update((require('yaml/package.json') as { version: string }).version)
    .digest('hex')
    .slice(0, 20);
  const file = fileURLToPath(new URL(`../node_modules/.cache/dialog-contract/openapi-${key}.json`, import.meta.url));
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Document;
  } catch {
    // not parsed yet (or unreadable): parse and try to keep it
  }
  const doc = parseOpenApi(text);
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed, so a process reading meanwhile never sees half a file.
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(doc));
    renameSync(`${file}.${process.pid}`, file);
  } catch {
    // a read-only checkout only costs the parse
  }
  return doc;
}

/** The project's document, read and parsed once per process. */
export function loadDocument(): Document {
  if (!cached) {
    let text: string;
    try {
      text = readFileSync(DOCUMENT_PATH, 'utf8');
    } catch (err) {
      throw new DocumentError(`${DOCUMENT_PATH}: cannot read (${(err as NodeJS.ErrnoException).code ?? err})`);
    }
    cached = parsedOnce(text);
  }
  return cached;
}

/** Names of the properties a schema declares (through allOf and $ref), without those it forbids (`not`). */
export function declaredProperties(doc: Document, schemaName: string): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const schema = node as { $ref?: string; allOf?: unknown[]; properties?: Record<string, unknown> };
    if (schema.$ref) {
      walk(resolvePointer(doc, schema.$ref));
      return;
    }
    schema.allOf?.forEach(walk);
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (sub && typeof sub === 'object' && 'not' in sub) names.delete(name);
      else names.add(name);
    }
  };
  walk(doc.components?.schemas?.[schemaName]);
  return [...names];
}
