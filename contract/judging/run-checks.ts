// The checks of a run: the project's (checks/registry.ts) and a team's own (CHECKS_MODULE), less those the run leaves
// out (CHECKS, EXCLUDE_CHECKS: `npm run contract -- --checks`, `--exclude-checks`). Made once per process and
// configuration: a worker, the run reporter, the main command's --list-checks and `npm run judge` all see the same.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CheckRegistry, CheckRegistryError, checkProblem, type AnyCheck } from '../../checks/check.ts';
import { BUILT_IN } from '../../checks/registry.ts';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { PROJECT_ROOT } from '../core/env.ts';

/**
 * The checks a team's module exports (its default export: one check or an array of them, made with defineCheck),
 * each checked as the registry checks the project's; a module that cannot be loaded is one line.
 */
export async function loadTeamChecks(module: string): Promise<AnyCheck[]> {
  const file = isAbsolute(module) ? module : resolve(PROJECT_ROOT, module);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    throw new CheckRegistryError(`CHECKS_MODULE=${module} cannot be loaded: ${String((err as Error).message).split('\n')[0]}`);
  }
  const checks = [loaded.default].flat();
  const problem = checks.length === 0 || loaded.default === undefined ? 'it has no default export of checks' : checks.map(checkProblem).find(Boolean);
  if (problem) throw new CheckRegistryError(`CHECKS_MODULE=${module}: ${problem} (docs/checks.md shows a module)`);
  return checks as AnyCheck[];
}

/** The registry of a run's configuration. */
export async function registryOf(config: Pick<SuiteConfig, 'checksModule' | 'checks' | 'excludeChecks'>): Promise<CheckRegistry> {
  const team = config.checksModule ? await loadTeamChecks(config.checksModule) : [];
  return new CheckRegistry([...BUILT_IN, ...team], {
    ...(config.checks ? { checks: config.checks } : {}),
    ...(config.excludeChecks ? { exclude: config.excludeChecks } : {}),
  });
}

const registries = new WeakMap<object, Promise<CheckRegistry>>();

/** The registry of a run, made once per configuration object (each run of an invocation of several has its own). */
export function runChecks(config: SuiteConfig): Promise<CheckRegistry> {
  let registry = registries.get(config);
  if (!registry) {
    registry = registryOf(config);
    registries.set(config, registry);
  }
  return registry;
}
