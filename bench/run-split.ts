// Where a run's wall time goes, from the parts its processes journalled (contract/core/run-timing.ts) and the two
// moments only the benchmark sees: when it started the command and when the command exited. The parts follow one
// another along the run's critical path (the worker whose last test ended last), so they add up to the wall time:
// process start, global setup, worker start and fixtures, the tests, the run's end. Pure: bench/contract.ts and
// bench/mutation.ts read the journals.
import type { TimingRecord } from '../contract/core/journal.ts';
import { PART } from '../contract/core/run-timing.ts';

/** A part of a run's wall time, in seconds, and the parts it is made of (they add up to it). */
export interface SplitPart {
  name: string;
  seconds: number;
  parts?: SplitPart[];
}

const s = (ms: number) => Math.max(0, ms) / 1000;
const total = (records: readonly TimingRecord[]) => records.reduce((sum, r) => sum + (r.to - r.from), 0);
const first = (records: readonly TimingRecord[], part: string) => records.find((r) => r.part === part);
const all = (records: readonly TimingRecord[], part: string) => records.filter((r) => r.part === part);

/** The records cut to what of each lies between `from` and `to`, those with nothing there left out. */
const clipped = (records: readonly TimingRecord[], from: number, to: number): TimingRecord[] =>
  records.flatMap((r) => (r.to > from && r.from < to ? [{ ...r, from: Math.max(r.from, from), to: Math.min(r.to, to) }] : []));

/** How long at least one of the records lasted: their union's length. */
function unionMs(records: readonly TimingRecord[]): number {
  let [sum, reach] = [0, -Infinity];
  for (const r of [...records].sort((a, b) => a.from - b.from)) {
    if (r.to <= reach) continue;
    sum += r.to - Math.max(r.from, reach);
    reach = r.to;
  }
  return sum;
}

/** `of` less the parts named, as its last part ("other"), when anything is left. */
function withOther(name: string, of: number, parts: SplitPart[], other = 'other'): SplitPart {
  const left = of - parts.reduce((sum, p) => sum + p.seconds, 0);
  return { name, seconds: of, parts: left > 0.0005 ? [...parts, { name: other, seconds: left }] : parts };
}

/**
 * The split of one run of the main command (or of an empty Playwright run, which journals no setup steps and no
 * run end of the suite's), started at `startedAt` and gone at `endedAt` (ms since the epoch).
 */
export function runSplit(startedAt: number, endedAt: number, records: readonly TimingRecord[]): SplitPart[] {
  const lanes = all(records, PART.lane);
  if (lanes.length === 0) throw new Error('the run journalled no worker stretch of tests: did a test run?');
  const critical = lanes.reduce((a, b) => (b.to > a.to ? b : a));
  const begin = first(records, PART.begin)?.from ?? critical.from;
  const setup = first(records, PART.setup) ?? { part: PART.setup, from: begin, to: begin };
  const command = first(records, PART.command);
  const setupParts = [PART.simulator, PART.preflight, PART.shapes, PART.clock].map((part) => ({
    name: { [PART.simulator]: 'simulator', [PART.preflight]: 'preflight', [PART.shapes]: 'shape discovery', [PART.clock]: 'clock' }[part]!,
    seconds: s(total(all(records, part))),
  }));
  const busy = critical.busyMs ?? critical.to - critical.from;
  const fixtures = s(Math.min(critical.fixturesMs ?? 0, busy));
  const end = first(records, PART.end);
  const fold = s(total(all(records, PART.fold)));
  const judging = s(total(all(records, PART.judging)));
  const guard = first(records, PART.guard);
  // In order after the last test: Playwright's own end, the run reporter's steps, the secret guard, the exit.
  const runEnd: SplitPart[] = [
    { name: "Playwright's end (workers stop, list/html/junit reporters)", seconds: s((end?.from ?? guard?.from ?? endedAt) - critical.to) },
    ...(end
      ? [
          { name: 'journal fold', seconds: fold },
          { name: 'judging', seconds: judging },
          { name: 'reports', seconds: s(end.to - end.from) - fold - judging },
        ]
      : []),
    ...(guard ? [{ name: 'secret guard', seconds: s(guard.to - (end?.to ?? guard.from)) }] : []),
    ...(end || guard ? [{ name: 'exit', seconds: s(endedAt - (guard?.to ?? end!.to)) }] : []),
  ];
  return [
    {
      name: 'process start',
      seconds: s(setup.from - startedAt),
      parts: command
        ? [
            { name: 'the main command', seconds: s(command.to - startedAt) },
            { name: "Playwright's start", seconds: s(setup.from - command.to) },
          ]
        : [{ name: "Playwright's start", seconds: s(setup.from - startedAt) }],
    },
    withOther('global setup', s(setup.to - setup.from), setupParts),
    {
      name: 'worker start and fixtures',
      seconds: s(critical.from - setup.to) + fixtures,
      parts: [
        { name: 'tests loaded', seconds: s(begin - setup.to) },
        { name: 'worker started', seconds: s(critical.from - begin) },
        { name: 'fixtures', seconds: fixtures },
      ],
    },
    {
      name: 'the tests',
      seconds: s(critical.to - critical.from) - fixtures,
      parts: [
        { name: 'in tests', seconds: s(busy) - fixtures },
        { name: "between tests (Playwright's dispatch)", seconds: s(critical.to - critical.from - busy) },
      ],
    },
    { name: "the run's end", seconds: s(endedAt - critical.to), parts: runEnd },
  ];
}

/**
 * The split of an invocation of several suite runs (the mutation run), per run: each part of the invocation's wall
 * time (from `startedAt` to `endedAt`) divided by the runs. `runs` holds each run's journal. Runs are set up side by
 * side and their tests run in lanes, so a step's share is its share of the runs' own time in that part; a run ends
 * when its last test has, beside the other runs' tests, and those after the last test beside the other invocations'.
 */
export function perRunSplit(startedAt: number, endedAt: number, runs: ReadonlyArray<readonly TimingRecord[]>): SplitPart[] {
  const n = runs.length;
  const records = runs.flat();
  const setups = all(records, PART.setup);
  const lanes = all(records, PART.lane);
  if (n === 0 || lanes.length === 0) throw new Error('no run journalled a worker stretch of tests: did a test run?');
  const setupFrom = Math.min(...setups.map((r) => r.from));
  const setupTo = Math.max(...setups.map((r) => r.to));
  const begin = first(records, PART.begin)?.from ?? setupTo;
  const testsFrom = Math.min(...lanes.map((r) => r.from));
  const testsTo = Math.max(...lanes.map((r) => r.to));
  const per = (ms: number) => s(ms) / n;
  // A phase's wall share per run, its steps in proportion to the runs' own time in each.
  const sharedSteps = (wallMs: number, steps: Array<[string, number]>): SplitPart[] => {
    const own = steps.reduce((sum, [, ms]) => sum + ms, 0);
    return steps.map(([step, ms]) => ({ name: step, seconds: own > 0 ? (per(wallMs) * ms) / own : 0 }));
  };
  const shared = (name: string, wallMs: number, steps: Array<[string, number]>): SplitPart => ({
    name,
    seconds: per(wallMs),
    parts: sharedSteps(wallMs, steps),
  });
  const setupOwn = total(setups);
  const setupSteps: Array<[string, number]> = [
    ['simulator', total(all(records, PART.simulator))],
    ['preflight', total(all(records, PART.preflight))],
    ['shape discovery', total(all(records, PART.shapes))],
    ['clock', total(all(records, PART.clock))],
  ];
  setupSteps.push(['other', Math.max(0, setupOwn - setupSteps.reduce((sum, [, ms]) => sum + ms, 0))]);
  const busy = lanes.reduce((sum, r) => sum + (r.busyMs ?? r.to - r.from), 0);
  const fixtures = lanes.reduce((sum, r) => sum + (r.fixturesMs ?? 0), 0);
  // The run ends after the last test: invocations side by side end their runs side by side, and one that ended its
  // runs while another's tests still ran cost no time of its own. Each step's share of the time some run was ending.
  const after = (part: string) => clipped(all(records, part), testsTo, endedAt);
  const ending = unionMs(after(PART.end));
  const [fold, judging, endOwn] = [total(after(PART.fold)), total(after(PART.judging)), total(after(PART.end))];
  const testsShare = per(testsTo - testsFrom);
  // A run ends as soon as its last test has (contract/reporters/runs-reports.ts), mostly while the lanes' other runs
  // test: those ends take their share of the lanes' time beside the tests, in proportion to the runs' own time in each.
  const within = (part: string) => total(clipped(all(records, part), testsFrom, testsTo));
  const [foldIn, judgingIn, endIn] = [within(PART.fold), within(PART.judging), within(PART.end)];
  return [
    {
      name: 'process start',
      seconds: per(setupFrom - startedAt),
      parts: [{ name: "the command's and Playwright's start, the simulators", seconds: per(setupFrom - startedAt) }],
    },
    shared('global setup (side by side)', setupTo - setupFrom, setupSteps),
    {
      name: 'worker start and fixtures',
      seconds: per(testsFrom - setupTo) + (testsShare * fixtures) / busy,
      parts: [
        { name: 'tests loaded', seconds: per(begin - setupTo) },
        { name: 'worker started', seconds: per(testsFrom - begin) },
        { name: 'fixtures', seconds: (testsShare * fixtures) / busy },
      ],
    },
    shared('the tests (in lanes)', ((testsTo - testsFrom) * (busy - fixtures)) / busy, [
      ['in tests', busy - fixtures],
      ["runs' ends beside them: journal fold", foldIn],
      ["runs' ends beside them: judging", judgingIn],
      ["runs' ends beside them: reports", endIn - foldIn - judgingIn],
    ]),
    {
      name: "the run's end",
      seconds: per(endedAt - testsTo),
      parts: [
        ...sharedSteps(ending, [
          ['journal fold', fold],
          ['judging', judging],
          ['reports', endOwn - fold - judging],
        ]),
        { name: "Playwright's end and exit", seconds: per(endedAt - testsTo - ending) },
      ],
    },
  ];
}

/** Adds up a split: its parts' seconds. */
export const splitTotal = (split: readonly SplitPart[]) => split.reduce((sum, p) => sum + p.seconds, 0);

/** Each part's median over several splits of the same shape (a run of each kind per pair). */
export function medianSplit(splits: ReadonlyArray<readonly SplitPart[]>): SplitPart[] {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const merge = (parts: ReadonlyArray<readonly SplitPart[]>): SplitPart[] =>
    parts[0]!.map((part, i) => {
      const same = parts.map((p) => p.find((q) => q.name === part.name) ?? p[i]!);
      const children = part.parts && same.every((p) => p.parts) ? merge(same.map((p) => p.parts!)) : undefined;
      return { name: part.name, seconds: median(same.map((p) => p.seconds)), ...(children ? { parts: children } : {}) };
    });
  return merge(splits);
}

/**
 * The split as a table: each part and its steps beside the same part of the empty Playwright run, in seconds, and
 * its times the empty run's whole.
 */
export function splitTable(title: [string, string], suite: readonly SplitPart[], empty: readonly SplitPart[]): string[] {
  const width = 64;
  const emptyOf = (name: string, parts: readonly SplitPart[] | undefined) => parts?.find((p) => p.name === name)?.seconds;
  const cell = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2)).padStart(8);
  const rows = [`${'part'.padEnd(width)}${title[0].padStart(8)}${title[1].padStart(8)}`];
  for (const part of suite) {
    const other = empty.find((p) => p.name === part.name || p.name.split(' (')[0] === part.name.split(' (')[0]);
    rows.push(`${part.name.padEnd(width)}${cell(part.seconds)}${cell(other?.seconds ?? 0)}`);
    for (const step of part.parts ?? []) rows.push(`  ${step.name.padEnd(width - 2)}${cell(step.seconds)}${cell(emptyOf(step.name, other?.parts))}`);
  }
  rows.push(`${'total'.padEnd(width)}${cell(splitTotal(suite))}${cell(splitTotal(empty))}`);
  return rows;
}
