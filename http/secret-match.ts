// Where a secret shows in a text the suite wrote (a report, a log): the secret guard's matcher. Pure.
//
// A secret is looked for in every form a value takes where it is written: as it is, escaped in JSON, percent- and
// form-encoded in a URL, escaped in HTML and XML. A random secret of 8 characters or more cannot show by chance, so
// any occurrence is a leak, inside prose included (a vendor echoing a token in an error message). A secret that
// reads as words or a number, or that the suite's own text uses ("password", "wrong-password", "2024"), shows in
// test titles, spec text and the vendor's prose without being leaked: such a secret is a leak only where it stands
// as a whole value (a header or field value, a path segment, a query or form value, a quoted string, a table cell),
// never as a word among words, as a name ("password": …) or inside a passage of the suite's own text (its test
// titles, the OpenAPI document it quotes). It cannot be guarded as well, and the guard says so.

/** Text the suite writes itself, prepared once for many secrets. */
export interface SuiteText {
  /** Every run of whitespace as one space. */
  collapsed: string;
  /** Lower case words only (normalized()). */
  words: string;
}

export interface GuardedSecret {
  /** How messages name it: "API_PASSWORD", never its value. */
  name: string;
  value: string;
  /** `anywhere`: every occurrence is a leak; `value`: only a whole value; `none`: too short to look for at all. */
  match: 'anywhere' | 'value' | 'none';
  /** Why it is not matched anywhere (the warning's reason). */
  weakness?: string;
  /** The suite's own text: an occurrence inside a passage of it is not a value the run wrote. */
  suiteText?: SuiteText;
}

/** Shorter than this, a secret is looked for only as a whole value; shorter than MIN_LENGTH, not at all. */
const RANDOM_LENGTH = 8;
const MIN_LENGTH = 4;

const WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)$/;
const SEPARATORS = /[-_. ]+/;

/** Lower case, separators as single spaces: "Wrong-Password" and "wrong password" read alike. */
const normalized = (text: string) =>
  ` ${text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(' ')} `;
const collapsed = (text: string) => text.replace(/\s+/g, ' ');

/** The suite's own text (its test titles, the documents it quotes), prepared for guardSecret. */
export function suiteText(...texts: string[]): SuiteText {
  const all = texts.join('\n');
  return { collapsed: collapsed(all), words: normalized(all) };
}

/**
 * How a secret can be guarded. `own`: text the suite writes itself (test titles, the OpenAPI document); a secret
 * found in it as whole words is matched as a value only, and never inside a passage of it.
 */
export function guardSecret(name: string, value: string, own: SuiteText = suiteText()): GuardedSecret {
  const weak = (weakness: string, match: GuardedSecret['match'] = 'value'): GuardedSecret => ({ name, value, match, weakness, suiteText: own });
  if (value.length < MIN_LENGTH) return weak(`it has ${value.length} characters`, 'none');
  if (value.length < RANDOM_LENGTH) return weak(`it has ${value.length} characters`);
  if (/^[\d\s.,:/+-]+$/.test(value)) return weak('it is a number or a date');
  if (value.split(SEPARATORS).every((part) => part === '' || WORD.test(part))) return weak('it reads as ordinary words');
  const words = normalized(value);
  if (words.trim() !== '' && own.words.includes(words)) return weak("the suite's own text uses it (test titles, the OpenAPI document)");
  return { name, value, match: 'anywhere' };
}

/** One line for a secret that cannot be guarded everywhere; undefined for one that can. */
export function weakSecretWarning(secret: GuardedSecret): string | undefined {
  if (secret.match === 'anywhere') return undefined;
  const fix = 'use a random value of 12 or more characters';
  if (secret.match === 'none') return `${secret.name} is too short to be guarded (${secret.weakness}): no report or log is checked for it; ${fix}`;
  return `${secret.name} is too short or too common to be guarded reliably (${secret.weakness}): it is looked for only where a value is written (headers, bodies, URLs, report fields), not in prose; ${fix}`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The forms a value takes where it is written: as it is, in JSON, in a URL or form, in HTML or XML. */
export function writtenForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [
    value,
    json,
    json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    encodeURIComponent(value),
    encodeURIComponent(value).replace(/%20/g, '+'),
    value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!),
    value.replace(/[&<>"']/g, (c) => (c === "'" ? '&#x27;' : HTML_ESCAPES[c]!)),
  ];
  return [...new Set(forms)];
}

// What may stand right before and right after a whole value (spaces aside; ";" ends an entity such as &quot;). Not
// a comma before it: "login, password" is prose; a value in a list is quoted.
const OPENS = new Set(['"', "'", '`', '<', '>', '(', '[', '{', '=', ':', ';', '&', '?', '|', '/', '\\', '\n', '\r', '\t']);
const CLOSES = new Set(['"', "'", '`', '<', '>', ')', ']', '}', ',', ';', '&', '?', '#', '|', '/', '\\', '\n', '\r', '\t']);
const SCHEME_BEFORE = /(?:^|[^A-Za-z])(?:Basic|Bearer|Token)[ \t]+$/i;

/** Whether text[start, end) stands as a whole value: opened and closed by value syntax, and not a name. */
function standsAsValue(text: string, start: number, end: number): boolean {
  let before = start - 1;
  while (before >= 0 && text[before] === ' ') before--;
  const opened = before < 0 || OPENS.has(text[before]!) || SCHEME_BEFORE.test(text.slice(Math.max(0, start - 12), start));
  let after = end;
  while (after < text.length && text[after] === ' ') after++;
  if (!opened || (after < text.length && !CLOSES.has(text[after]!))) return false;
  // A name, not a value: "password": …, password=…, a header's name, an element's <password> or </password>.
  let next = after;
  while (next < text.length && /["'`\\ \t]/.test(text[next]!)) next++;
  const element = (text[before] === '<' || (text[before] === '/' && text[before - 1] === '<')) && text[after] === '>';
  return !(text[next] === ':' || text[next] === '=' || element);
}

/** Characters of context either side that place an occurrence in a passage of the suite's own text. */
const PASSAGE = 16;

/** Whether text[start, end) lies inside a passage the suite wrote itself: its line around it is in that text. */
function inSuiteText(text: string, start: number, end: number, own: SuiteText | undefined): boolean {
  if (!own || own.collapsed.length === 0) return false;
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const lineEnd = text.indexOf('\n', end) < 0 ? text.length : text.indexOf('\n', end);
  const around = collapsed(text.slice(Math.max(lineStart, start - PASSAGE), Math.min(lineEnd, end + PASSAGE)));
  // Too little context proves nothing: a bare value on a line of its own.
  return around.trim().length >= end - start + PASSAGE && own.collapsed.includes(around);
}

/** Whether the secret shows in the text, as its guard matches it. */
export function secretWritten(text: string, secret: GuardedSecret): boolean {
  if (secret.match === 'none') return false;
  for (const form of writtenForms(secret.value)) {
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
      if (secret.match === 'anywhere') return true;
      if (standsAsValue(text, at, at + form.length) && !inSuiteText(text, at, at + form.length, secret.suiteText)) return true;
    }
  }
  return false;
}
