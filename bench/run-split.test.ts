import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TimingRecord } from '../contract/core/journal.ts';
import { PART } from '../contract/core/run-timing.ts';
import { medianSplit, perRunSplit, runSplit, splitTotal, type SplitPart } from './run-split.ts';

const part = (name: string, split: readonly SplitPart[]) => split.find((p) => p.name === name)!;
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

// A main command started at 0 and gone at 10 s: its own start to 0.4 s, global setup 1–1.5 s, the tests loaded at
// 1.8 s, two workers (the later one, 2.2–8 s, with 0.5 s in fixtures), the reporter's end 8.3–9 s, the guard to 9.2 s.
const main: TimingRecord[] = [
  { part: PART.command, from: 100, to: 400 },
  { part: PART.simulator, from: 1000, to: 1000 },
  { part: PART.preflight, from: 1000, to: 1100 },
  { part: PART.clock, from: 1100, to: 1150 },
  { part: PART.shapes, from: 1150, to: 1400 },
  { part: PART.clock, from: 1400, to: 1420 },
  { part: PART.setup, from: 1000, to: 1500 },
  { part: PART.begin, from: 1800, to: 1800 },
  { part: PART.lane, from: 2000, to: 4000, lane: 0, tests: 15, busyMs: 1900, fixturesMs: 300 },
  { part: PART.lane, from: 2200, to: 8000, lane: 1, tests: 112, busyMs: 5500, fixturesMs: 500 },
  { part: PART.fold, from: 8300, to: 8500 },
  { part: PART.judging, from: 8500, to: 8600 },
  { part: PART.end, from: 8300, to: 9000 },
  { part: PART.guard, from: 9000, to: 9200 },
];

test("the main command's wall time splits along its critical path into parts that add up to it", () => {
  const split = runSplit(0, 10_000, main);
  close(splitTotal(split), 10);
  assert.deepEqual(
    split.map((p) => [p.name, Number(p.seconds.toFixed(3))]),
    [
      ['process start', 1],
      ['global setup', 0.5],
      ['worker start and fixtures', 1.2],
      ['the tests', 5.3],
      ["the run's end", 2],
    ],
  );
  // Each part's steps add up to it.
  for (const p of split) if (p.parts) close(splitTotal(p.parts), p.seconds);
  assert.deepEqual(
    part('global setup', split).parts!.map((p) => [p.name, Number(p.seconds.toFixed(3))]),
    [
      ['simulator', 0],
      ['preflight', 0.1],
      ['shape discovery', 0.25],
      ['clock', 0.07],
      ['other', 0.08],
    ],
  );
  assert.deepEqual(
    part("the run's end", split).parts!.map((p) => [p.name, Number(p.seconds.toFixed(3))]),
    [
      ["Playwright's end (workers stop, list/html/junit reporters)", 0.3],
      ['journal fold', 0.2],
      ['judging', 0.1],
      ['reports', 0.4],
      ['secret guard', 0.2],
      ['exit', 0.8],
    ],
  );
});

test('an empty Playwright run, which journals no steps of the suite, splits into the same parts', () => {
  const empty: TimingRecord[] = [
    { part: PART.setup, from: 700, to: 700 },
    { part: PART.begin, from: 750, to: 750 },
    { part: PART.lane, from: 1100, to: 1105, lane: 0, tests: 1, busyMs: 5, fixturesMs: 9 },
  ];
  const split = runSplit(0, 1600, empty);
  close(splitTotal(split), 1.6);
  assert.deepEqual(
    split.map((p) => p.name),
    ['process start', 'global setup', 'worker start and fixtures', 'the tests', "the run's end"],
  );
  // Fixtures are never more than the tests they ran in.
  assert.ok(split.every((p) => p.seconds >= 0));
});

test("several runs' share of an invocation's wall time adds up to it over the runs", () => {
  const run = (offset: number): TimingRecord[] => [
    { part: PART.preflight, from: 1000 + offset, to: 1100 + offset },
    { part: PART.shapes, from: 1100 + offset, to: 1300 + offset },
    { part: PART.setup, from: 1000 + offset, to: 1400 + offset },
    { part: PART.begin, from: 2000, to: 2000 },
    { part: PART.lane, from: 2500 + offset, to: 9000, lane: 0, tests: 127, busyMs: 3000, fixturesMs: 600 },
    { part: PART.fold, from: 9500 + offset * 3, to: 9600 + offset * 3 },
    { part: PART.end, from: 9500 + offset * 3, to: 9800 + offset * 3 },
  ];
  const split = perRunSplit(0, 12_000, [run(0), run(100)]);
  close(splitTotal(split), 6);
  for (const p of split) if (p.parts) close(splitTotal(p.parts), p.seconds);
});

test('the median of each part over several splits', () => {
  const splits = [3, 1, 2].map((s): SplitPart[] => [{ name: 'the tests', seconds: s, parts: [{ name: 'in tests', seconds: s / 2 }] }]);
  assert.deepEqual(medianSplit(splits), [{ name: 'the tests', seconds: 2, parts: [{ name: 'in tests', seconds: 1 }] }]);
});

test('run ends side by side (two invocations) share the time some run was ending; one before the last test costs none', () => {
  const run = (end: [number, number], lane: [number, number]): TimingRecord[] => [
    { part: PART.setup, from: 1000, to: 1400 },
    { part: PART.lane, from: lane[0], to: lane[1], lane: 0, tests: 10, busyMs: lane[1] - lane[0], fixturesMs: 0 },
    { part: PART.judging, from: end[0], to: end[0] + 200 },
    { part: PART.end, from: end[0], to: end[1] },
  ];
  // Two ends of 300 ms overlapping by 200 after the last test at 9000; one end at 5000, while the other's tests ran.
  const split = perRunSplit(0, 10_000, [run([9100, 9400], [2000, 9000]), run([9200, 9500], [2000, 9000]), run([5000, 5300], [2000, 4900])]);
  const end = split.find((p) => p.name === "the run's end")!;
  close(splitTotal(end.parts!), end.seconds);
  close(end.parts!.find((p) => p.name === 'judging')!.seconds, (0.4 * 0.4) / 0.6 / 3);
  close(end.parts!.find((p) => p.name === "Playwright's end and exit")!.seconds, (1 - 0.4) / 3);
});

test("runs that end while the lanes' other runs test share the lanes' time with the tests, by their own time", () => {
  const run = (end: number): TimingRecord[] => [
    { part: PART.setup, from: 1000, to: 1400 },
    { part: PART.lane, from: 2000, to: 10_000, lane: 0, tests: 10, busyMs: 8000, fixturesMs: 0 },
    { part: PART.fold, from: end, to: end + 100 },
    { part: PART.judging, from: end + 100, to: end + 400 },
    { part: PART.end, from: end, to: end + 500 },
  ];
  const split = perRunSplit(0, 10_500, [run(5000), run(10_000)]);
  close(splitTotal(split), 5.25);
  const tests = split.find((p) => p.name === 'the tests (in lanes)')!;
  close(splitTotal(tests.parts!), tests.seconds);
  // 16 s of tests and one run's end of 0.5 s within the lanes' 8 s, over 2 runs.
  close(tests.parts!.find((p) => p.name === "runs' ends beside them: judging")!.seconds, (4 * 0.3) / 16.5);
  close(tests.parts!.find((p) => p.name === 'in tests')!.seconds, (4 * 16) / 16.5);
  // The other ended after the last test: the run's end, as before.
  close(split.find((p) => p.name === "the run's end")!.parts!.find((p) => p.name === 'judging')!.seconds, (0.3 * 0.5) / 0.5 / 2);
});
