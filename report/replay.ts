// Which failure of a run's failures.json a user means by what they typed: its id (a ticket's Reference), a part of
// the id only one failure has, or its number. Pure: scripts/replay.ts reads the file and sends the request.
import type { RecordedFailure } from '../lib/failure.ts';

/** The failure meant by `query`, or a one-line reason why none or several are. */
export function findFailure(failures: readonly RecordedFailure[], query: string): RecordedFailure | string {
  if (failures.length === 0) return 'the last run recorded no contract failure';
  if (/^\d+$/.test(query)) {
    const n = Number(query);
    return failures[n - 1] ?? `there is no failure ${n}: the last run recorded ${failures.length} (1 to ${failures.length})`;
  }
  const exact = failures.filter((f) => f.id === query);
  const matches = exact.length > 0 ? exact : failures.filter((f) => f.id.includes(query));
  // One drift found by several tests records one id several times: the same request shows it, the first will do.
  if (new Set(matches.map((f) => f.id)).size === 1) return matches[0]!;
  if (matches.length === 0)
    return `no failure of the last run has "${query}" in its id: npm run replay -- N with N from 1 to ${failures.length}, or the id from failures.json or a ticket`;
  const ids = [...new Set(matches.map((f) => f.id))];
  return `"${query}" is in ${ids.length} failures' ids (${ids.slice(0, 3).join('; ')}${ids.length > 3 ? '; …' : ''}): give more of the id`;
}
