// The suite's configuration as the Playwright processes read it: .env loaded (its lines checked; dotenv prints
// nothing into reports), then the one parser of config/suite-config.ts. Launchers (playwright.config.ts, scripts/) put the
// embedded simulator's values into the environment before anything reads it.
import { fileURLToPath } from 'node:url';
import { loadDotenvFile } from '../config/dotenv-file.ts';
import { ConfigError, parseSuiteConfig, type SuiteConfig } from '../config/suite-config.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REPORTS_DIR = process.env.REPORTS_DIR ?? fileURLToPath(new URL('../reports', import.meta.url));

/**
 * Set to 1 for the runs of the scripts that run the whole suite many times (scripts/suite-run.ts `oneProject`: mutation,
 * profiles): the probes and the API tests in one project, so in one worker process, where two projects cost a worker
 * start each. A run with this set has no `api` or `probes` project to select.
 */
export const ONE_PROJECT_ENV = 'DIALOG_CONTRACT_ONE_PROJECT';

/**
 * Set to 1 by the main command (scripts/contract.ts) when it has started the embedded simulator itself, beside
 * Playwright instead of before it: Playwright's webServer then starts none, and global setup waits until it listens.
 */
export const SIMULATOR_STARTED_ENV = 'DIALOG_CONTRACT_SIMULATOR_STARTED';

/** Loads .env into process.env; values already in the environment win. A line dotenv cannot read is a ConfigError. */
export function loadDotenvOnce(): void {
  loadDotenvFile(fileURLToPath(new URL('../.env', import.meta.url)));
}

let cached: SuiteConfig | undefined;

export function loadSuiteConfig(): SuiteConfig {
  if (!cached) {
    loadDotenvOnce();
    cached = parseSuiteConfig(process.env);
  }
  return cached;
}

/**
 * The configuration a launcher starts from: .env loaded, then `prepare` (e.g. the embedded simulator's values standing
 * in for unset ones, set ones win). A bad or missing value is one line, `name: …`, and exit 2.
 */
export function configOrExit(name: string, prepare: (env: NodeJS.ProcessEnv) => void): SuiteConfig {
  try {
    loadDotenvOnce();
    prepare(process.env);
    return loadSuiteConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${name}: ${err.message}`);
    process.exit(2);
  }
}
