// Bad input never crashes the simulator nor earns a 5xx: thousands of faker-generated malformed requests each get
// a 4xx with a well-formed problem body, and the simulator still serves afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Faker } from '@faker-js/faker';
import { makeFaker } from './seed.ts';
import { findDialog, simulator, type CallOptions, type TestSimulator } from './test-support.ts';

interface Malformed {
  method: string;
  path: string;
  options?: CallOptions;
}

const REQUESTS = 2400;
const CONCURRENCY = 16;

/** A value that is certainly not a positive integer, a date or a UUID. */
function junk(f: Faker): string {
  return f.helpers.arrayElement([
    () => `x${f.string.alphanumeric({ length: { min: 0, max: 12 } })}`,
    () => `-${f.number.int({ min: 0, max: 1e6 })}`,
    () => `${f.number.float({ min: 0.01, max: 100, fractionDigits: 2 })}`,
    () => '0',
    () => `${f.number.int({ max: 99 })}e${f.number.int({ max: 9 })}`,
    () => f.string.symbol({ min: 1, max: 8 }),
    () => '9'.repeat(f.number.int({ min: 17, max: 40 })),
    () => `${f.lorem.word()} ${f.lorem.word()}`,
    () => `2026-${f.number.int({ min: 13, max: 99 })}-01`,
    () => `2026-02-30T10:00:00`,
    () => '',
  ])();
}

function brokenJson(f: Faker): string {
  const valid = JSON.stringify({ text: f.lorem.sentence(), bot_id: f.number.int(), nested: { a: [1, 2, { b: null }] } });
  return f.helpers.arrayElement([
    () => valid.slice(0, f.number.int({ min: 1, max: valid.length - 1 })),
    () => `{${f.string.sample({ min: 1, max: 200 })}`,
    () => '['.repeat(f.number.int({ min: 1, max: 5000 })),
    () => `{"text": "${f.string.alpha(10)}"`,
    () => "{'text': 'single quotes'}",
    () => 'null',
    () => `${f.number.int()}`,
    () => '"just a string"',
    () => '\u0000\u0001\u0002',
  ])();
}

function wrongType(f: Faker): unknown {
  return f.helpers.arrayElement([f.number.int(), true, null, [], [f.lorem.word()], { deep: { deeper: f.lorem.word() } }, f.number.float()]);
}

const LIST_PARAMS = ['BotID', 'PageNumber', 'PageCount', 'CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo'];
const AUTHED = [
  '/api/v1/conversations',
  '/api/v2/conversations',
  '/api/v1/conversation/1001',
  '/api/v1/dialog/101/create',
  '/api/v1/file/5001',
  '/api/v2/file/5001',
  '/api/v2/dialog/101/create',
];

function generate(f: Faker, uuid: string): Malformed {
  const api = f.helpers.arrayElement(['v1', 'v2']);
  return f.helpers.arrayElement<() => Malformed>([
    // A list parameter of the wrong type (400).
    () => {
      const name = f.helpers.arrayElement(LIST_PARAMS);
      const value = name === 'BotID' ? `x${junk(f)}` : junk(f);
      return { method: 'GET', path: `/api/${api}/conversations?${name}=${encodeURIComponent(value)}` };
    },
    // Missing or wrong credentials on a V1/V2 operation (401).
    () => ({
      method: 'GET',
      path: f.helpers.arrayElement(AUTHED),
      options: {
        auth: f.helpers.arrayElement([
          null,
          'Bearer abc',
          'Basic',
          `Basic ${Buffer.from(`${f.internet.username()}:${f.internet.password()}`).toString('base64')}`,
          'Basic !!!',
        ]),
      },
    }),
    // Odd paths (404).
    () => ({
      method: f.helpers.arrayElement(['GET', 'POST']),
      path: f.helpers.arrayElement([
        `/${f.system.directoryPath().slice(1)}`,
        `/api/v3/${f.lorem.word()}`,
        `/api/${api}/conversations/${f.lorem.word()}/x`,
        `/api/${api}/../../etc/passwd`,
        `/api/%${f.string.alpha(2)}`,
        `/api/v2/conversation/${f.string.alpha(5000)}`,
        `/${'a/'.repeat(f.number.int({ min: 1, max: 200 }))}`,
        '/api',
        `/api/vertex/v2/${f.lorem.word()}`,
      ]),
    }),
    // Methods the path does not allow (405).
    () => ({
      method: f.helpers.arrayElement(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']),
      path: f.helpers.arrayElement([...AUTHED, `/api/v2/conversation/${uuid}/start`, '/api/vertex/v1/complete']),
    }),
    // Malformed identifiers in paths (404).
    () => ({
      method: 'GET',
      path: f.helpers.arrayElement([
        `/api/v1/conversation/${encodeURIComponent(junk(f))}x`,
        `/api/v2/conversation/${f.string.alphanumeric(36)}`,
        `/api/${api}/file/${encodeURIComponent(junk(f))}y`,
        `/api/${api}/dialog/${encodeURIComponent(junk(f))}q/create`,
      ]),
    }),
    // Malformed variables on create (404: no 400 is documented there).
    () => ({
      method: 'GET',
      path: `/api/${api}/dialog/101/create?variables=${encodeURIComponent(f.helpers.arrayElement([brokenJson(f), '[1,2]', '"text"', '42']))}`,
    }),
    () => ({
      method: 'POST',
      path: '/api/v2/dialog/101/create',
      options: { body: f.helpers.arrayElement([brokenJson(f), JSON.stringify({ variables: wrongType(f) }), JSON.stringify({ response: f.lorem.word() })]) },
    }),
    // send and command with broken JSON or ill-typed fields (400).
    () => ({
      method: 'POST',
      path: `/api/v2/conversation/${uuid}/send`,
      options: { body: f.helpers.arrayElement([brokenJson(f), JSON.stringify({ text: wrongType(f) }), JSON.stringify({ message: f.lorem.sentence() }), '']) },
    }),
    () => ({
      method: 'POST',
      path: `/api/v2/conversation/${uuid}/command`,
      options: {
        body: f.helpers.arrayElement([
          brokenJson(f),
          JSON.stringify({ command: 'goto', bot_id: wrongType(f) }),
          JSON.stringify({ command: f.lorem.word(), bot_id: 202 }),
        ]),
      },
    }),
    // Vertex with broken bodies (400) or forged tokens (403).
    () => ({
      method: 'POST',
      path: '/api/vertex/v1/dialog/send_message',
      options: {
        body: f.helpers.arrayElement([
          brokenJson(f),
          JSON.stringify({ token: f.string.alphanumeric(40), text: f.lorem.sentence() }),
          JSON.stringify({ token: wrongType(f) }),
        ]),
      },
    }),
    () => ({
      method: 'POST',
      path: '/api/vertex/v1/complete',
      options: { body: f.helpers.arrayElement([brokenJson(f), JSON.stringify({ token: f.string.alphanumeric(40) }), JSON.stringify({ data: {} })]) },
    }),
    // Bodies above the cap (413).
    () => ({
      method: 'POST',
      path: `/api/v2/conversation/${uuid}/send`,
      options: { body: `{"text":"${'x'.repeat(1024 * 1024 + f.number.int({ max: 1000 }))}"}` },
    }),
  ])();
}

describe('fuzzing the simulator with malformed requests', () => {
  let sim: TestSimulator;
  before(async () => {
    sim = await simulator();
  });
  after(() => sim.close());

  it(`answers ${REQUESTS} malformed requests with a 4xx problem and keeps serving`, async () => {
    const f = makeFaker(20261120);
    const { uuid } = await findDialog(sim, 'in-process');
    const requests = Array.from({ length: REQUESTS }, () => generate(f, uuid));
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++]!;
        const res = await sim.call(r.method, r.path, r.options);
        let problem: any;
        try {
          problem = res.json();
        } catch {
          problem = undefined;
        }
        const wellFormed =
          res.contentType === 'application/problem+json' &&
          typeof problem?.type === 'string' &&
          typeof problem?.title === 'string' &&
          typeof problem?.detail === 'string' &&
          problem?.status === res.status;
        if (res.status < 400 || res.status > 499 || !wellFormed) {
          failures.push(`${r.method} ${r.path.slice(0, 100)} ${String(r.options?.body ?? '').slice(0, 60)} -> ${res.status} ${res.body.slice(0, 120)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${REQUESTS} answers were not a 4xx problem`);
    assert.deepEqual(sim.logs, []);
    const list = await sim.call('GET', '/api/v2/conversations');
    assert.equal(list.status, 200);
  });
});
