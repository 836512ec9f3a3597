// What workers record as a run goes (exchanges, observations, throttles, preconditions): one JSON object per line,
// one file per worker under reports/<dir>/, so workers never interleave writes. Read back by the run's last steps.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every row of every file under `dir`, files in name order. */
export function readJsonLines<T>(dir: string): T[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as T);
}
