// npm run bench:limits: how many requests each size search used, against the ⌈log2(range)⌉ + 2 bound, for the
// ranges the suite searches and limits small, middling and large (plus the worst case over many limits).
import { requestBound, runLimitSearch } from '../discovery/limit-search.ts';
import { SIZE_LIMITS } from '../discovery/size-limits.ts';
import { commandLineOrExit } from '../config/command-line.ts';
import { benchFigures } from './record.ts';

const figure = benchFigures('limit-search');

commandLineOrExit({
  script: 'bench:limits',
  usage: [''],
  summary:
    'Prints how many requests each size search (discovery/limit-search.ts) used against its bound of ceil(log2(range)) + 2,\n' +
    'for the ranges the probes and the k6 size-limits script search, with hidden limits small, middling and large, and\n' +
    'the worst case over many limits. Pure computation: no server.',
  options: {},
  environment: [],
  exit: '0 figures printed; 2 bad input.',
  examples: ['npm run bench:limits'],
});

// The ranges the probes and the k6 script search (discovery/size-limits.ts), each with hidden limits across its span.
const RANGES = SIZE_LIMITS.map(({ item, lower, upper }) => {
  const limits = [lower - 1, lower, 20, 140, 1000, 4096, 8192, Math.floor(upper / 2), upper - 1, upper].filter((l) => l >= lower - 1 && l <= upper);
  return { name: item, lower, upper, limits: [...new Set(limits)] };
});

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
  figure(`${name} ${lower}..${upper}: bound ⌈log2 ${upper - lower}⌉ + 2 = ${bound}, worst seen ${worstCase(lower, upper)}`);
  for (const limit of limits) {
    const result = runLimitSearch({ lower, upper }, (v) => v <= limit);
    const found = result.outcome === 'found' ? `limit ${result.limit}` : result.outcome;
    figure(`  hidden ${String(limit).padStart(9)}  ${String(result.requests).padStart(2)} requests  ${found}`);
  }
}
