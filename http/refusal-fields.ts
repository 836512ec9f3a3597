// What a refusal (a 400 to a send or command body, spec §4.2, §7: error bodies "not shown") says about the body's
// fields: the fields it names, with the type or the value it asks for there. Real vendors name the missing or wrong
// field, in whatever shape their framework writes: JSON (`errors[].field`, problem+json `detail` and
// `invalid-params`, `loc` arrays, JSON:API `source.pointer`, `{"errors":{"a.b":[…]}}`) or a sentence. Field names
// come in any naming style (snake, camel, dotted paths, JSON pointers, brackets) and any script. Pure and k6-safe:
// no Unicode property escapes, no lookbehind (k6's runtime and the es2017 bundle).

/** A field a refusal names. */
export interface FieldMention {
  /** Its path, outermost key first: "target.botId", "/target/botId" and "target[botId]" all give ['target', 'botId']. */
  path: string[];
  /** The type the refusal asks for there, when it says. */
  type?: 'number' | 'string';
  /** A value the refusal asks for there, one of the values the caller knows (a command's "goto"). */
  value?: string;
  /** How sure the reading is: 0 a JSON field key names it, 1 quoted or called a field, 2 an unquoted path in prose. */
  strength: 0 | 1 | 2;
}

// Letters of every script but punctuation (U+2000–U+206F, U+3000–U+303F): a field name is made of these.
const IDENT = 'A-Za-z0-9_$\\u00C0-\\u1FFF\\u2070-\\u2FFF\\u3040-\\uFFEF';
const IDENT_CHAR = new RegExp(`[${IDENT}]`);
const SEGMENT = `[${IDENT}-]+`;
const POINTER = new RegExp(`^#?(/[${IDENT}~-]+)+`);
const PATH = new RegExp(`^\\$?\\.?${SEGMENT}(\\.${SEGMENT}|\\[['"]?${SEGMENT}['"]?\\])*`);
const QUOTES: Record<string, string> = { "'": "'", '"': '"', '`': '`', '‘': '’', '“': '”', '«': '»', '„': '“' };

// Words that ask for a type, in the languages vendors write their messages in most; a hint only orders the tries.
const NUMBER_WORDS = /\b(integer|int|int32|int64|long|number|numeric|digits?)\b|entier|nombre|número|entero|ganzzahl|zahl|цел|числ/i;
const STRING_WORDS = /\b(string|str)\b|chaîne|cadena|zeichenkette|строк/i;
// Words that call what follows a field, so a single plain word after them is one.
const FIELD_WORDS = /(field|property|parameter|param|key|attribute|member|column|поле|параметр|champ|campo|feld)s?\s*:?\s*$/i;
// What follows "field" in prose when no name does ("field required", "field is missing").
const NO_NAME = /^(required|missing|is|are|must|should|not|cannot|can|may|invalid|value|values|error|errors|was|has|have|the|a|an|of|in|to|for)$/i;
// JSON keys whose value names a field, and keys whose text is about nothing in the body.
const FIELD_KEYS =
  /^(field|fieldname|field_name|property|propertyname|property_name|param|parameter|path|pointer|loc|instancepath|datapath|missingproperty|attribute|target|source|name)$/i;
const SKIPPED_KEYS = /^(type|instance|code|status|statuscode|title|trace.*|request.*|correlation.*|timestamp|time|href|links?|documentation.*|help.*)$/i;
const FIELD_MAP_KEYS = /^(errors|fields|field_errors|fielderrors|invalid|violations)$/i;

/** A field reference as written ("a.b", "/a/b", "#/a/b", "a[b]", "$.a.b") as a path; undefined when it is none. */
export function fieldPath(text: string): string[] | undefined {
  const written = text.trim();
  let path: string[];
  if (POINTER.exec(written)?.[0] === written) {
    path = written
      .replace(/^#/, '')
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  } else if (PATH.exec(written)?.[0] === written) {
    path = written
      .replace(/^\$\.?/, '')
      .replace(/\[['"]?([^\]'"]+)['"]?\]/g, '.$1')
      .split('.');
  } else return undefined;
  // An index (an array) or a version number is no field of these bodies; single letters are abbreviations ("e.g").
  if (path.some((s) => s === '' || /^\d/.test(s)) || path.every((s) => s.length === 1)) return undefined;
  return path;
}

/** Whether an unquoted word in prose reads as a field name: it has a structure no plain word has. */
const structured = (token: string) => /[._/[]/.test(token.replace(/\.$/, '')) || /[a-z][A-Z]/.test(token);

interface Token {
  at: number;
  end: number;
  path?: string[];
  value?: string;
  strength: 1 | 2;
}

/** Field names and known values in a text, in the order they stand. */
function tokens(text: string, values: readonly string[]): Token[] {
  const out: Token[] = [];
  const isValue = (word: string) => values.find((v) => v.toLowerCase() === word.toLowerCase());
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const afterIdent = i > 0 && IDENT_CHAR.test(text[i - 1]!);
    const close = QUOTES[c];
    if (close && !afterIdent) {
      const end = text.indexOf(close, i + 1);
      const inner = end > i && end - i <= 120 ? text.slice(i + 1, end) : undefined;
      if (inner !== undefined && !inner.includes('\n') && !IDENT_CHAR.test(text[end + 1] ?? ' ')) {
        const value = isValue(inner);
        const path = value ? undefined : fieldPath(inner);
        if (value || path) out.push({ at: i, end: end + 1, ...(value ? { value } : { path }), strength: 1 });
        i = end + 1;
        continue;
      }
    }
    if (!afterIdent && (IDENT_CHAR.test(c) || c === '/' || c === '#')) {
      const rest = text.slice(i);
      const word = (POINTER.exec(rest) ?? PATH.exec(rest))?.[0].replace(/\.$/, '');
      if (word) {
        const end = i + word.length;
        // A URL ("https://…") or a media type ("application/json") is no field: skip what is glued to it.
        if (/^:\/\//.test(text.slice(end)) || (text[end] === '/' && !word.startsWith('/'))) {
          i = end + (/^\S*/.exec(text.slice(end))?.[0].length ?? 0);
          continue;
        }
        const value = isValue(word);
        const called = FIELD_WORDS.test(text.slice(Math.max(0, i - 20), i)) && !NO_NAME.test(word);
        const path = value ? undefined : called || structured(word) ? fieldPath(word) : undefined;
        if (value || path) out.push({ at: i, end, ...(value ? { value } : { path }), strength: called ? 1 : 2 });
        i = end;
        continue;
      }
    }
    i++;
  }
  return out;
}

/** The type a stretch of text asks for, if it names one. */
function typeIn(text: string): FieldMention['type'] {
  if (NUMBER_WORDS.test(text)) return 'number';
  if (STRING_WORDS.test(text)) return 'string';
  return undefined;
}

// A clause ends at a sentence's end, a semicolon or a line: what a message says after a field is about that field.
const CLAUSE_END = /[.;!?](\s|$)|\n/;

/**
 * The fields a text names, each with the type and value said about it in its clause, and the values it says with no
 * field in their clause.
 */
function readText(text: string, values: readonly string[]): { fields: FieldMention[]; loose: string[] } {
  const found = tokens(text, values);
  const named = found.filter((t) => t.path);
  const fields = named.map((t) => ({ path: t.path!, strength: t.strength }) as FieldMention);
  const oneClause = (from: number, to: number) => !CLAUSE_END.test(text.slice(from, to));
  named.forEach((t, n) => {
    const after = text.slice(t.end, named[n + 1]?.at ?? text.length);
    const stop = CLAUSE_END.exec(after);
    const before =
      text
        .slice(named[n - 1]?.end ?? 0, t.at)
        .split(CLAUSE_END)
        .pop() ?? '';
    const type = typeIn(stop ? after.slice(0, stop.index) : after) ?? typeIn(before);
    if (type) fields[n]!.type = type;
  });
  const loose: string[] = [];
  // A value belongs to the field before it in its clause, else to the one after it.
  for (const v of found.filter((t) => t.value)) {
    const owner = named.filter((f) => f.end <= v.at && oneClause(f.end, v.at)).pop() ?? named.find((f) => f.at >= v.end && oneClause(v.end, f.at));
    if (owner) fields[named.indexOf(owner)]!.value ??= v.value;
    else loose.push(v.value!);
  }
  return { fields, loose };
}

/** The fields a message names; a value said of no field is the name of one ("missing field 'goto'"). */
function textMentions(text: string, values: readonly string[]): FieldMention[] {
  const { fields, loose } = readText(text, values);
  return [...fields, ...loose.map((v): FieldMention => ({ path: [v], strength: 1 }))];
}

/** Strings of a JSON value, its skipped keys left out: what a message says. */
function texts(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(texts);
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => (SKIPPED_KEYS.test(k) ? [] : texts(v)));
  return [];
}

/** The path a field key's value gives: a reference, a `loc` array (its location "body" first), a JSON:API source. */
function keyedPath(value: unknown): string[] | undefined {
  if (typeof value === 'string') return fieldPath(value);
  if (Array.isArray(value) && value.length > 0 && value.every((s) => typeof s === 'string' || typeof s === 'number')) {
    const path = value.map(String);
    return fieldPath((path[0] === 'body' && path.length > 1 ? path.slice(1) : path).join('.'));
  }
  if (value && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    return keyedPath(source.pointer ?? source.parameter ?? source.field);
  }
  return undefined;
}

/** The fields a JSON refusal names: by its field keys (with what their object says), its field maps, its texts. */
function jsonMentions(node: unknown, values: readonly string[], inList = false): FieldMention[] {
  if (Array.isArray(node)) return node.flatMap((item) => jsonMentions(item, values, true));
  if (!node || typeof node !== 'object') return typeof node === 'string' ? textMentions(node, values) : [];
  const out: FieldMention[] = [];
  const entries = Object.entries(node);
  // `name`, `path` and `target` name a field only in a list of problems (invalid-params, details): of a whole error,
  // they are its own name or the request's path. `source` names one only as JSON:API's object ({"pointer": …}).
  const keyed = entries.filter(
    ([k, v]) => FIELD_KEYS.test(k) && (inList || !/^(name|path|target)$/i.test(k)) && (!/^source$/i.test(k) || (v !== null && typeof v === 'object')),
  );
  const said = entries.filter(([k]) => !FIELD_KEYS.test(k) && !SKIPPED_KEYS.test(k)).flatMap(([, v]) => texts(v));
  // What the object says is about its field: the type and the value it asks for there, and any other field it names.
  const about = readText(said.join('\n'), values);
  // ajv names a missing property apart from the object it is missing from.
  const missing = (node as { params?: { missingProperty?: unknown } }).params?.missingProperty;
  for (const [key, value] of keyed) {
    const at = keyedPath(value);
    const path = at && /^(instancepath|datapath)$/i.test(key) && typeof missing === 'string' ? [...at, ...(fieldPath(missing) ?? [])] : at;
    if (!path) continue;
    const type = typeIn(said.join(' '));
    out.push({ path, strength: 0, ...(type ? { type } : {}), ...(about.loose[0] ? { value: about.loose[0] } : {}) });
  }
  if (keyed.length > 0) out.push(...about.fields);
  for (const [key, value] of entries) {
    // A field key that names no field here (a whole error's `path`, `name`) is no message either.
    if (SKIPPED_KEYS.test(key) || (FIELD_KEYS.test(key) && typeof value === 'string') || keyed.some(([k]) => k === key)) continue;
    // {"errors": {"target.botId": ["is required"]}}: the keys are the fields.
    if (FIELD_MAP_KEYS.test(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [field, about] of Object.entries(value)) {
        const path = fieldPath(field);
        const type = typeIn(texts(about).join(' '));
        if (path) out.push({ path, strength: 0, ...(type ? { type } : {}) });
      }
      continue;
    }
    // The texts of an object with a field key were read as about its field; what nests in it is read apart.
    if (keyed.length === 0 || typeof value === 'object') out.push(...jsonMentions(value, values));
  }
  return out;
}

/** Mentions of one field merged into its first: the strongest reading, the first type and value said. */
export function mergeMentions<T extends FieldMention>(mentions: readonly T[]): T[] {
  const byPath = new Map<string, T>();
  for (const m of mentions) {
    const key = m.path.join('\u0000');
    const seen = byPath.get(key);
    if (!seen) byPath.set(key, { ...m });
    else {
      seen.strength = Math.min(seen.strength, m.strength) as FieldMention['strength'];
      seen.type ??= m.type;
      seen.value ??= m.value;
    }
  }
  // Stable: of equal strength, the order they were said in.
  return [...byPath.values()].sort((a, b) => a.strength - b.strength);
}

/**
 * The fields a refusal's body names, strongest reading first, each once. `values` are the values the caller's body
 * carries whose words are no field names (a command's "goto"): said of a field, they are what it asks for there.
 */
export function refusalFields(body: string, values: readonly string[] = []): FieldMention[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // An error page's markup ("</h1>") is no pointer: only its text is read.
    return mergeMentions(textMentions(body.replace(/<\/?[A-Za-z][^>]*>/g, ' '), values));
  }
  return mergeMentions(jsonMentions(parsed, values));
}
