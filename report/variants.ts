// The documented variants of the API (spec §3, §4.1, §4.2), each exercised by a run or not, and why. Read from the
// document: a parameter it places in the query and in the JSON body of one operation is a variant in each place alone,
// in both agreeing and in both disagreeing; each documented form of a value is a variant of its own (true and false; a
// date alone, with a time, with a zone as Z and as an offset for an ISO 8601 filter). And every write (start, stop,
// send, command goto) tried right after each write a dialog can have had: its create by each operation, and each of
// those writes. What a run sent is read from its HAR, what it walked from its steps of §3. Pure.
import type { Document, Operation } from '../openapi/document.ts';
import type { HarEntry } from './har.ts';

export interface Variant {
  /** Stable: "postV2DialogCreate response: in the query alone, true", "postV2ConversationStart after postV2ConversationCommand". */
  id: string;
  section: string;
  /** The operation's label, as QA names it. */
  operation: string;
  /** The variant in words. */
  variant: string;
}

export interface VariantRow extends Variant {
  /** Requests (or steps) of the run that exercised it. */
  exercised: number;
  /** The first test that did. */
  by?: string;
  /** Why the run did not, when it did not. */
  reason?: string;
}

/** A request as the variants read it: its operation, its query, its JSON body when that is an object. */
export interface SentRequest {
  operationId: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  test: string;
}

/** A step of the walk of §3 (contract/core/journal.ts WalkedStep): the trigger's operation and the write before it. */
export interface StepAfter {
  operationId: string;
  prior: string | null | undefined;
  test: string;
}

/** The four forms §4.1 gives an ISO 8601 filter: "ISO 8601; time and time zone may be added". */
export const ISO_FORMS = ['a date alone', 'a date and a time', 'a date and a time with Z', 'a date and a time with an offset'] as const;
type IsoForm = (typeof ISO_FORMS)[number];

/** Which of the four forms an ISO 8601 value has, if any. */
export function isoForm(value: string): IsoForm | undefined {
  const time = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?/;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'a date alone';
  if (!time.test(value)) return undefined;
  const zone = value.replace(time, '');
  if (zone === '') return 'a date and a time';
  if (zone === 'Z') return 'a date and a time with Z';
  return /^[+-]\d{2}(:?\d{2})?$/.test(zone) ? 'a date and a time with an offset' : undefined;
}

type Kind = 'boolean' | 'iso8601' | 'value';

/** An input of an operation: where the document places it, and what kind of value it takes. */
interface Input {
  name: string;
  inQuery: boolean;
  inBody: boolean;
  kind: Kind;
}

const resolved = (doc: Document, schema: unknown): Record<string, unknown> => {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return (schema ?? {}) as Record<string, unknown>;
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc) as Record<string, unknown>;
};

function kindOf(doc: Document, schema: unknown): Kind {
  const s = resolved(doc, schema);
  if (s.type === 'boolean') return 'boolean';
  const formats = [s, ...((s.anyOf as unknown[] | undefined) ?? [])].map((x) => (x as { format?: unknown }).format);
  return formats.includes('date') ? 'iso8601' : 'value';
}

/** The query parameters and JSON body fields of an operation, each once with every place it has. */
function inputsOf(doc: Document, op: Operation<string>): Input[] {
  const body = resolved(doc, op.requestBody?.content?.['application/json']?.schema);
  const bodyFields = (body.properties ?? {}) as Record<string, unknown>;
  const inputs = new Map<string, Input>();
  for (const p of op.parameters.filter((p) => p.in === 'query'))
    inputs.set(p.name, { name: p.name, inQuery: true, inBody: p.name in bodyFields, kind: kindOf(doc, p.schema) });
  for (const [name, schema] of Object.entries(bodyFields))
    if (!inputs.has(name)) inputs.set(name, { name, inQuery: false, inBody: true, kind: kindOf(doc, schema) });
  return [...inputs.values()];
}

/** What a request sent of an input: where, and in which form. */
interface Sent {
  query?: string;
  body?: unknown;
}

const formsOf = (kind: Kind): readonly string[] => (kind === 'boolean' ? ['true', 'false'] : kind === 'iso8601' ? ISO_FORMS : ['given']);

/** The form of a value as sent: "true"/"false" for a boolean (a query string or a JSON boolean), an ISO form, or "given". */
function formOf(kind: Kind, value: unknown): string | undefined {
  if (kind === 'boolean') return value === true || value === 'true' ? 'true' : value === false || value === 'false' ? 'false' : undefined;
  if (kind === 'iso8601') return typeof value === 'string' ? isoForm(value) : undefined;
  return 'given';
}

/** One documented variant and the requests that exercise it. */
interface RequestVariant extends Variant {
  matches: (request: SentRequest) => boolean;
}

function inputVariants(op: Operation<string>, input: Input): RequestVariant[] {
  const sent = (r: SentRequest): Sent => ({
    ...(input.name in r.query ? { query: r.query[input.name] } : {}),
    ...(r.body && input.name in r.body ? { body: r.body[input.name] } : {}),
  });
  const variant = (words: string, test: (s: Sent) => boolean): RequestVariant => ({
    id: `${op.operationId} ${input.name}: ${words}`,
    section: op.section,
    operation: op.label,
    variant: `${input.name} ${words}`,
    matches: (r) => r.operationId === op.operationId && test(sent(r)),
  });
  const form = (value: unknown) => formOf(input.kind, value);
  const forms = formsOf(input.kind);
  const formWords = (f: string) => (f === 'given' ? '' : `, ${f}`);
  if (!(input.inQuery && input.inBody)) {
    const place = input.inQuery ? 'in the query' : 'in the JSON body';
    const value = (s: Sent) => (input.inQuery ? s.query : s.body);
    return forms.map((f) => variant(`${place}${formWords(f)}`, (s) => value(s) !== undefined && form(value(s)) === f));
  }
  // Two places, neither said to win (§4.2): each alone, both with one value, both with two.
  const same = (s: Sent) => (input.kind === 'value' ? s.query === s.body : form(s.query) === form(s.body));
  const both = (s: Sent) => s.query !== undefined && s.body !== undefined;
  return [
    ...forms.map((f) => variant(`in the query alone${formWords(f)}`, (s) => s.body === undefined && s.query !== undefined && form(s.query) === f)),
    ...forms.map((f) => variant(`in the JSON body alone${formWords(f)}`, (s) => s.query === undefined && s.body !== undefined && form(s.body) === f)),
    ...forms.map((f) => variant(`in both, agreeing${formWords(f)}`, (s) => both(s) && same(s) && form(s.query) === f)),
    variant('in both, disagreeing', (s) => both(s) && !same(s)),
  ];
}

/** The operations a write of §3 and §4.2 can be: the creates, then the triggers on a dialog. */
export const WRITES = ['getV1DialogCreate', 'getV2DialogCreate', 'postV2DialogCreate'] as const;
export const TRIGGER_OPERATIONS = ['postV2ConversationStart', 'postV2ConversationStop', 'postV2ConversationSend', 'postV2ConversationCommand'] as const;

/** The id of a write tried right after another: "postV2ConversationStart after postV2ConversationCommand". */
export const afterId = (trigger: string, prior: string) => `${trigger} after ${prior}`;

/** Every documented variant of the document's operations: its inputs' places and forms, then the writes in sequence. */
export function documentedVariants(doc: Document, operations: ReadonlyArray<Operation<string>>): { requests: RequestVariant[]; sequences: Variant[] } {
  const requests = operations.flatMap((op) => inputsOf(doc, op).flatMap((input) => inputVariants(op, input)));
  const label = (id: string) => operations.find((op) => op.operationId === id)?.label ?? id;
  // §3's state table for start and stop, §4.2 for every trigger's answer.
  const sequences = TRIGGER_OPERATIONS.flatMap((trigger) =>
    [...WRITES, ...TRIGGER_OPERATIONS].map((prior) => ({
      id: afterId(trigger, prior),
      section: '3, 4.2',
      operation: label(trigger),
      variant: `right after ${label(prior)}`,
    })),
  );
  return { requests, sequences };
}

/** A HAR entry as the variants read it (throttled answers were waited out and sent again: the request counts once). */
export function sentRequest(entry: HarEntry): SentRequest | undefined {
  if (entry._throttled) return undefined;
  let body: unknown;
  try {
    body = entry.request.postData ? JSON.parse(entry.request.postData.text) : undefined;
  } catch {
    body = undefined; // not JSON: no body field was sent
  }
  const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  return {
    operationId: entry._operationId,
    query: Object.fromEntries(entry.request.queryString.map((q) => [q.name, q.value])),
    body: object,
    test: entry._test,
  };
}

/** Each documented variant with how often the run exercised it, by which test first, or why it did not. */
export function variantMatrix(
  variants: ReturnType<typeof documentedVariants>,
  requests: readonly SentRequest[],
  steps: readonly StepAfter[],
  reasons: Record<string, string>,
): VariantRow[] {
  const row = (v: Variant, hits: ReadonlyArray<{ test: string }>): VariantRow => {
    const { id, section, operation, variant } = v;
    const reason = reasons[id];
    return { id, section, operation, variant, exercised: hits.length, ...(hits[0] ? { by: hits[0].test } : reason ? { reason } : {}) };
  };
  return [
    ...variants.requests.map((v) => row(v, requests.filter(v.matches))),
    ...variants.sequences.map((v) =>
      row(
        v,
        steps.filter((s) => s.prior && afterId(s.operationId, s.prior) === v.id),
      ),
    ),
  ];
}
