// Request bodies whose field names the spec does not show (§4.2 send and command), written as JSON templates with
// placeholders: {"message":"{{text}}"}, {"command":"goto","bot":{{botId}}}. Pure (the k6 scripts use it too).
// A placeholder inside a JSON string is the value's text; a bare one is the value as JSON (a number stays a number).

export type Placeholder = 'text' | 'botId';
export type TemplateValues = Partial<Record<Placeholder, string | number>>;
export type JsonPath = ReadonlyArray<string | number>;

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/y;
const KNOWN: readonly Placeholder[] = ['text', 'botId'];

export class TemplateError extends Error {
  override name = 'TemplateError';
}

/** The template's JSON text with every placeholder replaced, string-aware. */
function substitute(template: string, values: TemplateValues): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < template.length; ) {
    const c = template[i]!;
    if (c === '{' && template[i + 1] === '{') {
      PLACEHOLDER.lastIndex = i;
      const m = PLACEHOLDER.exec(template);
      if (m) {
        const name = m[1] as Placeholder;
        if (!KNOWN.includes(name)) throw new TemplateError(`unknown placeholder {{${m[1]}}}: use ${KNOWN.map((k) => `{{${k}}}`).join(' or ')}`);
        const value = values[name];
        if (value === undefined) throw new TemplateError(`no value for {{${name}}}`);
        out += inString ? JSON.stringify(String(value)).slice(1, -1) : JSON.stringify(value);
        i += m[0].length;
        continue;
      }
    }
    if (inString && c === '\\') {
      out += template.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '"') inString = !inString;
    out += c;
    i++;
  }
  return out;
}

/** The body a template gives for these values: always a JSON object. */
export function renderBody(template: string, values: TemplateValues): Record<string, unknown> {
  const text = substitute(template, values);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new TemplateError(`is not JSON once its placeholders are filled (${(err as Error).message})`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TemplateError('must be a JSON object ({...})');
  return body as Record<string, unknown>;
}

// Values no real body carries, so their place in a rendered body can be found again.
const MARK_TEXT = 'dc-placeholder-text-7d1e';
const MARK_NUMBER = 917_356_284;

/** Where each placeholder lands in the rendered body, and whether it lands as a string or a number. */
export function placeholderPaths(template: string): Array<{ name: Placeholder; path: JsonPath; kind: 'string' | 'number' }> {
  const body = renderBody(template, { text: MARK_TEXT, botId: MARK_NUMBER });
  const found: Array<{ name: Placeholder; path: JsonPath; kind: 'string' | 'number' }> = [];
  const walk = (node: unknown, path: JsonPath) => {
    if (node === MARK_TEXT) found.push({ name: 'text', path, kind: 'string' });
    else if (node === MARK_NUMBER) found.push({ name: 'botId', path, kind: 'number' });
    else if (node === String(MARK_NUMBER)) found.push({ name: 'botId', path, kind: 'string' });
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, [...path, Array.isArray(node) ? Number(k) : k]);
  };
  walk(body, []);
  return found;
}

/**
 * Where the template's own text stops being JSON (a bare placeholder counts as a value), and what was expected
 * there: a position in what the user wrote, not in the text with placeholders filled in. Undefined: it is JSON.
 */
export function templateSyntaxError(template: string): { at: number; expected: string } | undefined {
  let i = 0;
  const fail = (expected: string): never => {
    throw { at: i, expected };
  };
  const ws = () => {
    while (i < template.length && ' \t\n\r'.includes(template[i]!)) i++;
  };
  const literal = (word: string) => (template.startsWith(word, i) ? (i += word.length) : fail(`a value`));
  const string = () => {
    i++;
    while (i < template.length && template[i] !== '"') {
      if (template.charCodeAt(i) < 0x20) fail('no control character inside a string (write \\n)');
      if (template[i] === '\\') {
        i++;
        if (template[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(template.slice(i + 1, i + 5))) i += 4;
        else if (!'"\\/bfnrt'.includes(template[i] ?? 'x')) fail('an escape such as \\" or \\n');
      }
      i++;
    }
    if (i >= template.length) fail('the closing " of a string');
    i++;
  };
  const value = (): void => {
    ws();
    const c = template[i];
    PLACEHOLDER.lastIndex = i;
    const placeholder = c === '{' && template[i + 1] === '{' ? PLACEHOLDER.exec(template) : null;
    if (placeholder) i += placeholder[0].length;
    else if (c === '{')
      members('}', () => {
        ws();
        if (template[i] !== '"') fail('a property name in double quotes');
        string();
        ws();
        if (template[i] !== ':') fail("':' after the property name");
        i++;
        value();
      });
    else if (c === '[') members(']', value);
    else if (c === '"') string();
    else if (c !== undefined && /[-0-9]/.test(c)) {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(template.slice(i));
      if (!m) fail('a number');
      i += m![0].length;
    } else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else fail(i >= template.length ? 'a value, not the end' : 'a value');
    ws();
  };
  const members = (close: string, member: () => void) => {
    i++;
    ws();
    if (template[i] === close) return void i++;
    for (;;) {
      member();
      ws();
      if (template[i] === ',') i++;
      else if (template[i] === close) return void i++;
      else fail(`',' or '${close}'`);
    }
  };
  try {
    value();
    if (i < template.length) fail('nothing after the JSON value');
    return undefined;
  } catch (err) {
    if (typeof (err as { at?: unknown }).at !== 'number') throw err;
    return err as { at: number; expected: string };
  }
}

/** Checks a configured template: JSON object, known placeholders, each required one landing as a whole value. */
export function checkTemplate(template: string, required: readonly Placeholder[]): void {
  const syntax = templateSyntaxError(template);
  if (syntax) {
    const shown = syntax.at >= template.length ? 'the end' : `character ${syntax.at + 1} of ${template.length}`;
    const before = `${syntax.at > 20 ? '…' : ''}${template.slice(Math.max(0, syntax.at - 20), syntax.at)}`;
    throw new TemplateError(`is not JSON: expected ${syntax.expected} at ${shown}${before ? `, after '${before}'` : ''}`);
  }
  renderBody(template, { text: MARK_TEXT, botId: MARK_NUMBER });
  const landed = placeholderPaths(template).map((p) => p.name);
  for (const name of required) {
    if (!landed.includes(name)) throw new TemplateError(`must hold {{${name}}} as a whole value, e.g. "field":"{{${name}}}"`);
  }
}

/** A copy of `body` with the value at `path` replaced (or removed when `value` is undefined). */
export function withValueAt(body: Record<string, unknown>, path: JsonPath, value: unknown): Record<string, unknown> {
  // JSON round trip, not structuredClone: the k6 runtime has none.
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** "$.message.text" */
export function pathText(path: JsonPath): string {
  return `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_]\w*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join('')}`;
}

/** The template in one canonical line (its own text without insignificant whitespace): how it is recorded. */
export function canonicalTemplate(template: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (inString && c === '\\') {
      out += template.slice(i, i + 2);
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    if (!inString && /\s/.test(c)) continue;
    out += c;
  }
  return out;
}
