// Fields a response carries that its documented schema does not declare. The document's objects are open, so such
// a field is additive drift: reported in the drift report, never a contract failure. Pure: the caller passes the
// response schema and the document its local $refs point into.
import { shapeOf, type Shape } from '../lib/shape.ts';
import { resolvePointer } from '../openapi/document.ts';

export interface UndeclaredField {
  /** "$[*].bot_id", "$.meta.pagination.has_more": list indexes and array positions read as [*]. */
  path: string;
  /** x-spec-section of the schema of the enclosing object (a record: §2.2, even where it reuses list item fields). */
  section: string | undefined;
  /** Distinct shapes of the values seen at that path, sorted. */
  shapes: Shape[];
}

type Schema = Record<string, unknown>;
type Scoped = { schema: Schema; section: string | undefined };
/** An object's schemas that declare fields, and what each key seen so far means under them. */
type ObjectScope = { describing: Scoped[]; section: string | undefined; fields: Map<string, FieldScope> };
type FieldScope = { kind: 'forbidden' | 'undeclared' } | { kind: 'declared' | 'patterned'; scoped: Scoped[] };

const patterns = new Map<string, RegExp>();
const patternOf = (pattern: string): RegExp => {
  let re = patterns.get(pattern);
  if (!re) patterns.set(pattern, (re = new RegExp(pattern, 'u')));
  return re;
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const member = (path: string, key: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** The schema with its $refs followed and its allOf/anyOf/oneOf branches flattened: every node that applies. */
function expand(node: unknown, section: string | undefined, resolve: (ref: string) => unknown, out: Scoped[] = []): Scoped[] {
  if (!isObject(node)) return out;
  const own = node['x-spec-section'] === undefined ? section : String(node['x-spec-section']);
  if (typeof node.$ref === 'string') expand(resolve(node.$ref), own, resolve, out);
  out.push({ schema: node, section: own });
  // A field declared in any branch of a union is declared: which branch matched is the validators' business.
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) expand(branch, own, resolve, out);
  }
  return out;
}

/**
 * What a document's schemas mean for the keys under them, worked out once for every response judged against it:
 * each object's scope with the keys seen so far, each array's items, each root's schemas.
 */
interface Meanings {
  roots: WeakMap<object, Scoped[]>;
  scopes: WeakMap<Scoped[], ObjectScope | null>;
  items: WeakMap<Scoped[], Scoped[]>;
}
const meaningsOf = new WeakMap<object, Meanings>();

/**
 * The fields `value` carries that `schema` (a schema of `doc`, its $refs local to it) does not declare. What the
 * document's schemas mean is kept for the document, not worked out again on every response (a long list costs a
 * lookup per field, not a schema search).
 */
export function undeclaredFields(schema: unknown, value: unknown, doc: object): UndeclaredField[] {
  const found = new Map<string, { section: string | undefined; shapes: Map<string, Shape> }>();
  const resolve = (ref: string) => resolvePointer(doc, ref);
  let meanings = meaningsOf.get(doc);
  if (!meanings) meaningsOf.set(doc, (meanings = { roots: new WeakMap(), scopes: new WeakMap(), items: new WeakMap() }));
  const { roots, scopes, items } = meanings;

  const note = (path: string, section: string | undefined, child: unknown) => {
    const entry = found.get(path) ?? { section, shapes: new Map<string, Shape>() };
    const shape = shapeOf(child);
    entry.shapes.set(JSON.stringify(shape), shape);
    found.set(path, entry);
  };

  // What each key of an object means under its schemas, worked out once per schema set: a list's items share one
  // set, so a long list costs a lookup per field instead of a schema search (and a RegExp) per field.
  const scopeOf = (scoped: Scoped[]): ObjectScope | null => {
    let scope = scopes.get(scoped);
    if (scope !== undefined) return scope;
    const describing = scoped.filter(({ schema }) => isObject(schema.properties) || isObject(schema.patternProperties));
    // An object the document leaves undescribed ({} or type object alone) has no declared fields to compare with.
    scope = describing.length === 0 ? null : { describing, section: scoped[0]!.section, fields: new Map() };
    scopes.set(scoped, scope);
    return scope;
  };
  const fieldOf = (scope: ObjectScope, key: string): FieldScope => {
    let field = scope.fields.get(key);
    if (field) return field;
    const declared = scope.describing.flatMap(({ schema, section: s }) => {
      const property = (schema.properties as Record<string, unknown> | undefined)?.[key];
      return property === undefined ? [] : [{ node: property, section: s }];
    });
    const patterned = scope.describing.flatMap(({ schema, section: s }) =>
      Object.entries((schema.patternProperties as Record<string, unknown> | undefined) ?? {})
        .filter(([pattern]) => patternOf(pattern).test(key))
        .map(([, sub]) => ({ node: sub, section: s })),
    );
    // A property the document forbids (`not`) is a contract failure the validators report, not an addition.
    if (declared.some(({ node: sub }) => isObject(sub) && 'not' in sub)) field = { kind: 'forbidden' };
    else if (declared.length > 0) field = { kind: 'declared', scoped: declared.flatMap((d) => expand(d.node, d.section, resolve)) };
    else if (patterned.length > 0) field = { kind: 'patterned', scoped: patterned.flatMap((p) => expand(p.node, p.section, resolve)) };
    else field = { kind: 'undeclared' };
    scope.fields.set(key, field);
    return field;
  };
  const itemsOf = (scoped: Scoped[]): Scoped[] => {
    let found = items.get(scoped);
    if (!found) {
      found = scoped.flatMap(({ schema, section }) => (schema.items === undefined ? [] : expand(schema.items, section, resolve)));
      items.set(scoped, found);
    }
    return found;
  };

  const walk = (node: unknown, scoped: Scoped[], path: string): void => {
    if (Array.isArray(node)) {
      const elements = itemsOf(scoped);
      for (const element of node) walk(element, elements, `${path}[*]`);
      return;
    }
    if (!isObject(node)) return;
    const scope = scopeOf(scoped);
    if (!scope) return;
    for (const [key, child] of Object.entries(node)) {
      const field = fieldOf(scope, key);
      if (field.kind === 'declared') walk(child, field.scoped, member(path, key));
      else if (field.kind === 'patterned') walk(child, field.scoped, `${path}[*]`);
      else if (field.kind === 'undeclared') note(member(path, key), scope.section, child);
    }
  };

  let root = isObject(schema) ? roots.get(schema) : [];
  if (!root) roots.set(schema as object, (root = expand(schema, undefined, resolve)));
  walk(value, root, '$');
  return [...found.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, { section, shapes }]) => ({
      path,
      section,
      shapes: [...shapes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, shape]) => shape),
    }));
}
