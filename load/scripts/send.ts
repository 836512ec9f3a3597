// Load on sending: operator messages (POST /v2/conversation/{uuid}/send) on dialogs prepared in setup(), in the body
// shape SEND_BODY gives or setup() discovers, and bot messages of a custom block (POST /vertex/v1/dialog/send_message)
// when VERTEX_TOKEN is given. Texts are faker-made in Node before the run (load/test-data.ts) and bundled.
import { check } from 'k6';
import exec from 'k6/execution';
import { sendTexts } from 'generated:data';
import { renderBody } from '../../http/body-template.ts';
import { THROTTLE_STATUSES } from '../../http/throttle.ts';
import { steady } from '../../discovery/load-shapes.ts';
import { call, jsonBody } from './common/api.ts';
import { botId, config } from './common/config.ts';
import { guardInit } from './common/guard.ts';
import { completing, expectStatuses, latencyThresholds, loadOptions } from './common/options.ts';
import { operatorSetup, type OperatorSetup } from './common/operator-setup.ts';
import { sendBodyReport } from './common/send-body.ts';
import { summaryHandler } from './common/summary.ts';

const RATE = Number(__ENV.SEND_RATE || '3'); // operator messages per second
const BOT_RATE = Number(__ENV.SEND_MESSAGE_RATE || '3'); // custom-block messages per second
const SECONDS = Number(__ENV.SEND_SECONDS || '30');
const DIALOGS = Number(__ENV.LOAD_DIALOGS || '4');
const P95_MS = Number(__ENV.LOAD_P95_MS || '1500');

const SEND = 'postV2ConversationSend';
const SEND_MESSAGE = 'postVertexSendMessage';

export const options = loadOptions(
  {
    sendOperator: steady(SEND, 'sendOperator', RATE, SECONDS),
    ...(config.vertexToken ? { sendBotMessage: steady(SEND_MESSAGE, 'sendBotMessage', BOT_RATE, SECONDS) } : {}),
  },
  latencyThresholds(config.vertexToken ? [SEND, SEND_MESSAGE] : [SEND], P95_MS),
);
guardInit(options);
expectStatuses(...THROTTLE_STATUSES);
botId();

export function setup(): OperatorSetup {
  return operatorSetup(DIALOGS);
}

const textFor = (i: number) => sendTexts[i % sendTexts.length]!;

export const sendOperator = completing((data: OperatorSetup) => {
  const i = exec.scenario.iterationInTest;
  const response = call({
    operationId: SEND,
    pathParams: { uuid: data.dialogs[i % data.dialogs.length]! },
    json: renderBody(data.sendBody, { text: textFor(i) }),
  });
  check(response, { [`${SEND} answers 204`]: (r) => r.status === 204 }, { operation: SEND });
});

export const sendBotMessage = completing(() => {
  const response = call({
    operationId: SEND_MESSAGE,
    pathParams: {},
    json: { token: config.vertexToken, text: textFor(exec.scenario.iterationInTest), typing: false },
  });
  const body = jsonBody(response) as { message_id?: unknown; created_at?: unknown } | undefined;
  check(
    response,
    {
      [`${SEND_MESSAGE} answers 200`]: (r) => r.status === 200,
      [`${SEND_MESSAGE} body has integer message_id and created_at`]: () => Number.isInteger(body?.message_id) && Number.isInteger(body?.created_at),
    },
    { operation: SEND_MESSAGE },
  );
});

export const handleSummary = summaryHandler('send', (data) => {
  const { sendBody, lines } = sendBodyReport(data);
  return { findings: { sendBody }, lines, fingerprint: [] };
});
