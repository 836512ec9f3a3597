// Error bodies (spec §7: shape not shown): content type and body shape of one representative answer per status.
import { eachRun, test } from '../fixtures/probe-test.ts';
import { bodyShape } from '../../lib/shape.ts';
import { unknownUuid } from '../shared/not-found.ts';
import type { ApiClient } from '../target/client.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { Faker } from '@faker-js/faker';

interface ErrorCase {
  status: 400 | 401 | 403 | 404;
  what: string;
  send: (clients: { api: ApiClient; anonymousApi: ApiClient }, faker: Faker) => Promise<ApiResponse>;
}

const CASES: ErrorCase[] = [
  { status: 400, what: 'a PageCount that is not an integer', send: ({ api }) => api.call('getV2Conversations', { query: { PageCount: 'many' } }) },
  { status: 401, what: 'a request without Authorization', send: ({ anonymousApi }) => anonymousApi.call('getV2Conversations', { query: { PageCount: 1 } }) },
  {
    status: 403,
    what: 'an invalid integration token',
    send: ({ anonymousApi }, faker) => anonymousApi.call('postVertexComplete', { json: { token: faker.string.alphanumeric(32), data: null } }),
  },
  { status: 404, what: 'a dialog that does not exist', send: ({ api }, faker) => api.call('getV2Conversation', { path: { uuid: unknownUuid(faker) } }) },
];

eachRun(() => {
  test('records the error body of each documented error status', async ({ api, anonymousApi, fake, probe, observe }) => {
    probe(CASES.length, 'error body shape', { observations: CASES.map((c) => `error.${c.status}`) });
    for (const c of CASES) {
      const res = await c.send({ api, anonymousApi }, fake);
      observe(res.operation, {
        id: `error.${c.status}`,
        section: '7',
        item: `error body of a ${c.status} (${c.what})`,
        // The status actually answered is part of it: a target that answers 500 instead shows here too.
        observed: { status: res.status, contentType: res.mediaType, body: bodyShape(res.text) },
        evidence: res.evidence(),
      });
    }
  });
});
