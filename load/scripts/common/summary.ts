// The one handleSummary of all scripts: the text summary and the report as one JSON line on stdout, and files in
// LOAD_REPORTS_DIR: <script>.json, .txt, .html (report/load-page.ts: the ladder and the searches drawn, written by k6
// itself, so a bundle run alone and every k6-operator runner leave one) and, when the script discovered anything,
// .fingerprint.json under the run it comes from (target, start, script, segment), so that the next contract run takes
// it in however k6 was run. k6 creates no directory, so the default is the working directory, which exists; `npm run load`
// points it at reports/load (made first), and a pod's findings survive in its log either way. The target is named by
// host and port only: a path or a query of API_BASE_URL may carry a gateway key.
import { version } from 'generated:suite';
import { buildReport, reportName, summaryFiles, type ScriptAnalysis, type SummaryData } from '../../../discovery/load-summary.ts';
import type { Segment } from '../../../discovery/execution-segment.ts';
import { loadPageHtml } from '../../../report/load-page.ts';
import { targetOf } from '../../../report/run-meta.ts';
import { config, secrets } from './config.ts';
import { currentSegment } from './segment.ts';

const REPORTS_DIR = __ENV.LOAD_REPORTS_DIR || '.';

const nothingFound = (): ScriptAnalysis => ({ findings: null, lines: [], fingerprint: [] });

export function summaryHandler(script: string, analyse: (data: SummaryData, segment: Segment) => ScriptAnalysis = nothingFound) {
  return (data: SummaryData): Record<string, string> => {
    const segment = currentSegment();
    const report = buildReport(script, targetOf(config.baseUrl), segment, Date.now(), data, analyse(data, segment));
    return {
      ...summaryFiles(report, secrets, REPORTS_DIR, version),
      [`${REPORTS_DIR}/${reportName(script, segment)}.html`]: loadPageHtml(report, secrets),
    };
  };
}
