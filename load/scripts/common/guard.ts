// The safety rails, run before any request: in the init context on the script's own options (k6 refuses to start),
// and again first thing in setup() on the consolidated options, which include CLI flags such as --vus.
import exec from 'k6/execution';
import type { Options } from 'k6/options';
import { assertLoadSafety, safetyProblems } from '../../safety.ts';
import { config } from './config.ts';

export function guardInit(options: Options): void {
  assertLoadSafety(__ENV, config.baseUrl, options);
}

export function guardSetup(): void {
  const problems = safetyProblems(__ENV, config.baseUrl, exec.test.options);
  if (problems.length > 0) exec.test.abort(`refusing to run: ${problems.join('; ')}`);
}
