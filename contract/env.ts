// Loads .env once (quietly: dotenv must not print into reports) and parses the suite's configuration.
import { config as loadDotenv } from 'dotenv';
import { fileURLToPath } from 'node:url';
import { parseConfig, type SuiteConfig } from './config.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const REPORTS_DIR = process.env.REPORTS_DIR ?? fileURLToPath(new URL('../reports', import.meta.url));

let cached: SuiteConfig | undefined;

export function loadSuiteConfig(): SuiteConfig {
  if (!cached) {
    loadDotenv({ path: fileURLToPath(new URL('../.env', import.meta.url)), quiet: true });
    cached = parseConfig(process.env);
  }
  return cached;
}
