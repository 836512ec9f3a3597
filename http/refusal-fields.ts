// What a refusal (a 400 to a send or command body, spec §4.2, §7: error bodies "not shown") says about the body's
// fields, read as a person reads it: the fields it names, with the type or the value it asks for there. Vendors say it
// in whatever their framework writes: any JSON error object (problem+json `detail` and `invalid-params`, `errors[]`
// with a field key, `loc` arrays, JSON:API `source.pointer`, a map of fields to their messages, nested as the body
// is, under the request's location or not) or plain text. A field is written as a path in any notation (dotted,
// pointer, brackets, JSONPath; snake, camel, any script), or by its outermost name with a template or an example of
// its value (`field "params" must be {"botId": <integer>}`, `{"botId": 123}`, or a whole body's). What goes there is
// a type in words (`an integer`, `a number`), or one of the values the caller knows (`must be "goto"`, `one of:
// goto, wait`: the other values listed are no fields). Every reading keeps the words it was read from: it is a
// hypothesis the discovery confirms by its effect (http/body-discovery.ts), and the run says which words taught it.
// Pure and k6-safe: no Unicode property escapes, no lookbehind, no matchAll (k6's runtime and the es2017 bundle).

/** A field a refusal names. */
export interface FieldMention {
  /** Its path, outermost key first: "target.botId", "/target/botId" and "target[botId]" all give ['target', 'botId']. */
  path: string[];
  /** The type the refusal asks for there, when it says. */
  type?: 'number' | 'string';
  /** A value the refusal asks for there, one of the values the caller knows (a command's "goto"). */
  value?: string;
  /**
   * How sure the reading is: 0 a JSON field key or a map of fields names it, 1 quoted, called a field or inside a
   * template, 2 an unquoted word in prose (or a path read with the request's location as its first field).
   */
  strength: 0 | 1 | 2;
  /** The words it was read from, on one line: the clause, the JSON problem's message, or the template. */
  words?: string;
}

// Letters of every script but punctuation (U+2000–U+206F, U+3000–U+303F): a field name is made of these.
const IDENT = 'A-Za-z0-9_$\\u00C0-\\u1FFF\\u2070-\\u2FFF\\u3040-\\uFFEF';
const IDENT_CHAR = new RegExp(`[${IDENT}]`);
const SEGMENT = `[${IDENT}-]+`;
const POINTER = new RegExp(`^#?(/[${IDENT}~-]+)+`);
const PATH = new RegExp(`^\\$?\\.?${SEGMENT}(\\.${SEGMENT}|\\[['"]?${SEGMENT}['"]?\\])*`);
const QUOTES: Record<string, string> = { "'": "'", '"': '"', '`': '`', '‘': '’', '“': '”', '«': '»', '„': '“' };

// Words that ask for a type, in the languages vendors write their messages in most.
const NUMBER_WORDS = /\b(integer|int|int32|int64|long|number|numeric|digits?|whole number)\b|entier|nombre|número|entero|ganzzahl|zahl|цел|числ/i;
const STRING_WORDS = /\b(string|str)\b|chaîne|cadena|zeichenkette|строк/i;
// Words that call what follows a field, so a single plain word after them is one.
const FIELD_WORDS = /(field|property|parameter|param|key|attribute|argument|member|column|поле|параметр|champ|campo|feld)s?\s*:?\s*$/i;
// What follows "field" in prose when no name does ("field required", "field is missing").
const NO_NAME = /^(required|missing|is|are|must|should|not|cannot|can|may|invalid|value|values|error|errors|was|has|have|the|a|an|of|in|to|for)$/i;
// A plain word that opens a clause asking for something is the field it asks of ("verb must be one of: …").
const ASKS = /^\s*[:-]?\s*(must|should|is required|is missing|is invalid|is not allowed|cannot be|can't be|may not|expects?|expected|requires?)\b/i;
// …unless it is a word that names the request, the body or the message itself.
const NO_SUBJECT =
  /^(it|this|that|which|there|value|values|input|body|request|payload|json|data|message|text|field|fields|parameter|param|property|one|you|we|id|type|format|object|array|string|number|integer)$/i;
// Where in the request a validator says a field is: its location first, the field after ("body.target.botId",
// {"json": {"target": …}}). A hypothesis: the path is read without it first, and as written after.
const LOCATIONS = /^(body|json|form|requestbody|request_body)$/i;
// JSON keys whose value names a field, and keys whose text is about nothing in the body.
const FIELD_KEYS =
  /^(field|fieldname|field_name|fieldpath|field_path|property|propertyname|property_name|propertypath|property_path|param|parameter|argument|arg|attribute|attr|path|pointer|jsonpath|json_path|loc|instancepath|datapath|missingproperty|target|source|name|key|at)$/i;
// Of these, those that name a field only in a list of problems: of a whole error, its own name or the request's path.
const LIST_ONLY_KEYS = /^(name|path|target|key|at)$/i;
// Keys whose list of strings names several fields, each whole.
const FIELD_LIST_KEYS = /^(fields|keys|params|parameters|properties|attributes|arguments|args|paths|names|missing|required)$/i;
const SKIPPED_KEYS =
  /^(type|instance|code|status|statuscode|title|ok|success|errorcode|error_code|trace.*|request.*|correlation.*|timestamp|time|href|links?|documentation.*|help.*)$/i;
// Keys whose value, an object, maps fields to what is said of them; and keys of such maps that are no field.
const FIELD_MAP_KEYS = /^(errors|fields|field_errors|fielderrors|invalid|violations|validation_errors|validationerrors)$/i;
const NOT_FIELDS = /^(non_field_errors|__all__|_schema|_global|base|errors?|messages?|details?|msg|description|reason|warnings?|hint|title|summary)$/i;
// Keys whose value, an object, is an example or template of what goes at the field (or the body).
const EXAMPLE_KEYS = /^(expected|example|sample|template|format|shape|like|schema)$/i;
// A field name is no error code: SCREAMING_SNAKE_CASE is.
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;

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

/** A path read as a person reads it: a location first ("body", "json") is where, not a field, unless it is all. */
function located(path: string[]): Array<{ path: string[]; weak: boolean }> {
  return path.length > 1 && LOCATIONS.test(path[0]!)
    ? [
        { path: path.slice(1), weak: false },
        { path, weak: true },
      ]
    : [{ path, weak: false }];
}

/** Whether an unquoted word in prose reads as a field name: it has a structure no plain word has. */
const structured = (token: string) => /[._/[]/.test(token.replace(/\.$/, '')) || /[a-z][A-Z]/.test(token);

/** What a value in a template or an example says of its field. */
interface Leaf {
  path: string[];
  type?: FieldMention['type'];
  value?: string;
}

const typeIn = (text: string): FieldMention['type'] => (NUMBER_WORDS.test(text) ? 'number' : STRING_WORDS.test(text) ? 'string' : undefined);

/** A known value among `values` equal to `word`, whatever its case. */
const known = (values: readonly string[], word: string) => {
  const lower = word.toLowerCase();
  for (const v of values) if (v.toLowerCase() === lower) return v;
  return undefined;
};

/** A placeholder of a template (`<integer>`) or a bare type word in it, as the string that stands for it while parsed. */
const PLACEHOLDER = '\u0001';

/** The leaves of a template or an example object: each path below it, with the type or the known value it shows. */
function leaves(node: unknown, values: readonly string[], at: string[] = []): Leaf[] {
  if (node && typeof node === 'object' && !Array.isArray(node))
    return Object.keys(node).reduce<Leaf[]>((out, key) => {
      const segment = fieldPath(key);
      return segment && segment.length === 1 ? out.concat(leaves((node as Record<string, unknown>)[key], values, at.concat(segment))) : out;
    }, []);
  if (at.length === 0) return [];
  if (typeof node === 'number') return [{ path: at, type: 'number' }];
  if (Array.isArray(node)) {
    // A list of the values a field takes: the known one among them.
    const value = node.map((v) => (typeof v === 'string' ? known(values, v) : undefined)).find((v) => v !== undefined);
    return value ? [{ path: at, value }] : [];
  }
  if (typeof node !== 'string') return [];
  if (node.startsWith(PLACEHOLDER)) {
    const type = typeIn(node.slice(PLACEHOLDER.length));
    return [{ path: at, ...(type ? { type } : {}) }];
  }
  const value = known(values, node);
  return [value ? { path: at, value } : { path: at, type: 'string' }];
}

/**
 * A template or an example written in text ("{"botId": <integer>}", "{botId: 123}", "{'text': 'hi'}") as a JSON
 * value: placeholders (`<integer>`) and bare type words become marked strings, bare keys and single quotes JSON's.
 */
function parseTemplate(text: string): unknown {
  let json = text.includes('"') ? text : text.replace(/'/g, '"');
  json = json.replace(/<([^<>"\n]{1,30})>/g, (_, word: string) => JSON.stringify(PLACEHOLDER + word));
  json = json
    .replace(/([{,]\s*)([A-Za-z_$][\w$-]*)\s*:/g, '$1"$2":')
    .replace(/(:\s*)([A-Za-z_][\w-]*)(?=\s*[,}\]])/g, (whole, colon: string, word: string) =>
      /^(true|false|null)$/.test(word) ? whole : `${colon}${JSON.stringify(PLACEHOLDER + word)}`,
    );
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

interface Template {
  at: number;
  end: number;
  leaves: Leaf[];
}

/** The templates and examples of objects in a text: balanced braces that parse, with at least one field below them. */
function templatesIn(text: string, values: readonly string[]): Template[] {
  const out: Template[] = [];
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) {
    let depth = 0;
    let end = -1;
    for (let j = i; j < text.length && j - i < 400; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}' && --depth === 0) {
        end = j + 1;
        break;
      }
    }
    if (end < 0) continue;
    const found = leaves(parseTemplate(text.slice(i, end)), values);
    if (found.length > 0) {
      out.push({ at: i, end, leaves: found });
      i = end - 1;
    }
  }
  return out;
}

interface Token {
  at: number;
  end: number;
  path?: string[];
  value?: string;
  strength: 1 | 2;
}

/** Whether `at` begins a clause: nothing before it but a lead-in ending in ":", "-" or a clause's end. */
const opensClause = (text: string, at: number) => /(^|[.;:!?\n-])\s*$/.test(text.slice(Math.max(0, at - 40), at));

/** Field names and known values in a text, in the order they stand. */
function tokens(text: string, values: readonly string[]): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const afterIdent = i > 0 && IDENT_CHAR.test(text[i - 1]!);
    const close = QUOTES[c];
    if (close && !afterIdent) {
      const end = text.indexOf(close, i + 1);
      const inner = end > i && end - i <= 120 ? text.slice(i + 1, end) : undefined;
      if (inner !== undefined && !inner.includes('\n') && !IDENT_CHAR.test(text[end + 1] ?? ' ')) {
        const value = known(values, inner);
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
        const value = known(values, word);
        const called = FIELD_WORDS.test(text.slice(Math.max(0, i - 20), i)) && !NO_NAME.test(word);
        const subject = !called && !structured(word) && !NO_SUBJECT.test(word) && ASKS.test(text.slice(end)) && opensClause(text, i);
        const path = value ? undefined : called || subject || structured(word) ? fieldPath(word) : undefined;
        if (value || path) out.push({ at: i, end, ...(value ? { value } : { path }), strength: called ? 1 : 2 });
        i = end;
        continue;
      }
    }
    i++;
  }
  return out;
}

// One item of a list of values: a quoted string or a bare word (a path's notation ends the list: it names a field).
const ITEM = `(?:"[^"\\n]{1,40}"|'[^'\\n]{1,40}'|\`[^\`\\n]{1,40}\`|[${IDENT}-]+)`;
const LIST = new RegExp(`${ITEM}(?:\\s*(?:,|\\||/|\\bor\\b)\\s*${ITEM})+`, 'g');

/** The spans of the lists of values in a text that hold a known value: the other items listed there are values too. */
function listSpans(text: string, found: readonly Token[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  LIST.lastIndex = 0;
  for (let m = LIST.exec(text); m; m = LIST.exec(text)) {
    const [at, end] = [m.index, m.index + m[0].length];
    if (found.some((t) => t.value && t.at >= at && t.end <= end)) spans.push([at, end]);
  }
  return spans;
}

// A clause ends at a sentence's end, a semicolon or a line: what a message says after a field is about that field.
const CLAUSE_END = /[.;!?](\s|$)|\n/;

/** The clause around [at, end): what a reading was read from, on one line, bounded. */
function clauseAround(text: string, at: number, end: number): string {
  const before = text.slice(0, at).split(CLAUSE_END);
  const head = before[before.length - 1] ?? '';
  const stop = CLAUSE_END.exec(text.slice(end));
  const clause = (head + text.slice(at, stop ? end + stop.index : text.length)).replace(/\s+/g, ' ').trim();
  return clause.length > 160 ? `${clause.slice(0, 160)}…` : clause;
}

/** What a text says: the fields it names, the values it says of no field, and its templates said of no field. */
interface Reading {
  fields: FieldMention[];
  loose: string[];
  /** Leaves of templates or examples said of no field: of the body, or of the field a JSON problem names. */
  looseLeaves: Leaf[];
  looseWords: string;
}

/** The fields a text names, each with the type, value or template said about it in its clause. */
function readText(text: string, values: readonly string[]): Reading {
  const templates = templatesIn(text, values);
  // Inside a template, its keys are read as its leaves, not as fields of their own.
  let masked = text;
  for (const t of templates) masked = masked.slice(0, t.at) + ' '.repeat(t.end - t.at) + masked.slice(t.end);
  const all = tokens(masked, values);
  const lists = listSpans(masked, all);
  const found = all.filter((t) => t.value || !lists.some(([at, end]) => t.at >= at && t.end <= end));
  const named = found.filter((t) => t.path);
  const oneClause = (from: number, to: number) => !CLAUSE_END.test(masked.slice(from, to));
  const fields = named.map((t): FieldMention => ({ path: t.path!, strength: t.strength, words: clauseAround(text, t.at, t.end) }));
  named.forEach((t, n) => {
    const after = masked.slice(t.end, named[n + 1]?.at ?? masked.length);
    const stop = CLAUSE_END.exec(after);
    const before =
      masked
        .slice(named[n - 1]?.end ?? 0, t.at)
        .split(CLAUSE_END)
        .pop() ?? '';
    const type = typeIn(stop ? after.slice(0, stop.index) : after) ?? typeIn(before);
    if (type) fields[n]!.type = type;
  });
  const loose: string[] = [];
  // A value belongs to the field before it in its clause, else to the one after it, else to the last one named before
  // it ("'op' is invalid; allowed: goto, hold"); said where no field is named, it is the name of one.
  for (const v of found.filter((t) => t.value)) {
    const before = named.filter((f) => f.end <= v.at);
    const owner = before.filter((f) => oneClause(f.end, v.at)).pop() ?? named.find((f) => f.at >= v.end && oneClause(v.end, f.at)) ?? before[before.length - 1];
    if (owner) fields[named.indexOf(owner)]!.value ??= v.value;
    else loose.push(v.value!);
  }
  // A template belongs to the field before it in its clause, which it then spells out; else to the body.
  const replaced = new Set<number>();
  const looseLeaves: Leaf[] = [];
  const looseWords: string[] = [];
  const spelled: FieldMention[] = [];
  for (const t of templates) {
    const owner = named.filter((f) => f.end <= t.at && oneClause(f.end, t.at)).pop();
    if (!owner) {
      looseLeaves.push(...t.leaves);
      looseWords.push(clauseAround(text, t.at, t.end));
      continue;
    }
    const n = named.indexOf(owner);
    replaced.add(n);
    for (const leaf of t.leaves) spelled.push({ ...leaf, path: owner.path!.concat(leaf.path), strength: owner.strength, words: fields[n]!.words });
  }
  return { fields: [...fields.filter((_, n) => !replaced.has(n)), ...spelled], loose, looseLeaves, looseWords: looseWords.join(' ') };
}

/** Leaves said of `path` as the fields they are below it. */
const below = (path: string[], found: Leaf[], strength: FieldMention['strength'], words: string): FieldMention[] =>
  found.map((leaf) => ({ ...leaf, path: path.concat(leaf.path), strength, words }));

/** The fields a message names; a value said of no field is the name of one ("missing field 'goto'"). */
function textMentions(text: string, values: readonly string[]): FieldMention[] {
  const { fields, loose, looseLeaves, looseWords } = readText(text, values);
  const line = text.replace(/\s+/g, ' ').trim();
  return [
    ...fields,
    ...below([], looseLeaves, 1, looseWords),
    ...loose.map((v): FieldMention => ({ path: [v], strength: 1, words: line.length > 160 ? `${line.slice(0, 160)}…` : line })),
  ];
}

/**
 * Strings of a JSON value, its skipped keys left out: what a message says. A list of strings that holds a known value
 * is one list of values; a string without a space is a code or an identifier, read only for a type word or a value.
 */
function texts(node: unknown, values: readonly string[]): string[] {
  if (typeof node === 'string') return /\s/.test(node.trim()) || typeIn(node) || known(values, node) ? [node] : [];
  if (Array.isArray(node)) {
    if (node.length > 1 && node.every((s) => typeof s === 'string') && node.some((s) => known(values, s as string))) return [node.join(', ')];
    return node.reduce<string[]>((out, item) => out.concat(texts(item, values)), []);
  }
  if (node && typeof node === 'object')
    return Object.keys(node).reduce<string[]>((out, k) => (SKIPPED_KEYS.test(k) ? out : out.concat(texts((node as Record<string, unknown>)[k], values))), []);
  return [];
}

/** The paths a field key's value gives: a reference, a `loc` array, a list of references, a JSON:API source. */
function keyedPaths(key: string, value: unknown): string[][] {
  if (typeof value === 'string') {
    const path = CODE.test(value) ? undefined : fieldPath(value);
    return path ? [path] : [];
  }
  if (Array.isArray(value) && value.length > 0 && value.every((s) => typeof s === 'string' || typeof s === 'number')) {
    if (FIELD_LIST_KEYS.test(key)) return value.reduce<string[][]>((out, s) => out.concat(keyedPaths('field', s)), []);
    const path = fieldPath(value.map(String).join('.'));
    return path ? [path] : [];
  }
  if (value && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const ref = source.pointer ?? source.parameter ?? source.field;
    return ref === undefined ? [] : keyedPaths('field', ref);
  }
  return [];
}

/** JSON on one line, bounded: what a JSON problem's reading was read from. */
const oneLine = (node: unknown) => {
  const line = typeof node === 'string' ? node : JSON.stringify(node);
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
};

/**
 * Whether an object maps fields to what is said of them: each value a message, a list of them, or such a map. `whole`:
 * the whole refusal or one of its problems, which a key naming a field, a code or a status makes a problem instead,
 * and which says its messages in lists.
 */
function isFieldMap(node: unknown, whole = false, depth = 0): node is Record<string, unknown> {
  if (!node || typeof node !== 'object' || Array.isArray(node) || depth > 6) return false;
  const keys = Object.keys(node);
  const problemKey = (k: string) => FIELD_KEYS.test(k) || FIELD_LIST_KEYS.test(k) || SKIPPED_KEYS.test(k) || EXAMPLE_KEYS.test(k);
  if (whole && (keys.some(problemKey) || !keys.some((k) => typeof (node as Record<string, unknown>)[k] === 'object'))) return false;
  return (
    keys.length > 0 &&
    keys.every((k) => {
      const v = (node as Record<string, unknown>)[k];
      const said = typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string'));
      return (said || isFieldMap(v, false, depth + 1)) && (NOT_FIELDS.test(k) || fieldPath(k) !== undefined);
    })
  );
}

/** A map of fields to what is said of them, nested as the body is ({"target": {"botId": ["is required"]}}). */
function mapMentions(map: Record<string, unknown>, values: readonly string[], at: string[] = []): FieldMention[] {
  return Object.keys(map).reduce<FieldMention[]>((out, key) => {
    const value = map[key];
    const path = NOT_FIELDS.test(key) ? undefined : fieldPath(key);
    if (!path) return out.concat(at.length === 0 ? [] : textMentions(texts(value, values).join('\n'), values));
    if (isFieldMap(value) && !Array.isArray(value)) {
      // A location first ({"json": {…}}) is where the fields are: read without it, and with it after.
      const inner = mapMentions(value, values, at.concat(path));
      if (at.length > 0 || path.length > 1 || !LOCATIONS.test(path[0]!)) return out.concat(inner);
      const weak = inner.map((m): FieldMention => ({ ...m, strength: 2 }));
      return out.concat(mapMentions(value, values, at), weak);
    }
    const said = texts(value, values).join('\n');
    const about = readText(said, values);
    const type = typeIn(said);
    const words = `${key}: ${said.replace(/\s+/g, ' ')}`;
    const own: FieldMention = { path: at.concat(path), strength: 0, words, ...(type ? { type } : {}), ...(about.loose[0] ? { value: about.loose[0] } : {}) };
    const spelled = below(own.path, about.looseLeaves, 0, words);
    return out.concat(spelled.length > 0 ? spelled : [own]);
  }, []);
}

/** The fields a JSON refusal names: by its field keys (with what their object says), its field maps, its texts. */
function jsonMentions(node: unknown, values: readonly string[], inList = false): FieldMention[] {
  if (Array.isArray(node)) return node.reduce<FieldMention[]>((out, item) => out.concat(jsonMentions(item, values, true)), []);
  // A string without a space is a code or an identifier, no message.
  if (!node || typeof node !== 'object') return typeof node === 'string' && /\s/.test(node.trim()) ? textMentions(node, values) : [];
  // {"target": {"botId": ["is required"]}}: the whole refusal a map of fields, as some frameworks answer.
  if (isFieldMap(node, true) && Object.keys(node).some((k) => !NOT_FIELDS.test(k))) return mapMentions(node, values);
  const out: FieldMention[] = [];
  const object = node as Record<string, unknown>;
  const entries = Object.keys(object).map((k) => [k, object[k]] as const);
  const keyed = entries.filter(
    ([k, v]) => FIELD_KEYS.test(k) && (inList || !LIST_ONLY_KEYS.test(k)) && (!/^source$/i.test(k) || (v !== null && typeof v === 'object')),
  );
  const fieldLists = entries.filter(([k, v]) => FIELD_LIST_KEYS.test(k) && Array.isArray(v) && v.every((s) => typeof s === 'string'));
  const naming = [...keyed, ...fieldLists];
  // A problem's title, in a list of them, says what is wrong with its field (a whole error's is its status's name).
  const skipped = (k: string) => SKIPPED_KEYS.test(k) && !(inList && /^title$/i.test(k));
  const said = entries.filter(([k]) => !FIELD_KEYS.test(k) && !FIELD_LIST_KEYS.test(k) && !skipped(k) && !EXAMPLE_KEYS.test(k));
  const saidText = said.reduce<string[]>((all, [, v]) => all.concat(typeof v === 'object' && !Array.isArray(v) ? [] : texts(v, values)), []).join('\n');
  // What the object says is about its field: the type and the value it asks for there, a template of its value, and
  // any other field it names.
  const about = readText(saidText, values);
  const examples = entries.filter(([k]) => EXAMPLE_KEYS.test(k)).reduce<Leaf[]>((all, [, v]) => all.concat(typeof v === 'object' ? leaves(v, values) : []), []);
  const exampleTexts = entries
    .filter(([k, v]) => EXAMPLE_KEYS.test(k) && typeof v === 'string')
    .map(([, v]) => v as string)
    .join('\n');
  const aboutExample = readText(exampleTexts, values);
  // ajv names a missing property apart from the object it is missing from.
  const missing = (object as { params?: { missingProperty?: unknown } }).params?.missingProperty;
  const words = oneLine(node);
  for (const [key, value] of naming) {
    for (const at of keyedPaths(key, value)) {
      const full = /^(instancepath|datapath)$/i.test(key) && typeof missing === 'string' ? at.concat(fieldPath(missing) ?? []) : at;
      const type = typeIn(saidText) ?? typeIn(exampleTexts);
      const value = about.loose[0] ?? aboutExample.loose[0];
      for (const { path, weak } of located(full)) {
        const strength = weak ? 2 : 0;
        const spelled = below(path, [...about.looseLeaves, ...aboutExample.looseLeaves, ...examples], strength, words);
        out.push(...(spelled.length > 0 ? spelled : [{ path, strength, words, ...(type ? { type } : {}), ...(value ? { value } : {}) } as FieldMention]));
      }
    }
  }
  if (naming.length > 0) out.push(...about.fields);
  else if (examples.length > 0) out.push(...below([], examples, 1, oneLine(node)));
  for (const [key, value] of entries) {
    // A field key that names no field here (a whole error's `path`, `name`) is no message either.
    if (SKIPPED_KEYS.test(key) || EXAMPLE_KEYS.test(key) || (FIELD_KEYS.test(key) && typeof value === 'string') || naming.some(([k]) => k === key)) continue;
    // {"errors": {"target.botId": ["is required"]}}: the keys are the fields.
    if (FIELD_MAP_KEYS.test(key) && isFieldMap(value)) {
      out.push(...mapMentions(value, values));
      continue;
    }
    // The texts of an object with a field key were read as about its field; what nests in it is read apart.
    if (naming.length === 0 || typeof value === 'object') out.push(...jsonMentions(value, values));
  }
  return out;
}

/** Mentions of one field merged into its first: the strongest reading, the first type, value and words said. */
export function mergeMentions<T extends FieldMention>(mentions: readonly T[]): T[] {
  const byPath = new Map<string, T>();
  for (const m of mentions) {
    const key = m.path.join('\u0000');
    const seen = byPath.get(key);
    if (!seen) byPath.set(key, { ...m });
    else {
      if (m.strength < seen.strength) seen.words = m.words ?? seen.words;
      seen.strength = Math.min(seen.strength, m.strength) as FieldMention['strength'];
      seen.type ??= m.type;
      seen.value ??= m.value;
      seen.words ??= m.words;
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
    // An error page's markup ("</h1>") is no pointer: only its text is read. A placeholder (`<integer>`) is no markup.
    const page = /<\/[A-Za-z][^>]*>/.test(body) ? body.replace(/<\/?[A-Za-z][^>]*>/g, ' ') : body;
    return mergeMentions(textMentions(page, values));
  }
  return mergeMentions(jsonMentions(parsed, values));
}
