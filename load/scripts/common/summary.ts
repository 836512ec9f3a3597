// The one handleSummary of all scripts: reports/load/<script>.json and .txt, the text on stdout, and the
// fingerprint items of whatever the script discovered. The target is named by host and port only: a path or a query
// of API_BASE_URL may carry a gateway key.
import { buildReport, summaryFiles, type ScriptAnalysis, type SummaryData } from '../../../discovery/load-summary.ts';
import { targetOf } from '../../../report/run-meta.ts';
import { config, secrets } from './config.ts';

/** k6 creates no directory, so on Kubernetes point it at an existing one (/tmp). */
const REPORTS_DIR = __ENV.LOAD_REPORTS_DIR || 'reports/load';

const nothingFound = (): ScriptAnalysis => ({ findings: null, lines: [], fingerprint: [] });

export function summaryHandler(script: string, analyse: (data: SummaryData) => ScriptAnalysis = nothingFound) {
  return (data: SummaryData): Record<string, string> => summaryFiles(buildReport(script, targetOf(config.baseUrl), data, analyse(data)), secrets, REPORTS_DIR);
}
