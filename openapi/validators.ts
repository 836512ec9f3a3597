// The one place where ajv lives: the document's schemas are compiled once per (operationId, status, media type) and
// cached, and every ajv error is turned once into a place, an expectation and an observation: data, rendered
// elsewhere. The response checks that use them (not_a_server_error, status_code_conformance, content_type_conformance,
// response_schema_conformance) are in the registry of checks (checks/response.ts).
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { DocumentError, listOperations, loadDocument, type Document, type Operation, type SchemaObject } from './document.ts';
import type { OperationId } from './operations.generated.ts';
import { contextValue, type Json } from '../lib/json.ts';

/**
 * ajv and its formats, loaded on the first validator asked for (a tenth of a second of a process's start that most of
 * the run's processes never use). Both ship CommonJS; ajv-formats' default export arrives wrapped or not by loader.
 */
function loadAjv(): { Ajv: typeof Ajv2020; addFormats: typeof addFormatsModule.default } {
  const require = createRequire(import.meta.url);
  const formats = require('ajv-formats') as { default?: unknown };
  return {
    Ajv: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
    addFormats: (formats.default ?? formats) as typeof addFormatsModule.default,
  };
}

const SCHEMAS_ID = 'openapi:dialog-bot';

/** A place in a body the schema refused: a stable JSON pointer, what the schema asks, what was there. */
export interface SchemaPlace {
  pointer: string;
  expected: string;
  /** The section of the schema that refused it (its nearest x-spec-section), when it has one. */
  section: string | undefined;
  observed: string;
  location: string;
  value?: Json;
}

/** JSON pointer of a place in a body, list positions as "*": the same drift gets the same place in every run. */
function stablePointer(segments: readonly string[]): string {
  return segments.map((s) => `/${/^\d+$/.test(s) ? '*' : s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') || '/';
}

/** The segments of an ajv instance path (a JSON Pointer), unescaped. */
const segmentsOf = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

/** "$", then .name, ["0"] (object key) or [3] (array index): the way QA reads a place in a JSON body. */
function jsonPath(root: unknown, segments: readonly string[]): string {
  let node = root;
  let out = '$';
  for (const part of segments) {
    if (Array.isArray(node)) out += `[${part}]`;
    else out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return out;
}

/** The kind of a JSON value, as a failure names what it observed: "string", "number", "null", "array"… */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

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
  readonly operations: Map<OperationId, Operation>;
  private compiler?: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  /** Each schema node of the document -> the spec section it inherits from its nearest x-spec-section. */
  private readonly sections = new WeakMap<object, string>();

  constructor(readonly doc: Document = loadDocument()) {
    this.operations = new Map(listOperations(doc).map((op) => [op.operationId, op]));
  }

  /**
   * ajv with the document's schemas, made on the first validator asked for: a process that only reads the operations
   * (Playwright's runner listing the tests, each worker loading its spec files) does not compile JSON Schema 2020-12's
   * meta-schema, a fifth of a second of each one's start.
   */
  private get ajv(): Ajv2020 {
    if (this.compiler) return this.compiler;
    const { Ajv, addFormats } = loadAjv();
    // The document's schemas are checked against JSON Schema 2020-12 by its unit test (openapi/validators.test.ts),
    // not again in each process: compiling the meta-schema was a tenth of a second of every process that validates.
    const ajv = new Ajv({ strict: true, allErrors: true, verbose: true, validateFormats: true, validateSchema: false });
    addFormats(ajv);
    // Our annotations are documentation for humans and probes, not validation keywords; x-observed is what a run
    // learned (the overlay of report/overlay.ts).
    ajv.addVocabulary(['x-spec-section', 'x-unknown', 'x-observed', 'x-identifies', 'x-carries']);
    try {
      const defs = this.rewriteRefs(this.doc.components?.schemas ?? {});
      this.indexSections(defs, undefined);
      ajv.addSchema({ $id: SCHEMAS_ID, $defs: defs });
    } catch (err) {
      throw new DocumentError(`openapi/dialog-bot.openapi.yaml: components.schemas: ${(err as Error).message}`);
    }
    this.compiler = ajv;
    return ajv;
  }

  /** "#/components/schemas/X" -> "openapi:dialog-bot#/$defs/X", so one registered schema resolves them all. */
  private rewriteRefs<T>(node: T): T {
    return JSON.parse(JSON.stringify(node).replace(/"#\/components\/schemas\//g, `"${SCHEMAS_ID}#/$defs/`)) as T;
  }

  // ajv hands back the very schema object that failed (verbose: parentSchema), so an identity map finds its section.
  private indexSections(node: unknown, inherited: string | undefined): void {
    if (!node || typeof node !== 'object') return;
    const own = (node as Record<string, unknown>)['x-spec-section'];
    const section = own === undefined ? inherited : String(own);
    if (section) this.sections.set(node, section);
    for (const child of Object.values(node)) this.indexSections(child, section);
  }

  operation(operationId: OperationId): Operation {
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
  validator(operationId: OperationId, statusKey: string, mediaType: string): ValidateFunction {
    const key = `${operationId} ${statusKey} ${mediaType}`;
    let fn = this.cache.get(key);
    if (!fn) {
      const op = this.operation(operationId);
      const schema = op.responses[statusKey]?.content?.[mediaType]?.schema ?? {};
      try {
        fn = this.ajv.compile(this.rewriteRefs(schema as SchemaObject));
      } catch (err) {
        throw new DocumentError(`openapi/dialog-bot.openapi.yaml: ${op.label} responses.${statusKey}.content.${mediaType}: ${(err as Error).message}`);
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

  documentedStatuses(operationId: OperationId): string[] {
    return Object.keys(this.operation(operationId).responses);
  }

  /**
   * The statuses spec §7 allows an operation for a cause, among those documented for it. Bad input is "a parameter
   * has the wrong format" (400) or "a parameter value is wrong" (404): both where both are listed, as for send and
   * command. Where §7 lists several, a test accepts the set.
   */
  statusesFor(operationId: OperationId, cause: 'bad-input' | 'not-found' | 'forbidden' | 'unauthorized'): number[] {
    const causes = { 'bad-input': [400, 404], 'not-found': [404], forbidden: [403], unauthorized: [401] };
    const documented = this.documentedStatuses(operationId);
    return causes[cause].filter((status) => documented.includes(String(status)));
  }

  /** ajv errors as the places a body breaks the schema, without the noise of anyOf branches. */
  explain(body: unknown, errors: ErrorObject[]): SchemaPlace[] {
    const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
    const out = [];
    const seen = new Set<string>();
    for (const e of errors) {
      // Branch failures of an anyOf (at its place or below) are summarised by the anyOf error itself.
      if (e.keyword !== 'anyOf' && [...anyOfPaths].some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`))) continue;
      // A missing property is placed at the property itself; every other finding at the value the schema refused.
      const missing = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : undefined;
      const segments = [...segmentsOf(e.instancePath), ...(missing === undefined ? [] : [missing])];
      const expected = ((): string => {
        switch (e.keyword) {
          case 'required':
            return 'required property';
          case 'not':
          case 'false schema':
            return 'no such property';
          case 'anyOf':
            return ((e.schema as unknown[]) ?? []).map((branch) => describeSchema(branch, this.doc.components?.schemas ?? {})).join(' or ');
          case 'type':
            return `type ${String((e.params as { type: string }).type)}`;
          case 'format':
            return `format ${String((e.params as { format: string }).format)}`;
          default:
            return `${e.message ?? e.keyword}`;
        }
      })();
      const pointer = stablePointer(segments);
      if (seen.has(`${pointer}|${expected}`)) continue;
      seen.add(`${pointer}|${expected}`);
      out.push({
        pointer,
        expected,
        section: e.parentSchema ? this.sections.get(e.parentSchema) : undefined,
        observed: missing === undefined ? kindOf(e.data) : 'missing property',
        location: jsonPath(body, segments),
        ...(missing === undefined ? { value: contextValue(e.data) } : {}),
      });
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
