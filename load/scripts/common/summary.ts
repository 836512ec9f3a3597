// The one handleSummary of all scripts: reports/load/<script>.json and .txt, the text on stdout, and the
// fingerprint items of whatever the script discovered.
import { buildReport, summaryFiles, type ScriptAnalysis, type SummaryData } from '../../../lib/load-summary.ts';
import { config, secrets } from './config.ts';

const nothingFound = (): ScriptAnalysis => ({ findings: null, lines: [], fingerprint: [] });

export function summaryHandler(script: string, analyse: (data: SummaryData) => ScriptAnalysis = nothingFound) {
  return (data: SummaryData): Record<string, string> => summaryFiles(buildReport(script, config.baseUrl, data, analyse(data)), secrets, config.reportsDir);
}
