// The send body (spec §4.2: field names not shown): SEND_BODY when given, else the shape setup() discovers once and
// verifies by its effect (http/body-discovery.ts). The scripts that send carry the template in their setup data and
// hand it, with how it was found, to the report.
import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { discoverRequestShapes } from '../../../http/body-discovery.ts';
import { canonicalTemplate } from '../../../http/body-template.ts';
import { drive } from '../../../discovery/drive.ts';
import { evidenceOf, type SummaryData } from '../../../discovery/load-summary.ts';
import { asProbeResponse, callPolitely } from './api.ts';
import { botId, config } from './config.ts';
import { recordEvidence } from './options.ts';

/** The candidates the discovery sees refused are its answers, not failed requests. */
const probing = http.expectedStatuses({ min: 200, max: 499 });

const EVIDENCE = 'send-body';

export interface SendBodyUsed {
  template: string;
  /** One line: configured (SEND_BODY), or discovered and how it was verified. */
  how: string;
  /** Dialogs the discovery created; it stops each one before sending on it, like the scripts' own. */
  dialogs: string[];
}

/** For setup(): the send body template; aborts the test when no shape could be established. */
export function sendBodyTemplate(): string {
  const found = drive(discoverRequestShapes({ botId: botId(), sendBody: config.sendBody, needs: ['send'], now: Date.now }), (step) => {
    if (step.kind === 'send') return asProbeResponse(callPolitely(step.request, probing));
    sleep(step.seconds);
    return undefined;
  });
  const { template, how } = found.send;
  // abort() throws, ending the test; its typings say void.
  if (template === null) return exec.test.abort(`send body ${how}`) as never;
  const used: SendBodyUsed = { template, how, dialogs: found.dialogs };
  recordEvidence(EVIDENCE, used);
  return template;
}

/** What handleSummary reports of the send body: the finding and its line (none when setup did not get that far). */
export function sendBodyReport(data: SummaryData): { sendBody: SendBodyUsed | null; lines: string[] } {
  const used = evidenceOf<SendBodyUsed>(data, EVIDENCE)[0];
  return used ? { sendBody: used, lines: [`send body ${canonicalTemplate(used.template)}: ${used.how}`] } : { sendBody: null, lines: [] };
}
