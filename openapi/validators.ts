// The one place where ajv lives: the document's schemas are compiled once per (operationId, status, media type),
// cached, and every ajv error is turned once into a sentence QA can paste into a vendor ticket.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  DocumentError,
  listOperations,
  loadDocument,
  type Document,
  type Operation,
  type SchemaObject,
} from './document.ts';

// ajv-formats ships CommonJS; depending on the loader its default export arrives wrapped or not.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule.default;

const SCHEMAS_ID = 'openapi:dialog-bot';

/** One way a response differs from the document. `message` is the pasteable line. */
export interface Problem {
  operation: string;
  operationId: string;
  status: number;
  /** JSONPath-like place in the body ("$[\"0\"].source"), or "status" / "content-type" / "body". */
  location: string;
  /** The same place as a JSON pointer, list positions replaced by a star: stable across runs. */
  pointer: string;
  expected: string;
  observed: string;
  section: string;
  message: string;
}

export interface ResponseToCheck {
  status: number;
  /** Value of the Content-Type header, if any. */
  contentType?: string | null;
  /** Raw body text; '' for none. */
  body: string;
  /** Value of the Content-Length header, if any: a 204 must not announce content its client will not read. */
  contentLength?: string | null;
}

export interface CheckOptions {
  /** The request made the body "not shown" (POST create with response=false): check status only. */
  bodyNotShown?: boolean;
}

type Place = Omit<Problem, 'operation' | 'operationId' | 'status' | 'message' | 'pointer'> & { pointer?: string };

/** A problem; the pointer of a place outside the body (status, content-type, body) is its name. */
function problem(op: Operation, status: number, p: Place): Problem {
  return {
    operation: op.label,
    operationId: op.operationId,
    status,
    ...p,
    pointer: p.pointer ?? p.location,
    message: `${op.label} → ${status}: ${p.location}: expected ${p.expected} (spec §${p.section}), observed ${p.observed}`,
  };
}

/** JSON pointer of a place in a body, list positions as "*": the same drift gets the same place in every run. */
function stablePointer(segments: readonly string[]): string {
  return segments.map((s) => `/${/^\d+$/.test(s) ? '*' : s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') || '/';
}

/** JSON pointer of an ajv instance path (plus a missing property), list positions as "*". */
/** The segments of an ajv instance path (a JSON Pointer), unescaped. */
const segmentsOf = (instancePath: string) => instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

function pointerOf(instancePath: string, extra?: string): string {
  const segments = segmentsOf(instancePath);
  return stablePointer(extra === undefined ? segments : [...segments, extra]);
}

/** "$", then .name, ["0"] (object key) or [3] (array index): the way QA reads a place in a JSON body. */
export function jsonPath(root: unknown, instancePath: string, extra?: string): string {
  const parts = segmentsOf(instancePath);
  if (extra !== undefined) parts.push(extra);
  let node = root;
  let out = '$';
  for (const part of parts) {
    if (Array.isArray(node)) out += `[${part}]`;
    else out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return out;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const text = JSON.stringify(value) ?? String(value);
  return `${kind} ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

function describeSchema(schema: unknown, defs: Record<string, unknown>): string {
  if (schema === false || (schema && typeof schema === 'object' && 'not' in schema)) return 'no such property';
  if (!schema || typeof schema !== 'object') return 'any value';
  const s = schema as SchemaObject;
  if (s.$ref) {
    const name = String(s.$ref).split('/').pop() ?? '';
    return name in defs ? describeSchema(defs[name], defs) : name;
  }
  if (s.format) return `${String(s.type ?? 'string')} in format ${String(s.format)}`;
  if (s.maxLength === 0) return 'empty string';
  if (s.type) return Array.isArray(s.type) ? s.type.join(' or ') : String(s.type);
  return 'schema';
}

export class ContractValidators {
  readonly operations: Map<string, Operation>;
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  /** Each schema node of the document -> the spec section it inherits from its nearest x-spec-section. */
  private readonly sections = new WeakMap<object, string>();

  constructor(readonly doc: Document = loadDocument()) {
    this.operations = new Map(listOperations(doc).map((op) => [op.operationId, op]));
    this.ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true, validateFormats: true });
    addFormats(this.ajv);
    // Our annotations are documentation for humans and probes, not validation keywords; x-observed is what a run
    // learned (the overlay of report/overlay.ts).
    this.ajv.addVocabulary(['x-spec-section', 'x-unknown', 'x-observed']);
    try {
      const defs = this.rewriteRefs(doc.components?.schemas ?? {});
      this.indexSections(defs, undefined);
      this.ajv.addSchema({ $id: SCHEMAS_ID, $defs: defs });
    } catch (err) {
      throw new DocumentError(`openapi/dialog-bot.openapi.yaml: components.schemas: ${(err as Error).message}`);
    }
  }

  /** "#/components/schemas/X" -> "openapi:dialog-bot#/$defs/X", so one registered schema resolves them all. */
  private rewriteRefs<T>(node: T): T {
    return JSON.parse(
      JSON.stringify(node).replace(/"#\/components\/schemas\//g, `"${SCHEMAS_ID}#/$defs/`),
    ) as T;
  }

  // ajv hands back the very schema object that failed (verbose: parentSchema), so an identity map finds its section.
  private indexSections(node: unknown, inherited: string | undefined): void {
    if (!node || typeof node !== 'object') return;
    const own = (node as Record<string, unknown>)['x-spec-section'];
    const section = own === undefined ? inherited : String(own);
    if (section) this.sections.set(node, section);
    for (const child of Object.values(node)) this.indexSections(child, section);
  }

  operation(operationId: string): Operation {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`unknown operationId ${operationId}; the document has ${[...this.operations.keys()].join(', ')}`);
    return op;
  }

  /** The documented response key for a status: exact code first, then its range ("2XX"), then default. */
  responseKey(op: Operation, status: number): string | undefined {
    const exact = String(status);
    const range = `${exact[0]}XX`;
    return [exact, range, 'default'].find((key) => key in op.responses);
  }

  /** Compiled validator for one (operation, status key, media type); compiled once, then cached. */
  validator(operationId: string, statusKey: string, mediaType: string): ValidateFunction {
    const key = `${operationId} ${statusKey} ${mediaType}`;
    let fn = this.cache.get(key);
    if (!fn) {
      const op = this.operation(operationId);
      const schema = op.responses[statusKey]?.content?.[mediaType]?.schema ?? {};
      try {
        fn = this.ajv.compile(this.rewriteRefs(schema as SchemaObject));
      } catch (err) {
        throw new DocumentError(
          `openapi/dialog-bot.openapi.yaml: ${op.label} responses.${statusKey}.content.${mediaType}: ${(err as Error).message}`,
        );
      }
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** Compiles every response validator of the document; returns how many. */
  compileAll(): number {
    let n = 0;
    for (const op of this.operations.values()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const mediaType of Object.keys(response.content ?? {})) {
          this.validator(op.operationId, status, mediaType);
          n++;
        }
      }
    }
    return n;
  }

  documentedStatuses(operationId: string): string[] {
    return Object.keys(this.operation(operationId).responses);
  }

  /**
   * The statuses spec §7 allows an operation for a cause, among those documented for it. Bad input is "a parameter
   * has the wrong format" (400) or "a parameter value is wrong" (404): both where both are listed, as for send and
   * command. Where §7 lists several, a test accepts the set.
   */
  statusesFor(operationId: string, cause: 'bad-input' | 'not-found' | 'forbidden' | 'unauthorized'): number[] {
    const causes = { 'bad-input': [400, 404], 'not-found': [404], forbidden: [403], unauthorized: [401] };
    const documented = this.documentedStatuses(operationId);
    return causes[cause].filter((status) => documented.includes(String(status)));
  }

  /** Every way `res` differs from what the document says of `operationId`; [] when it conforms. */
  check(operationId: string, res: ResponseToCheck, options: CheckOptions = {}): Problem[] {
    const op = this.operation(operationId);
    const statusKey = this.responseKey(op, res.status);
    if (!statusKey) {
      return [
        problem(op, res.status, {
          location: 'status',
          expected: `one of ${Object.keys(op.responses).join(', ')}`,
          observed: `undocumented status ${res.status}`,
          section: '7',
        }),
      ];
    }
    if (options.bodyNotShown) return [];
    const response = op.responses[statusKey]!;
    const section = String((response as Record<string, unknown>)['x-spec-section'] ?? op.section);
    const content = response.content ?? {};
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) {
      // No content declared: an empty body is documented (204), unless the body is marked "not shown".
      if ((response as Record<string, unknown>)['x-unknown']) return [];
      // HTTP clients do not read the body of a 204 (RFC 9110 §15.3.5): one the server announces shows in its length.
      const announced = Number(res.contentLength ?? 0);
      if (res.body.length === 0 && !(announced > 0)) return [];
      return [problem(op, res.status, { location: 'body', expected: `an empty body for ${res.status}`, observed: res.body.length > 0 ? describeValue(res.body) : `Content-Length ${announced}`, section: '7' })];
    }
    const observedType = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const mediaType = mediaTypes.includes(observedType) ? observedType : mediaTypes.includes('*/*') ? '*/*' : undefined;
    if (!mediaType) {
      return [
        problem(op, res.status, {
          location: 'content-type',
          expected: `content type ${mediaTypes.join(' or ')}`,
          observed: observedType ? `content type ${observedType}` : 'no content type',
          section,
        }),
      ];
    }
    if (mediaType === '*/*') return []; // the document leaves this body open: the probes observe it instead
    // A JSON media type's schema describes the parsed body; any other's (text/plain) the body as a string.
    let body: unknown = res.body;
    if (/^application\/([\w.-]+\+)?json$/.test(mediaType)) {
      try {
        body = JSON.parse(res.body);
      } catch {
        return [problem(op, res.status, { location: 'body', expected: 'a JSON body', observed: describeValue(res.body), section })];
      }
    }
    const validate = this.validator(operationId, statusKey, mediaType);
    if (validate(body)) return [];
    return this.explain(body, validate.errors ?? []).map((e) => problem(op, res.status, { ...e, section: e.section ?? section }));
  }

  /** Turns ajv errors into (location, expected, observed, section), dropping the noise of anyOf branches. */
  private explain(body: unknown, errors: ErrorObject[]): Array<Omit<Problem, 'operation' | 'operationId' | 'status' | 'message' | 'section'> & { section?: string }> {
    const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
    const out = [];
    const seen = new Set<string>();
    for (const e of errors) {
      // Branch failures of an anyOf (at its place or below) are summarised by the anyOf error itself.
      if (e.keyword !== 'anyOf' && [...anyOfPaths].some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`))) continue;
      const section = e.parentSchema ? this.sections.get(e.parentSchema) : undefined;
      // A missing property is placed at the property itself; every other finding at the value the schema refused.
      const missing = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : undefined;
      const place = { location: jsonPath(body, e.instancePath, missing), pointer: pointerOf(e.instancePath, missing), section };
      const observed = describeValue(e.data);
      const [expected, shown] = ((): [string, string] => {
        switch (e.keyword) {
          case 'required':
            return ['required property', 'missing property'];
          case 'not':
          case 'false schema':
            return ['no such property', observed];
          case 'anyOf':
            return [((e.schema as unknown[]) ?? []).map((branch) => describeSchema(branch, this.doc.components?.schemas ?? {})).join(' or '), observed];
          case 'type':
            return [`type ${String((e.params as { type: string }).type)}`, observed];
          case 'format':
            return [`format ${String((e.params as { format: string }).format)}`, observed];
          default:
            return [`${e.message ?? e.keyword}`, observed];
        }
      })();
      const entry = { ...place, expected, observed: shown };
      const key = `${entry.location}|${entry.expected}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(entry);
      }
    }
    return out;
  }
}

let shared: ContractValidators | undefined;

/** The process-wide validators: the document is parsed and each validator compiled once. */
export function contractValidators(): ContractValidators {
  shared ??= new ContractValidators();
  return shared;
}

