// The run's settings: the suite's one configuration (config/suite-config.ts) read from __ENV. A problem throws in the
// init context, which stops k6 with the one-line message. Script-local knobs (rates, durations) stay in the scripts.
import { ConfigError, parseSuiteConfig, secretsOf } from '../../../config/suite-config.ts';

function k6Config() {
  // The suite config falls back to its embedded simulator, which only the runner starts: k6 alone has no target.
  if (!__ENV.API_BASE_URL?.trim()) {
    throw new ConfigError('API_BASE_URL is missing: run the k6 scripts through `npm run load`, which starts a simulator, or set API_BASE_URL to the target');
  }
  return parseSuiteConfig(__ENV);
}

export const config = k6Config();

/** Values that must never appear in a report, a log line or a check name. */
export const secrets = secretsOf(config);
