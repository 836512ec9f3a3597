import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callFields, callShape, placeText, secretCandidates, tokenCandidates, type RawCall } from './callback-request.ts';

const TOKEN = 'Zq8hT1xVb2Lr9KmW0pYc';
const UUID = '5f0c2d2e-1b7a-4c1e-9a57-0d3b1c2e4f60';
const call = (over: Partial<RawCall>): RawCall => ({ method: 'POST', url: '/callback', headers: {}, body: Buffer.alloc(0), ...over });
const multipart = (boundary: string, parts: Record<string, string>) =>
  Buffer.from(
    `${Object.entries(parts)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('')}--${boundary}--\r\n`,
  );

const SHAPES: Array<[string, RawCall, string]> = [
  [
    'JSON at depth',
    call({
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ block: { integration: { token: TOKEN } }, dialog_uuid: UUID, dialog_id: 1042 })),
    }),
    'json $.block.integration.token',
  ],
  ['a form', call({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(`token=${TOKEN}&dialog=1042`) }), 'form token'],
  [
    'a multipart form (closing CRLF included)',
    call({ headers: { 'content-type': 'multipart/form-data; boundary=xyz' }, body: multipart('xyz', { integration_token: TOKEN, dialog: '1042' }) }),
    'multipart integration_token',
  ],
  ['the query string', call({ method: 'GET', url: `/callback?integration_token=${TOKEN}&dialog_uuid=${UUID}` }), 'query integration_token'],
  [
    'a Bearer credential',
    call({
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ dialog: { id: 1042, uuid: UUID } })),
    }),
    'header authorization (Bearer)',
  ],
  [
    'an X-…-Token header',
    call({ headers: { 'x-integration-token': TOKEN, 'content-type': 'text/plain' }, body: Buffer.from('dialog 1042') }),
    'header x-integration-token',
  ],
];

for (const [where, raw, at] of SHAPES) {
  test(`the token is found in ${where}, and the shape holds no value`, async () => {
    const fields = await callFields(raw);
    assert.deepEqual(
      tokenCandidates(fields).map((f) => [placeText(f), f.value]),
      [[at, TOKEN]],
    );
    const shape = callShape(raw, fields);
    assert.ok(!JSON.stringify(shape).includes(TOKEN), 'the shape must carry no value');
    assert.ok(shape.fields.some((f) => placeText(f) === at && f.type === 'string' && f.length === TOKEN.length));
    assert.ok(secretCandidates(fields).includes(TOKEN));
    assert.ok(!secretCandidates(fields).includes(UUID) && !secretCandidates(fields).includes('1042'), 'dialog ids are no secret');
  });
}

test('a configured field decides between several candidates; without names every long text is one', async () => {
  const fields = await callFields(
    call({
      headers: { 'content-type': 'application/json', 'x-request-token': 'req-aaaaaaaaaa' },
      body: Buffer.from(JSON.stringify({ auth: { key: TOKEN }, refresh_token: 'rt-bbbbbbbbbb' })),
    }),
  );
  assert.deepEqual(tokenCandidates(fields).map(placeText), ['header x-request-token', 'json $.refresh_token']);
  assert.deepEqual(
    tokenCandidates(fields, 'auth.key').map((f) => f.value),
    [TOKEN],
  );
  assert.deepEqual(
    tokenCandidates(fields, 'KEY').map((f) => f.value),
    [TOKEN],
  );
  const unnamed = await callFields(
    call({ headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ k: TOKEN, d: UUID, n: 5, short: 'abc' })) }),
  );
  assert.deepEqual(tokenCandidates(unnamed).map(placeText), ['json $.k']);
  assert.deepEqual(secretCandidates(unnamed), [TOKEN]);
});

test('a body that is not what it claims is read as text; plain headers are ignored', async () => {
  const raw = call({ headers: { 'content-type': 'multipart/form-data; boundary=zz', 'user-agent': 'vendor/1.0' }, body: Buffer.from('not multipart at all') });
  const fields = await callFields(raw);
  assert.deepEqual(fields.map(placeText), ['body (text)']);
  assert.equal(callShape(raw, fields).contentType, 'multipart/form-data');
});

test('a place is data: a JSON path keeps its keys and positions, and reads as people write it', async () => {
  const body = Buffer.from(JSON.stringify({ block: { ids: [7], 'odd key': TOKEN } }));
  const fields = await callFields(call({ headers: { 'content-type': 'application/json' }, body }));
  assert.deepEqual(
    fields.map((f) => [f.in, f.path]),
    [
      ['json', ['block', 'ids', 0]],
      ['json', ['block', 'odd key']],
    ],
  );
  assert.deepEqual(fields.map(placeText), ['json $.block.ids[0]', 'json $.block["odd key"]']);
});
