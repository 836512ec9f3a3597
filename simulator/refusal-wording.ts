// A refused send or command body field worded as a vendor words it (spec §7: error bodies not shown): the field as a
// dotted path, a JSON pointer, brackets or its outermost name, and what goes there as a type in words, a template or
// an example (config.errors.wording). The profiles that set it are vendors the suite's refusal reader was not written
// for. Pure.
import type { RefusalWording } from './config.ts';

/** A body field a handler refuses: missing, of the wrong type, or without the one value it takes. */
export interface RefusedField {
  kind: 'missing' | 'wrongType' | 'wrongValue';
  /** Its dotted path in the body ("params.botId"). */
  path: string;
  /** What goes there: a value of a type, or this value (the command's goto). */
  wants: { type: 'integer' | 'string' } | { value: string };
}

/** What a refusal says of its field: the sentence, and the placeholders a custom error body may hold. */
export interface FieldWords {
  sentence: string;
  /**
   * {field}, {name} (its last segment), {wants}, {value}, {values} as text; {segments}, {example}, {values} as JSON
   * values too, and {tree}: the sentence in a list under the field's segments ({"params": {"botId": ["…"]}}).
   */
  text: Record<string, string>;
  json: Record<string, unknown>;
}

/** Example values a vendor's documentation would show. */
const EXAMPLES = { integer: 123, string: '123', text: 'Hello' } as const;

/** A JSON value written as documentation writes it: keys quoted, ": " and ", " between, leaves as given. */
function written(value: unknown, leaf: (v: unknown) => string): string {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${written(v, leaf)}`)
      .join(', ')}}`;
  return leaf(value);
}

/** `leaf` nested under `segments` ({"botId": leaf} for ["botId"]), the value itself for none. */
const nest = (segments: readonly string[], leaf: unknown): unknown => segments.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf);

const LEAF = '\u0000leaf';

/** The words for `refused` in `wording`; `isText`: the field is the message text (its example is a sentence). */
export function wordRefusal(wording: RefusalWording, refused: RefusedField, values: readonly string[], isText: boolean): FieldWords {
  const segments = refused.path.split('.');
  const field = {
    dotted: refused.path,
    pointer: `/${segments.join('/')}`,
    brackets:
      segments[0] +
      segments
        .slice(1)
        .map((s) => `[${s}]`)
        .join(''),
    outermost: segments[0]!,
  }[wording.field];
  // What goes at {field}: under its outermost name, the whole value from there down.
  const inside = wording.field === 'outermost' ? segments.slice(1) : [];
  const example: unknown =
    'value' in refused.wants ? refused.wants.value : refused.wants.type === 'integer' ? EXAMPLES.integer : isText ? EXAMPLES.text : EXAMPLES.string;
  const wanted = refused.wants;
  const leaf = 'value' in wanted || wording.wants === 'example' ? JSON.stringify(example) : wording.types[wanted.type];
  const wants = written(nest(inside, LEAF), (v) => (v === LEAF ? leaf : JSON.stringify(v)));
  const text = { field, name: segments.at(-1)!, wants, value: String(example), values: values.join(', ') };
  const sentence = wording[refused.kind].replace(/\{(field|name|wants|value|values)\}/g, (_, name: keyof typeof text) => text[name]);
  return { sentence, text, json: { segments, example: nest(inside, example), values: [...values], tree: nest(segments, [sentence]) } };
}

/**
 * `template` filled in: a text's {name}s replaced, a JSON value's strings the same, a string that is one {name} alone
 * its JSON value where it has one.
 */
export function fillTemplate(template: unknown, text: Record<string, string>, json: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    const alone = /^\{(\w+)\}$/.exec(template)?.[1];
    if (alone !== undefined && alone in json) return json[alone];
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => text[name] ?? whole);
  }
  if (Array.isArray(template)) return template.map((t) => fillTemplate(t, text, json));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, text, json)]));
  return template;
}
