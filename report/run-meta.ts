// Which run a report belongs to (lib/fingerprint.ts RunMeta): the pieces every writer of a report computes alike.
// Pure (no URL class, no package.json read at import): the callers hand in what they know.
import type { RunMeta } from '../lib/fingerprint.ts';

/** Host and port of a base URL, what a report names as its target: never a path, never a credential. */
export function targetOf(baseUrl: string): string {
  const authority = /^[a-z]+:\/\/([^/?#]*)/i.exec(baseUrl)?.[1] ?? baseUrl;
  return authority.slice(authority.lastIndexOf('@') + 1).toLowerCase();
}

/** The version headers of an answer (API-Version, X-API-Version, X-Version…), the vendor's own word on it. */
export function vendorVersion(headers: Record<string, string>): string | null {
  const found = Object.entries(headers).filter(([name]) => /^(x-)?(api-)?version$/i.test(name));
  return found.length === 0
    ? null
    : found
        .map(([name, value]) => `${name.toLowerCase()}: ${value}`)
        .sort()
        .join(', ');
}

export function runMeta(runId: string, startedAtMs: number, baseUrl: string, suite: string, vendor: string | null): RunMeta {
  return { runId, startedAt: new Date(startedAtMs).toISOString(), target: targetOf(baseUrl), suiteVersion: suite, vendorVersion: vendor };
}
