// Rate-limit discovery (spec §8.2: not shown): a ladder of constant-arrival-rate rungs on the V2 list, then, after a
// pause that lets a token bucket refill, the same ladder on send. handleSummary finds the highest rate sustained
// without rejections or a latency knee, estimates the limit, and reports how it is refused (discovery/ladder-analysis.ts).
import { check } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import { sendTexts } from 'generated:data';
import { renderBody } from '../../http/body-template.ts';
import type { ApiRequest } from '../../http/request.ts';
import { THROTTLE_STATUSES } from '../../http/throttle.ts';
import { analyseLadder, ladderFinding, ladderStagesFromSummary, ladderThresholds, LADDER_METRICS, type ResponseSample } from '../../discovery/ladder-analysis.ts';
import { redactHeaders, redactText } from '../../http/redact.ts';
import { geometricRates, ladder } from '../../discovery/load-shapes.ts';
import { evidenceOf } from '../../discovery/load-summary.ts';
import { call, operation } from './common/api.ts';
import { secrets } from './common/config.ts';
import { guardInit } from './common/guard.ts';
import { completing, expectStatuses, loadOptions, recordEvidence } from './common/options.ts';
import { operatorSetup, type OperatorSetup } from './common/operator-setup.ts';
import { sendBodyReport } from './common/send-body.ts';
import { summaryHandler } from './common/summary.ts';

const FROM = Number(__ENV.LADDER_FROM || '5'); // requests per second of the first rung
const TO = Number(__ENV.LADDER_TO || '80'); // ... and at most of the last
const FACTOR = Number(__ENV.LADDER_FACTOR || '1.25');
const RUNG_SECONDS = Number(__ENV.LADDER_RUNG_SECONDS || '6');
const PAUSE_SECONDS = Number(__ENV.LADDER_PAUSE_SECONDS || '5');
const DIALOGS = Number(__ENV.LOAD_DIALOGS || '4');

const LIST = 'getV2Conversations';
const SEND = 'postV2ConversationSend';

const rates = geometricRates(FROM, TO, FACTOR);
const listLadder = ladder(LIST, 'listRung', rates, RUNG_SECONDS);
const sendLadder = ladder(SEND, 'sendRung', rates, RUNG_SECONDS, listLadder.endSeconds + PAUSE_SECONDS);
const ladders = [listLadder, sendLadder];

export const options = loadOptions(
  { ...listLadder.scenarios, ...sendLadder.scenarios },
  ladderThresholds([...listLadder.steps, ...sendLadder.steps]),
);
guardInit(options);
expectStatuses(...THROTTLE_STATUSES);

const ok = new Counter(LADDER_METRICS.ok);
const rateLimited = new Counter(LADDER_METRICS.rateLimited);
const failed = new Counter(LADDER_METRICS.failed);
/** Rejections this VU already handed over: one sample per operation and VU is plenty. */
const sampled: Record<string, boolean> = {};

export function setup(): OperatorSetup {
  return operatorSetup(DIALOGS);
}

function rung(request: ApiRequest): void {
  const response = call(request);
  const accepted = response.status >= 200 && response.status < 300;
  const limited = THROTTLE_STATUSES.includes(response.status);
  ok.add(accepted ? 1 : 0);
  rateLimited.add(limited ? 1 : 0);
  failed.add(accepted || limited ? 0 : 1);
  check(response, { [`${request.operationId} answers 2xx or ${THROTTLE_STATUSES.join(' or ')}`]: () => accepted || limited }, { operation: request.operationId });
  if (limited && !sampled[request.operationId]) {
    sampled[request.operationId] = true;
    const sample: ResponseSample = { status: response.status, headers: redactHeaders(response.headers, secrets), body: redactText((response.body ?? '').slice(0, 2000), secrets) };
    recordEvidence(`rejection.${request.operationId}`, sample);
  }
}

export const listRung = completing(() => rung({ operationId: LIST, pathParams: {} }));

export const sendRung = completing((data: OperatorSetup) => {
  const i = exec.scenario.iterationInTest;
  rung({ operationId: SEND, pathParams: { uuid: data.dialogs[i % data.dialogs.length]! }, json: renderBody(data.sendBody, { text: sendTexts[i % sendTexts.length]! }) });
});

export const handleSummary = summaryHandler('rate-limit', (data) => {
  const results = ladders.map((plan) => {
    const op = operation(plan.steps[0]!.operation);
    const analysis = analyseLadder(ladderStagesFromSummary(data, plan.steps), evidenceOf<ResponseSample>(data, `rejection.${op.operationId}`));
    return { operation: op.label, analysis, ...ladderFinding(op.operationId, op.label, analysis) };
  });
  const { sendBody, lines } = sendBodyReport(data);
  return {
    findings: { sendBody, ladders: results.map(({ operation, analysis }) => ({ operation, analysis })) },
    lines: [...lines, ...results.map((r) => r.line)],
    fingerprint: results.map((r) => r.item),
  };
});
