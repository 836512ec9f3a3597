// The seed of a run's generated inputs (SEED): given, or drawn once for the run by its first process (the main
// command, else global setup) and handed to every other through the environment, so all of them generate alike.
// Printed on the run's first line and in its reports; never in its fingerprint, which holds no generated value.
import { randomInt } from 'node:crypto';
import { MAX_SEED } from '../../config/suite-config.ts';

export const SEED_ENV = 'SEED';

/** The run's seed: SEED, or one drawn now and left in `env` for the processes the run starts. */
export function runSeed(env: NodeJS.ProcessEnv = process.env): { seed: number; drawn: boolean } {
  const given = env[SEED_ENV]?.trim();
  if (given) return { seed: Number(given), drawn: false };
  const seed = randomInt(MAX_SEED);
  env[SEED_ENV] = String(seed);
  return { seed, drawn: true };
}

/** The line that names the seed, first in the run's output: what replays the run's generated inputs. */
export const seedLine = (seed: number, cases: number): string =>
  `dialog-contract: generated inputs: seed ${seed} (SEED=${seed} replays them), ${cases} cases per operation (GENERATED_CASES)`;
