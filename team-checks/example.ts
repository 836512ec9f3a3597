// A team's check, as docs/checks.md shows it: a V2 record's name holds its city (§2.1 "dialog number plus the city").
// Its `observed` says what was seen in words that hold still from run to run; the run's values go in `details`. A
// record with no city (empty: §2.1 allows a dialog none) is not judged. Run it with
// CHECKS_MODULE=./team-checks/example.ts.
import { defineCheck } from '../checks/check.ts';
import { jsonOf, type ExchangeEvidence } from '../checks/evidence.ts';

const nameHasCity = defineCheck({
  name: 'acme.name_has_city',
  sections: ['2.1'],
  severity: 'medium',
  evidence: 'exchange',
  statement: 'a V2 record names its city',
  places: ['/name'],
  judge: (e: ExchangeEvidence) => {
    const record = jsonOf(e) as { name?: unknown; location?: unknown } | undefined;
    if (e.operationId !== 'getV2Conversation' || e.response.status !== 200 || typeof record?.location !== 'string' || record.location === '') return [];
    const holds = typeof record.name === 'string' && record.name.includes(record.location);
    return [
      {
        at: '/name',
        holds,
        expected: 'the city of location in the name',
        observed: holds ? 'the city' : 'another name',
        details: { name: String(record.name), location: record.location },
      },
    ];
  },
});

export default [nameHasCity];

/** A record read, as the engine hands a check of one exchange its evidence. */
const read = (record: object): ExchangeEvidence => {
  const body = JSON.stringify(record);
  return {
    operationId: 'getV2Conversation',
    method: 'GET',
    path: '/api/v2/conversation/0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41',
    query: {},
    pathParams: { uuid: '0b0f6f2e-5d0c-4c3e-9a57-1f0d7c2b9e41' },
    request: { credentials: 'configured', contentType: null, body: undefined },
    response: { status: 200, headers: {}, contentType: 'application/json', body, bytes: new TextEncoder().encode(body) },
    startedMs: 0,
    endedMs: 20,
  };
};

/** Evidence that holds and evidence that breaks each check (scripts/check-recipe.test.ts judges them). */
export const examples = {
  'acme.name_has_city': {
    holds: [read({ name: '#7001 Berlin', location: 'Berlin' }), read({ name: '#7002', location: '' })],
    breaks: [read({ name: '#7001 Oslo', location: 'Berlin' })],
  },
};
