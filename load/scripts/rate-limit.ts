// Rate-limit discovery (spec §8.2: not shown): a ladder of constant-arrival-rate rungs on the V2 list, then, after a
// pause that lets a token bucket refill, the same ladder on send. handleSummary finds the highest rate sustained
// without rejections or a latency knee, estimates the limit, and reports how it is refused (discovery/ladder-analysis.ts).
// Split over several runners (k6-operator), each judges its share of every rung and reports the whole test's rates;
// `npm run load:merge` adds the runners' counts up.
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import { sendTexts } from 'generated:data';
import { renderBody } from '../../http/body-template.ts';
import type { ApiRequest } from '../../http/request.ts';
import { THROTTLE_STATUSES } from '../../http/throttle.ts';
import {
  analyseLadder,
  ladderFinding,
  ladderStagesFromSummary,
  ladderThresholds,
  LADDER_METRICS,
  phaseJitter,
  START_TICK_MS,
  startDelayMs,
  type LadderResult,
  type ResponseSample,
} from '../../discovery/ladder-analysis.ts';
import { isSplit, segmentLabel } from '../../discovery/execution-segment.ts';
import { redactHeaders, redactText } from '../../http/redact.ts';
import { geometricRates, ladder, type LadderPlan } from '../../discovery/load-shapes.ts';
import { evidenceOf } from '../../discovery/load-summary.ts';
import { call, operation } from './common/api.ts';
import { botId, secrets } from './common/config.ts';
import { guardInit } from './common/guard.ts';
import { completing, expectStatuses, loadOptions, recordEvidence } from './common/options.ts';
import { operatorSetup, type OperatorSetup } from './common/operator-setup.ts';
import { currentSegment } from './common/segment.ts';
import { sendBodyReport } from './common/send-body.ts';
import { summaryHandler } from './common/summary.ts';

const FROM = Number(__ENV.LADDER_FROM || '5'); // requests per second of the first rung
const TO = Number(__ENV.LADDER_TO || '80'); // ... and at most of the last
const FACTOR = Number(__ENV.LADDER_FACTOR || '1.25');
const RUNG_SECONDS = Number(__ENV.LADDER_RUNG_SECONDS || '6');
const PAUSE_SECONDS = Number(__ENV.LADDER_PAUSE_SECONDS || '5');
const DIALOGS = Number(__ENV.LOAD_DIALOGS || '4');
/** Which ladders to climb: list, send or both (the send ladder writes messages into the prepared dialogs). */
const LADDERS = (__ENV.LADDER_OPERATIONS || 'list,send').split(',').map((name) => name.trim());

const LIST = 'getV2Conversations';
const SEND = 'postV2ConversationSend';

const rates = geometricRates(FROM, TO, FACTOR);
const listLadder = LADDERS.includes('list') ? ladder(LIST, 'listRung', rates, RUNG_SECONDS) : undefined;
const sendLadder = LADDERS.includes('send') ? ladder(SEND, 'sendRung', rates, RUNG_SECONDS, listLadder ? listLadder.endSeconds + PAUSE_SECONDS : 0) : undefined;
const ladders = [listLadder, sendLadder].filter((plan): plan is LadderPlan => plan !== undefined);
if (ladders.length === 0 || LADDERS.some((name) => name !== 'list' && name !== 'send')) {
  throw new Error(`LADDER_OPERATIONS=${__ENV.LADDER_OPERATIONS} is not valid: it should list list, send or both (comma-separated)`);
}
const rungRate: Record<string, number> = Object.fromEntries(ladders.flatMap((plan) => plan.steps.map((step) => [step.scenario, step.targetRate])));

export const options = loadOptions(Object.assign({}, ...ladders.map((plan) => plan.scenarios)), ladderThresholds(ladders.flatMap((plan) => plan.steps)));
guardInit(options);
expectStatuses(...THROTTLE_STATUSES);
if (sendLadder) botId();

const ok = new Counter(LADDER_METRICS.ok);
const rateLimited = new Counter(LADDER_METRICS.rateLimited);
const failed = new Counter(LADDER_METRICS.failed);
/** Rejections this VU already handed over: one sample per operation and VU is plenty. */
const sampled: Record<string, boolean> = {};
/** This VU's share of the test (read once: the segment never changes during a run). */
let share: number | undefined;

/**
 * LOAD_START_AT (epoch ms, set by `npm run load -- rate-limit --split N`): every runner starts its ladder at that
 * instant, after its own setup(), so the runners' rungs line up. Runners that start apart by their setup()'s time
 * overlap one rung with the next at every change of rung, and the one ahead takes more than its share of the tokens.
 * A runner whose setup() ended after it waits for the next common tick (startDelayMs) rather than starting alone.
 */
function waitForStart(): void {
  const raw = __ENV.LOAD_START_AT;
  if (!raw) return;
  const at = Number(raw);
  const now = Date.now();
  if (!Number.isInteger(at) || at - now > 300_000)
    exec.test.abort(`LOAD_START_AT=${raw} is not valid: it should hold a time (epoch milliseconds) within the next 5 minutes`);
  const wait = startDelayMs(at, now, START_TICK_MS) / 1000;
  if (now > at)
    console.warn(
      `setup() ended ${((now - at) / 1000).toFixed(1)} s after LOAD_START_AT (k6 was slow to start): the rungs start at the next common ${START_TICK_MS / 1000} s tick, in ${wait.toFixed(1)} s`,
    );
  if (wait > 0) sleep(wait);
}

export function setup(): OperatorSetup {
  const prepared = operatorSetup(sendLadder ? DIALOGS : 0);
  waitForStart();
  return prepared;
}

function rung(request: ApiRequest): void {
  share ??= currentSegment().share;
  const rate = rungRate[exec.scenario.name];
  if (rate === undefined) throw new Error(`scenario ${exec.scenario.name} is not a rung of this ladder`);
  sleep(phaseJitter(rate, share, Math.random));
  const response = call(request);
  const accepted = response.status >= 200 && response.status < 300;
  const limited = THROTTLE_STATUSES.includes(response.status);
  ok.add(accepted ? 1 : 0);
  rateLimited.add(limited ? 1 : 0);
  failed.add(accepted || limited ? 0 : 1);
  check(
    response,
    { [`${request.operationId} answers 2xx or ${THROTTLE_STATUSES.join(' or ')}`]: () => accepted || limited },
    { operation: request.operationId },
  );
  if (limited && !sampled[request.operationId]) {
    sampled[request.operationId] = true;
    const sample: ResponseSample = {
      status: response.status,
      headers: redactHeaders(response.headers, secrets),
      body: redactText((response.body ?? '').slice(0, 2000), secrets),
    };
    recordEvidence(`rejection.${request.operationId}`, sample);
  }
}

export const listRung = completing(() => rung({ operationId: LIST, pathParams: {} }));

export const sendRung = completing((data: OperatorSetup) => {
  const i = exec.scenario.iterationInTest;
  rung({
    operationId: SEND,
    pathParams: { uuid: data.dialogs[i % data.dialogs.length]! },
    json: renderBody(data.sendBody, { text: sendTexts[i % sendTexts.length]! }),
  });
});

export const handleSummary = summaryHandler('rate-limit', (data, segment) => {
  const results = ladders.map((plan) => {
    const op = operation(plan.steps[0]!.operation);
    const stages = ladderStagesFromSummary(data, plan.steps, segment.share);
    const analysis = analyseLadder(stages, evidenceOf<ResponseSample>(data, `rejection.${op.operationId}`));
    return {
      result: { operationId: op.operationId, operation: op.label, stages, analysis } satisfies LadderResult,
      ...ladderFinding(op.operationId, op.label, analysis),
    };
  });
  const { sendBody, lines } = sendBodyReport(data);
  const scaled = isSplit(segment) ? [`${segmentLabel(segment)}: rates are the whole test's, this runner's own divided by its share`] : [];
  return {
    findings: { sendBody, ladders: results.map((r) => r.result) },
    lines: [...lines, ...scaled, ...results.map((r) => r.line)],
    fingerprint: results.map((r) => r.item),
  };
});
