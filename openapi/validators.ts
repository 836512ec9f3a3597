// The one place where ajv lives: the document's schemas are compiled once per (operationId, status, media type) and
// cached. The response checks are small named functions (not_a_server_error, status_code_conformance,
// content_type_conformance, response_schema_conformance) that turn an answer into failures (lib/failure.ts), every
// ajv error once into a place, an expectation and an observation: data, rendered elsewhere.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DocumentError, listOperations, loadDocument, type Document, type Operation, type SchemaObject } from './document.ts';
import type { OperationId } from './operations.generated.ts';
import type { Failure, FailureContext, FailureSeverity, RequestCheck, ResponseCheck } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';

// ajv-formats ships CommonJS; depending on the loader its default export arrives wrapped or not.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule.default;

const SCHEMAS_ID = 'openapi:dialog-bot';

/** An answer as the response checks read it. */
export interface ResponseToCheck {
  status: number;
  /** Value of the Content-Type header, if any. */
  contentType?: string | null;
  /** Raw body text; '' for none. */
  body: string;
  /** Value of the Content-Length header, if any: a 204 must not announce content its client will not read. */
  contentLength?: string | null;
}

/** What a request must get, and why: the expectation of the test that sent it. */
export interface StatusExpectation {
  /** The status (or statuses, or any success) this request must get; unset: any the document lists. */
  status?: number | number[] | '2XX';
  /** Why, with the run's values: "for unknown dialog 6f1c…". */
  because?: string;
  /** Spec section that documents the expected status. */
  section?: string;
  /** The check the status is: a request with wrong credentials (§5.2) or wrong input (§7) names its own. */
  check?: 'status_code_conformance' | RequestCheck;
  /** The request made the body "not shown" (POST create with response=false): the status alone is checked. */
  bodyNotShown?: boolean;
  /** Failures against a learned contract (--contract-from) are `learned`; the spec's are `breaking`. */
  severity?: FailureSeverity;
  /** The checks to make (all by default): the client checks every answer for a server error alone. */
  only?: readonly ResponseCheck[];
}

/** One answer of one operation, as every response check reads it. */
interface Answer extends ResponseToCheck {
  op: Operation;
}

type Place = Pick<Failure, 'check' | 'pointer' | 'expected' | 'section' | 'observed'> & { context?: FailureContext };

const failure = (a: Answer, e: StatusExpectation, p: Place): Failure => ({
  severity: e.severity ?? 'breaking',
  operationId: a.op.operationId,
  status: a.status,
  ...p,
  context: p.context ?? {},
});

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

/** A value of the answer as a failure's context keeps it (clipped: a body can be large). */
function contextValue(value: unknown): Json {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 400 ? `${text.slice(0, 397)}...` : (JSON.parse(text) as Json);
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

/** §7 documents no server error: a 5XX fails whatever the request was, and no other status check repeats it. */
function notAServerError(_: ContractValidators, a: Answer, e: StatusExpectation): Failure[] {
  if (a.status < 500) return [];
  return [failure(a, e, { check: 'not_a_server_error', pointer: 'status', expected: 'no server error', section: '7', observed: String(a.status) })];
}

/** The status the test expects (a set where §7 lists several), else any status the document lists. */
function statusCodeConformance(v: ContractValidators, a: Answer, e: StatusExpectation): Failure[] {
  if (a.status >= 500) return [];
  const wanted = e.status === undefined ? undefined : [e.status].flat();
  const check = e.check ?? 'status_code_conformance';
  if (wanted && !wanted.some((w) => (w === '2XX' ? a.status >= 200 && a.status < 300 : w === a.status))) {
    const because = e.because ? { because: e.because } : {};
    const expected = wanted.join(' or ');
    return [failure(a, e, { check, pointer: 'status', expected, section: e.section ?? '7', observed: String(a.status), context: because })];
  }
  if (v.responseKey(a.op, a.status)) return [];
  const expected = `one of ${Object.keys(a.op.responses).join(', ')}`;
  return [failure(a, e, { check, pointer: 'status', expected, section: '7', observed: `undocumented status ${a.status}` })];
}

/** The documented response of the answer's status, unless the status is undocumented or its body not checked. */
function documentedResponse(v: ContractValidators, a: Answer, e: StatusExpectation) {
  const key = e.bodyNotShown ? undefined : v.responseKey(a.op, a.status);
  const response = key === undefined ? undefined : a.op.responses[key];
  if (!key || !response) return undefined;
  const section = String((response as Record<string, unknown>)['x-spec-section'] ?? a.op.section);
  return { key, response, section, mediaTypes: Object.keys(response.content ?? {}) };
}

/** The media type the document declares for the answer's content type (or the open "any" type of an error body). */
function declaredMediaType(mediaTypes: readonly string[], contentType: string | null | undefined): string | undefined {
  const observed = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaTypes.includes(observed) ? observed : mediaTypes.includes('*/*') ? '*/*' : undefined;
}

function contentTypeConformance(v: ContractValidators, a: Answer, e: StatusExpectation): Failure[] {
  const documented = documentedResponse(v, a, e);
  if (!documented || documented.mediaTypes.length === 0 || declaredMediaType(documented.mediaTypes, a.contentType)) return [];
  const observed = (a.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return [
    failure(a, e, {
      check: 'content_type_conformance',
      pointer: 'content-type',
      expected: `content type ${documented.mediaTypes.join(' or ')}`,
      section: documented.section,
      observed: observed ? `content type ${observed}` : 'no content type',
    }),
  ];
}

/** The body the document describes: empty where no content is declared, else the schema of its media type. */
function responseSchemaConformance(v: ContractValidators, a: Answer, e: StatusExpectation): Failure[] {
  const documented = documentedResponse(v, a, e);
  if (!documented) return [];
  const { key, response, section, mediaTypes } = documented;
  const body = (p: Pick<Place, 'expected' | 'observed' | 'section'> & { value?: unknown }) =>
    failure(a, e, { check: 'response_schema_conformance', pointer: 'body', ...p, context: p.value === undefined ? {} : { value: contextValue(p.value) } });
  if (mediaTypes.length === 0) {
    // No content declared: an empty body is documented (204), unless the body is marked "not shown".
    if ((response as Record<string, unknown>)['x-unknown']) return [];
    // HTTP clients do not read the body of a 204 (RFC 9110 §15.3.5): one the server announces shows in its length.
    const announced = Number(a.contentLength ?? 0);
    if (a.body.length === 0 && !(announced > 0)) return [];
    const expected = `an empty body for ${a.status}`;
    const seen = a.body.length > 0 ? { observed: 'a body', value: a.body } : { observed: 'a Content-Length', value: announced };
    return [body({ expected, section: '7', ...seen })];
  }
  const mediaType = declaredMediaType(mediaTypes, a.contentType);
  // Another content type is content_type_conformance's; the document leaves a */* body open (the probes observe it).
  if (!mediaType || mediaType === '*/*') return [];
  // A JSON media type's schema describes the parsed body; any other's (text/plain) the body as a string.
  let parsed: unknown = a.body;
  if (/^application\/([\w.-]+\+)?json$/.test(mediaType)) {
    try {
      parsed = JSON.parse(a.body);
    } catch {
      return [body({ expected: 'a JSON body', section, observed: 'a body that is not JSON', value: a.body })];
    }
  }
  const validate = v.validator(a.op.operationId, key, mediaType);
  if (validate(parsed)) return [];
  return v.explain(parsed, validate.errors ?? []).map((place) => failure(a, e, { ...place, section: place.section ?? section }));
}

/** The response checks by name, in the order they are made. */
const RESPONSE_CHECKS: Record<ResponseCheck, (v: ContractValidators, a: Answer, e: StatusExpectation) => Failure[]> = {
  not_a_server_error: notAServerError,
  status_code_conformance: statusCodeConformance,
  content_type_conformance: contentTypeConformance,
  response_schema_conformance: responseSchemaConformance,
};

export class ContractValidators {
  readonly operations: Map<OperationId, Operation>;
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

  /** Every way an answer differs from what the document, and the test's expectation, say of it; [] when it conforms. */
  check(operationId: OperationId, res: ResponseToCheck, expectation: StatusExpectation = {}): Failure[] {
    const answer = { ...res, op: this.operation(operationId) };
    const checks = expectation.only ?? (Object.keys(RESPONSE_CHECKS) as ResponseCheck[]);
    return checks.flatMap((name) => RESPONSE_CHECKS[name](this, answer, expectation));
  }

  /** ajv errors as places of response_schema_conformance, without the noise of anyOf branches. */
  explain(body: unknown, errors: ErrorObject[]): Array<Omit<Place, 'section'> & { section: string | undefined }> {
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
        check: 'response_schema_conformance' as const,
        pointer,
        expected,
        section: e.parentSchema ? this.sections.get(e.parentSchema) : undefined,
        observed: missing === undefined ? kindOf(e.data) : 'missing property',
        context: { location: jsonPath(body, segments), ...(missing === undefined ? { value: contextValue(e.data) } : {}) },
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
