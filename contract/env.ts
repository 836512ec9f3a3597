// The suite's configuration as the Playwright processes read it: .env loaded once (quietly: dotenv must not print
// into reports), then the one parser of config/suite-config.ts. Launchers (playwright.config.ts, scripts/) put the
// embedded simulator's values into the environment before anything reads it.
import { config as loadDotenv } from 'dotenv';
import { fileURLToPath } from 'node:url';
import { parseSuiteConfig, type SuiteConfig } from '../config/suite-config.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REPORTS_DIR = process.env.REPORTS_DIR ?? fileURLToPath(new URL('../reports', import.meta.url));

/** Loads .env into process.env; values already in the environment win. */
export function loadDotenvOnce(): void {
  loadDotenv({ path: fileURLToPath(new URL('../.env', import.meta.url)), quiet: true });
}

let cached: SuiteConfig | undefined;

export function loadSuiteConfig(): SuiteConfig {
  if (!cached) {
    loadDotenvOnce();
    cached = parseSuiteConfig(process.env);
  }
  return cached;
}
