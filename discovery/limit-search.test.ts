import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestBound, runLimitSearch, runLimitSearchAsync, searchLimit, type LimitSearchResult } from './limit-search.ts';
import { seededRandom } from '../lib/seeded-random.ts';

/** A target whose hidden limit is `limit`: accepts every value up to it. */
const targetWithLimit = (limit: number) => (value: number) => value <= limit;

function assertFinds(result: LimitSearchResult, limit: number, lower: number, upper: number): void {
  const where = `limit ${limit} in ${lower}..${upper}`;
  assert.ok(result.requests <= result.bound, `${where}: ${result.requests} requests > bound ${result.bound}`);
  assert.equal(result.requests, result.probes.length, where);
  assert.equal(result.limit, limit >= lower ? Math.min(limit, upper) : null, where);
  assert.equal(result.firstRejected, limit < upper ? Math.max(limit + 1, lower) : null, where);
  assert.equal(result.outcome, limit < lower ? 'below-lower' : limit >= upper ? 'above-upper' : 'found', where);
  const values = result.probes.map((p) => p.value);
  assert.equal(new Set(values).size, values.length, `${where}: a value was probed twice`);
  assert.ok(
    values.every((v) => Number.isInteger(v) && v >= lower && v <= upper),
    `${where}: probe out of range`,
  );
}

test('the bound is ⌈log2(upper − lower)⌉ + 2 requests', () => {
  assert.equal(requestBound(1, 10_000), 16);
  assert.equal(requestBound(1, 1_048_576), 22);
  assert.equal(requestBound(2, 1_048_576), 22);
  assert.equal(requestBound(1, 2), 2);
  assert.equal(requestBound(5, 5), 2);
});

test('finds every limit of every range up to 300 wide within the bound (exhaustive)', () => {
  for (const growth of [1.5, 2, 4]) {
    for (const lower of [0, 1, 2, 7]) {
      for (let range = 0; range <= 300; range++) {
        const upper = lower + range;
        for (let limit = lower - 1; limit <= upper; limit++) {
          assertFinds(runLimitSearch({ lower, upper, growth }, targetWithLimit(limit)), limit, lower, upper);
        }
      }
    }
  }
});

test('finds seeded-random limits of large ranges within the bound', () => {
  const random = seededRandom(20240607);
  const ranges: Array<[number, number]> = [
    [1, 10_000],
    [1, 1_048_576],
    [2, 1_048_576],
    [1, 2 ** 20 - 1],
    [1, 2 ** 20 + 1],
    [0, 2 ** 40],
  ];
  for (const [lower, upper] of ranges) {
    // Log-uniform limits cover small, middling and large ones alike; the ends are added explicitly.
    const limits = [lower - 1, lower, upper - 1, upper];
    for (let i = 0; i < 1500; i++) limits.push(lower - 1 + Math.floor((upper - lower + 2) ** random()));
    for (const limit of limits) assertFinds(runLimitSearch({ lower, upper }, targetWithLimit(limit)), limit, lower, upper);
  }
});

test('small limits cost few requests: the exponential start pays off', () => {
  const cost = (limit: number) => runLimitSearch({ lower: 1, upper: 1_048_576 }, targetWithLimit(limit)).requests;
  assert.ok(cost(10) <= 8, `limit 10 took ${cost(10)}`);
  assert.ok(cost(100) <= 14, `limit 100 took ${cost(100)}`);
  assert.equal(cost(0), 2);
});

test('stops with outcome inconclusive and the bracket so far when the probe cannot tell', () => {
  const result = runLimitSearch({ lower: 1, upper: 10_000 }, (value) => (value <= 40 ? true : value < 1000 ? null : false));
  assert.equal(result.outcome, 'inconclusive');
  assert.ok(result.limit === null || result.limit <= 40);
  assert.ok(result.probes.every((p) => p.value <= 40 || p.value >= 1000));
});

test('the async driver asks the same questions as the sync one', async () => {
  const options = { lower: 2, upper: 1_048_576 };
  const sync = runLimitSearch(options, targetWithLimit(65_536));
  const async = await runLimitSearchAsync(options, async (value) => value <= 65_536);
  assert.deepEqual(async, sync);
  assert.equal(async.limit, 65_536);
});

test('the generator yields candidates and receives answers', () => {
  const search = searchLimit({ lower: 1, upper: 1 });
  const first = search.next();
  assert.deepEqual(first, { value: 1, done: false });
  const last = search.next(false);
  assert.equal(last.done, true);
  assert.equal(last.done && last.value.outcome, 'below-lower');
});

test('refuses a reversed or fractional range and a growth of 1 or less', () => {
  assert.throws(() => runLimitSearch({ lower: 10, upper: 1 }, () => true), RangeError);
  assert.throws(() => runLimitSearch({ lower: 1.5, upper: 10 }, () => true), RangeError);
  assert.throws(() => runLimitSearch({ lower: 1, upper: 10, growth: 1 }, () => true), RangeError);
});
