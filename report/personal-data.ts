// End users' personal data out of what leaves the company: the IP addresses and cities the vendor's answers carry
// (§2.1: ip, "the IP address of the user who started the dialog"; location, "the city"; name, "dialog number plus the
// city") are replaced in tickets, failures.json and the drift report by stable pseudonyms, ip-1, ip-2, city-1, the same
// value the same pseudonym throughout a run's reports, so a ticket about two reads that differ still shows they differ.
// What a value is decides its pseudonym, not the field it stood in (an ip field holding a city reads city-1), so a
// check's finding stays readable; field names, expectations and the documented items are never touched.
// KEEP_PERSONAL_DATA=1 keeps the real values for internal use. Pure.

const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])/g;
/** An IPv6 address of at least three groups, "::" forms included (a time like 10:30:00 has no hex letters or "::"). */
const IPV6 = /(?<![\w:])(?=[0-9a-fA-F:]*(?:::|[a-fA-F]))(?:[0-9a-fA-F]{1,4}:){2,7}(?::|[0-9a-fA-F]{1,4})?(?::[0-9a-fA-F]{1,4})*(?![\w:])/g;
/** A JSON field of a dialog that holds personal data, in a body or a value quoted as JSON: "ip": "…", "location": "…". */
const FIELD = /\\?"(ip|location)\\?"\s*:\s*\\?"((?:[^"\\]|\\[^"])*)\\?"/g;

const isIp = (value: string) => new RegExp(`^(?:${IPV4.source}|${IPV6.source})$`).test(value);
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pseudonyms of a run's personal values: found in texts, replaced in any JSON value. */
export class Pseudonyms {
  private readonly names = new Map<string, string>();
  private counts = { ip: 0, city: 0 };
  private pattern: RegExp | undefined;

  /** Finds the personal values in texts (bodies, quoted values, evidence), in the order met. */
  learn(texts: Iterable<string>): this {
    for (const text of texts) {
      const found: Array<[number, string, 'ip' | 'city']> = [];
      for (const m of text.matchAll(FIELD)) {
        const value = m[2]!.replace(/\\(.)/g, '$1');
        if (value.trim().length >= 2) found.push([m.index!, value, isIp(value) ? 'ip' : 'city']);
      }
      // An address in a URL is a server's (the target's, a file link's), no user's.
      for (const re of [IPV4, IPV6]) for (const m of text.matchAll(re)) if (!text.slice(0, m.index).endsWith('//')) found.push([m.index!, m[0], 'ip']);
      for (const [, value, kind] of found.sort((a, b) => a[0] - b[0])) this.name(value, kind);
    }
    return this;
  }

  private name(value: string, kind: 'ip' | 'city'): void {
    if (this.names.has(value)) return;
    this.names.set(value, `${kind}-${++this.counts[kind]}`);
    this.pattern = undefined;
  }

  /** How many values it replaces. */
  get size(): number {
    return this.names.size;
  }

  /** A text with every personal value replaced, whole words only (the longest first: "New York" before "York"). */
  text(text: string): string {
    if (this.names.size === 0) return text;
    this.pattern ??= new RegExp(
      `(?<![\\p{L}\\p{N}.:])(?:${[...this.names.keys()]
        .sort((a, b) => b.length - a.length)
        .map(literal)
        .join('|')})(?![\\p{L}\\p{N}]|[.:]\\p{N})`,
      'gu',
    );
    return text.replace(this.pattern, (value) => this.names.get(value) ?? value);
  }

  /** Every string of a JSON value replaced, but the fields `keep` names (a failure's id, check and expectation). */
  value<T>(value: T, keep: ReadonlySet<string> = new Set()): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.value(v)) as T;
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keep.has(k) ? v : this.value(v)])) as T;
    return value;
  }
}

/** Every string of a JSON value, for learning from. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** What of a failure names the contract, never a value of the run: left as it is. */
export const FAILURE_NAMES: ReadonlySet<string> = new Set([
  'id',
  'check',
  'severity',
  'operationId',
  'comparedWith',
  'status',
  'pointer',
  'expected',
  'section',
  'test',
]);
