// Reads Stoplight Prism's proxy log into violations, each tied to the request it concerns. Pure: text in, data out.
//
// Prism logs each request as a block: "[HTTP SERVER] get /api/... Request received", the upstream status
// ("has returned 400"), then any "[VALIDATOR] ... Violation: request... / response..." lines.

export interface PrismViolation {
  method: string;
  path: string;
  upstreamStatus: number | undefined;
  direction: 'request' | 'response';
  level: 'error' | 'warning';
  message: string;
  /** Counted against the bar; false for a request the suite sent malformed on purpose and the target rejected. */
  counts: boolean;
}

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

export function parsePrismLog(text: string): { requests: number; violations: PrismViolation[] } {
  const violations: PrismViolation[] = [];
  let requests = 0;
  let current: { method: string; path: string; status?: number; pending: PrismViolation[] } | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(ANSI, '');
    const received = /\[HTTP SERVER\] (\w+) (\S+) .*Request received/.exec(line);
    if (received) {
      requests++;
      current = { method: received[1]!.toUpperCase(), path: received[2]!, pending: [] };
      continue;
    }
    const returned = /has returned (\d{3})/.exec(line);
    if (returned && current) {
      current.status = Number(returned[1]);
      for (const v of current.pending) {
        v.upstreamStatus = current.status;
        v.counts = countsAgainstBar(v);
      }
      continue;
    }
    const violation = /\[VALIDATOR\].*?(error|warning)\s+Violation: (request|response)\b\s*(.*)$/.exec(line);
    if (violation && current) {
      const v: PrismViolation = {
        method: current.method,
        path: current.path,
        upstreamStatus: current.status,
        direction: violation[2] as 'request' | 'response',
        level: violation[1] as 'error' | 'warning',
        message: violation[3]!.trim(),
        counts: true,
      };
      v.counts = countsAgainstBar(v);
      violations.push(v);
      current.pending.push(v);
    }
  }
  return { requests, violations };
}

/**
 * The suite's negative tests send malformed requests on purpose; such a request violating the document is expected
 * when the target rejected it with a 4xx. Every response violation counts, and so does a request the target accepted.
 */
function countsAgainstBar(v: PrismViolation): boolean {
  if (v.direction === 'response') return true;
  return !(v.upstreamStatus !== undefined && v.upstreamStatus >= 400 && v.upstreamStatus < 500);
}
