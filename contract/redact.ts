// Secrets never reach an artifact: request bodies are redacted before anything records them, and reporters pass
// every text they write through redactText with the configured secrets.

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

/** Replaces every occurrence of each secret (and of the Basic header that carries it) in free text. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text.replace(/(authorization["']?\s*[:=]\s*["']?)(basic|bearer)\s+[A-Za-z0-9+/=._-]+/gi, `$1$2 ${REDACTED}`);
  for (const secret of secrets) if (secret) out = out.split(secret).join(REDACTED);
  return out;
}
