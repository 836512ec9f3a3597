// Load on the two list operations (spec §4.1, §4.2): paging and filters, checks on status and on the envelope
// (keys "0".."count-1" plus meta.pagination), p95 per operation.
import { check } from 'k6';
import exec from 'k6/execution';
import { envelopes } from 'generated:api';
import { THROTTLE_STATUSES } from '../../http/throttle.ts';
import { envelopeProblems } from '../../http/list-envelope.ts';
import type { ApiRequest } from '../../http/request.ts';
import { steady } from '../../discovery/load-shapes.ts';
import { call, jsonBody } from './common/api.ts';
import { config } from './common/config.ts';
import { guardInit, guardSetup } from './common/guard.ts';
import { completing, expectStatuses, latencyThresholds, loadOptions } from './common/options.ts';
import { summaryHandler } from './common/summary.ts';

const RATE = Number(__ENV.LIST_RATE || '5'); // requests per second, per list operation
const SECONDS = Number(__ENV.LIST_SECONDS || '30');
const P95_MS = Number(__ENV.LOAD_P95_MS || '1500');

const V1 = 'getV1Conversations';
const V2 = 'getV2Conversations';

export const options = loadOptions(
  { listV1: steady(V1, 'listV1', RATE, SECONDS), listV2: steady(V2, 'listV2', RATE, SECONDS) },
  latencyThresholds([V1, V2], P95_MS),
);
guardInit(options);
expectStatuses(...THROTTLE_STATUSES);

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** Paging and filter variants, taken in turn; the periods end today so they match recent dialogs. BOT_ID is optional here. */
const QUERIES: Array<Record<string, string>> = [
  {},
  { PageNumber: '2' },
  { PageCount: '10', PageNumber: '3' },
  ...(config.botId === undefined ? [] : [{ BotID: String(config.botId) }, { BotID: String(config.botId), CreatedFrom: day(30), CreatedTo: day(0) }]),
  { UpdatedFrom: `${day(7)}T00:00:00+00:00`, UpdatedTo: `${day(0)}T23:59:59+00:00` },
];

export function setup(): void {
  guardSetup();
}

function list(operationId: ApiRequest['operationId']): void {
  const response = call({ operationId, pathParams: {}, query: QUERIES[exec.scenario.iterationInTest % QUERIES.length] });
  const body = jsonBody(response);
  check(
    response,
    {
      [`${operationId} answers 200`]: (r) => r.status === 200,
      [`${operationId} envelope: keys "0".."count-1" and meta.pagination`]: () => envelopeProblems(body, envelopes[operationId]!).length === 0,
    },
    { operation: operationId },
  );
}

export const listV1 = completing(() => list(V1));
export const listV2 = completing(() => list(V2));

export const handleSummary = summaryHandler('list');
