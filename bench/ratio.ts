// Where a staging run's wall time goes against its floor (requests ÷ the limit), so a ratio above its goal says what
// cost it: the command's own start and end, stretches inside the run with no request on the wire (a send waiting its
// turn in the pace, a Retry-After waited out, a test waiting for a callback), and the stretches with requests on the
// wire. The HAR times a request from when it went, after its turn: a pace below the limit shows in both of the last
// two. Pure: bench/staging.ts reads the times from the run's HAR.

/** One request as the HAR holds it: when it was sent (ms since the epoch) and how long its answer took. */
export interface Sent {
  startMs: number;
  ms: number;
}

/** Each part in seconds; `busyRatio`: the stretches with requests on the wire against the floor. */
export interface RatioParts {
  floorS: number;
  startS: number;
  endS: number;
  idleS: number;
  busyS: number;
  busyRatio: number;
}

const seconds = (ms: number) => Math.max(0, ms) / 1000;

/** The run's wall time from `runStartMs` to `runEndMs`, split into its parts, against `requests` ÷ `limit`. */
export function ratioParts(sent: readonly Sent[], runStartMs: number, runEndMs: number, limit: number): RatioParts {
  const floorS = sent.length / limit;
  if (sent.length === 0) return { floorS, startS: seconds(runEndMs - runStartMs), endS: 0, idleS: 0, busyS: 0, busyRatio: 0 };
  const spans = sent.map((s) => [s.startMs, s.startMs + s.ms] as const).sort((a, b) => a[0] - b[0]);
  let busyMs = 0;
  let [from, to] = spans[0]!;
  for (const [start, end] of spans.slice(1)) {
    if (start > to) {
      busyMs += to - from;
      from = start;
    }
    to = Math.max(to, end);
  }
  busyMs += to - from;
  const firstMs = spans[0]![0];
  return {
    floorS,
    startS: seconds(firstMs - runStartMs),
    endS: seconds(runEndMs - to),
    idleS: seconds(to - firstMs - busyMs),
    busyS: seconds(busyMs),
    busyRatio: busyMs / 1000 / floorS,
  };
}
