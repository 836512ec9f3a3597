// The run's settings: __ENV with local defaults, under the names of .env.example. Secrets come from the
// environment only (API_PASSWORD has no default) and never reach a report: see secrets below.
import { secretsOf } from '../../../lib/load-safety.ts';

export const config = {
  /** Without /api: the API lives under {base_url}/api. */
  baseUrl: __ENV.API_BASE_URL || 'http://127.0.0.1:4010',
  login: __ENV.API_LOGIN || 'qa-contract',
  password: __ENV.API_PASSWORD || '',
  botId: Number(__ENV.BOT_ID || '101'),
  /** Integration token of a running custom block; the vertex requests run only when it is given. */
  vertexToken: __ENV.VERTEX_TOKEN || '',
  /** The spec does not name the send body field that carries the text. */
  sendTextField: __ENV.SEND_TEXT_FIELD || 'text',
  /** Status of a rate-limit rejection. */
  rateLimitStatus: Number(__ENV.RATE_LIMIT_STATUS || '429'),
  /** Where handleSummary writes; k6 creates no directory, so on Kubernetes point it at an existing one (/tmp). */
  reportsDir: __ENV.LOAD_REPORTS_DIR || 'reports/load',
};

/** Values that must never appear in a report, a log line or a check name. */
export const secrets = secretsOf(__ENV);
