// Secrets never reach an artifact: request bodies are redacted before anything records them, and reporters and
// load summaries pass every text they write through redactText with the configured secrets. Pure and k6-safe.

const SECRET_KEY = /token|password|secret|authorization/i;
export const REDACTED = '[redacted]';

/** A JSON body with every secret-looking field replaced; non-JSON text is returned as is. */
export function redactBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(redactValue(parsed));
}

export function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && v !== null && typeof v !== 'object' ? REDACTED : redactValue(v)]),
    );
  }
  return value;
}

/**
 * The secrets this process knows (the configured ones, the integration tokens its tests were handed): whatever a
 * test prints passes through redactKnown. Per process by design: each worker learns its own tokens.
 */
const known = new Set<string>();

export function rememberSecrets(values: Iterable<string>): void {
  for (const value of values) if (value.length >= 4) known.add(value);
}

export const redactKnown = (text: string): string => redactText(text, [...known]);

/** Headers with credential-carrying ones blanked and the secrets this process knows removed from the rest. */
export const redactKnownHeaders = (headers: Record<string, string>): Record<string, string> => redactHeaders(headers, [...known]);

/** Every string inside a value redacted with the secrets this process knows (see redactIn). */
export const redactKnownIn = <T>(value: T): T => redactIn(value, [...known]);

/**
 * Every string inside a value redacted. Per string, not over serialised text: a secret holding a quote, a backslash
 * or an ampersand is escaped in JSON or HTML, where a plain search would miss it.
 */
export function redactIn<T>(value: T, secrets: ReadonlyArray<string | undefined>): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactIn(v, secrets)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactIn(v, secrets)])) as T;
  return value;
}

// A credential after Basic/Bearer: anywhere in an Authorization header, elsewhere only when it cannot be a word of
// prose ("Basic credentials" in an observation's text stays readable).
const HEADER_CREDENTIAL = /(authorization["']?\s*[:=]\s*["']?)(basic|bearer)\s+[A-Za-z0-9+/=._~-]+/gi;
const LOOSE_CREDENTIAL = /\b(Basic|Bearer)\s+(?![a-z]+\b)[A-Za-z0-9+/=._~-]+/g;
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

/** Replaces every occurrence of each secret, and any Basic or Bearer credential, in free text. */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text.replace(HEADER_CREDENTIAL, `$1$2 ${REDACTED}`).replace(LOOSE_CREDENTIAL, `$1 ${REDACTED}`);
  for (const secret of secrets) if (secret) out = out.split(secret).join(REDACTED);
  return out;
}

/** Headers with credential-carrying ones blanked and secrets removed from the rest. */
export function redactHeaders(headers: Record<string, string>, secrets: ReadonlyArray<string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = SECRET_HEADERS.test(name) ? REDACTED : redactText(value, secrets);
  return out;
}
