// npm run bench:limits: how many requests each size search used, against the ⌈log2(range)⌉ + 2 bound, for the
// ranges the suite searches and limits small, middling and large (plus the worst case over many limits).
import { requestBound, runLimitSearch } from '../lib/limit-search.ts';

const RANGES: Array<{ name: string; lower: number; upper: number; limits: number[] }> = [
  { name: 'PageCount', lower: 1, upper: 10_000, limits: [0, 1, 20, 40, 100, 200, 500, 1000, 5000, 9999, 10_000] },
  { name: 'text length', lower: 1, upper: 1_048_576, limits: [0, 1, 140, 1000, 4096, 10_000, 65_535, 500_000, 1_048_575, 1_048_576] },
  { name: 'variables bytes', lower: 2, upper: 1_048_576, limits: [1, 2, 100, 1024, 8192, 65_536, 1_000_000, 1_048_576] },
];

/** Every limit for ranges up to 2^14 wide, a strided sample beyond: the worst case the search ever needs. */
function worstCase(lower: number, upper: number): number {
  const stride = Math.max(1, Math.floor((upper - lower) / 20_000));
  let worst = 0;
  for (let limit = lower - 1; limit <= upper; limit += stride) {
    worst = Math.max(worst, runLimitSearch({ lower, upper }, (v) => v <= limit).requests);
  }
  return worst;
}

for (const { name, lower, upper, limits } of RANGES) {
  const bound = requestBound(lower, upper);
  console.log(`${name} ${lower}..${upper}: bound ⌈log2 ${upper - lower}⌉ + 2 = ${bound}, worst seen ${worstCase(lower, upper)}`);
  for (const limit of limits) {
    const result = runLimitSearch({ lower, upper }, (v) => v <= limit);
    const found = result.outcome === 'found' ? `limit ${result.limit}` : result.outcome;
    console.log(`  hidden ${String(limit).padStart(9)}  ${String(result.requests).padStart(2)} requests  ${found}`);
  }
}
