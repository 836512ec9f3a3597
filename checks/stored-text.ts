// A text a vendor stored and shows again (a message in the dialog's data, a variable's value), against the text sent.
// The specification says nothing of what a store does to a text (§4.2 send "carries the message text", §4.1 variables
// "values passed into the dialog"), so what any careful store may do is not held against it: Unicode NFC
// normalization, trimming the whitespace around it, CRLF stored as LF, HTML-escaping. Only what no conforming store
// does is: a character lost, replaced (U+FFFD, "?") or garbled (UTF-8 read as Latin-1). The form it stores in is
// observed (storedForm), from a fixed text of the run, never a generated one. Pure.

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", '#39': "'", '#x27': "'" };

/** HTML's escapes of markup characters read back, in one pass: "&amp;lt;" is "&lt;". */
const unescapeHtml = (text: string): string => text.replace(/&(lt|gt|amp|quot|apos|#39|#x27);/g, (_, name: string) => ENTITIES[name]!);

/** What a store may do to a text without losing any of it, in the order a store would do it. */
const FORMS: ReadonlyArray<readonly [name: string, form: (text: string) => string]> = [
  ['line breaks CRLF as LF', (text) => text.replaceAll('\r\n', '\n')],
  ['NFC-normalized', (text) => text.normalize('NFC')],
  ['trimmed', (text) => text.trim()],
];

/** A text with every form applied: two texts alike here differ only in how they were stored. */
export const canonical = (text: string): string => FORMS.reduce((t, [, form]) => form(t), text);

/** The readings of a shown text: as it is, and unescaped (a literal "&lt;" sent stays one when the store escapes none). */
const readings = (shown: string): string[] => [...new Set([shown, unescapeHtml(shown)])].map(canonical);

/**
 * Whether a shown text is one of `sents`, in any form a store may keep it: each sent text made canonical once (on the
 * first shown text: most reads show none), so a check that holds many shown texts against many sent ones pays for each
 * text once, not for every pair.
 */
export function sameTextAsAny(sents: readonly string[]): (shown: string) => boolean {
  let canon: Set<string> | undefined;
  return (shown) => {
    canon ??= new Set(sents.map(canonical));
    return readings(shown).some((r) => canon!.has(r));
  };
}

/** Whether `shown` is the text `sent`, in any form a store may keep it. */
export const sameText = (sent: string, shown: string): boolean => readings(shown).includes(canonical(sent));

/** Whether `shown` holds the text `sent`, in any form a store may keep it (a data item may wrap a message). */
export const holdsText = (shown: string, sent: string): boolean => readings(shown).some((s) => s.includes(canonical(sent)));

/** Whether two variable names are one: compared as texts, and without regard to case (a store may fold it). */
export const sameName = (name: string, shown: string | null): boolean => shown !== null && canonical(name).toLowerCase() === canonical(shown).toLowerCase();

/**
 * How a store kept a text: "as sent", else the fewest forms of FORMS (and HTML-escaping) that turn the text sent into
 * the one shown, "changed otherwise" when none do (a character lost or replaced), "not shown" when it shows nowhere.
 */
export function storedForm(sent: string, shown: string | undefined): string[] {
  if (shown === undefined) return ['not shown'];
  const forms: Array<readonly [string, (text: string) => string]> = [...FORMS, ['HTML-escaped', (text) => text]];
  const subsets = Array.from({ length: 2 ** forms.length }, (_, bits) => forms.filter((_, i) => bits & (2 ** i)));
  subsets.sort((a, b) => a.length - b.length);
  for (const subset of subsets) {
    const apply = (text: string) => subset.reduce((t, [, form]) => form(t), text);
    const escaped = subset.some(([name]) => name === 'HTML-escaped');
    if (apply(sent) === apply(escaped ? unescapeHtml(shown) : shown)) return subset.length === 0 ? ['as sent'] : subset.map(([name]) => name);
  }
  return ['changed otherwise'];
}
