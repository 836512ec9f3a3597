import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRequest } from '../http/request.ts';
import { drive } from './drive.ts';
import {
  probeVerdict,
  SIZE_LIMITS,
  sizeLimitFingerprint,
  sizeLimitLine,
  sizeLimitSearch,
  variablesOfBytes,
  type ProbeContext,
  type ProbeResponse,
  type SizeSearchStep,
} from './size-limits.ts';

const context: ProbeContext = {
  botId: 101,
  dialogUuid: '7d3c2a8e-0000-4000-8000-000000000001',
  sendBody: '{"message":{"text":"{{text}}"}}',
  vertexToken: 'tok-secret-123',
};
const limitById = (id: string) => SIZE_LIMITS.find((l) => l.id === id)!;

/** The size a request carries for the limit under test. */
function sizeOf(request: ApiRequest): number {
  if (request.query?.PageCount) return Number(request.query.PageCount);
  const json = request.json as { variables?: string; text?: string; message?: { text: string } };
  return json.variables !== undefined ? json.variables.length : (json.text ?? json.message?.text ?? '').length;
}

/** A fake target: refuses sizes above `max` with 413, answers the first `busy` requests with 429. */
function fakeTarget(max: number, busy = 0) {
  let calls = 0;
  const waits: number[] = [];
  const answer = (step: SizeSearchStep): ProbeResponse | undefined => {
    if (step.kind === 'wait') {
      waits.push(step.seconds);
      return undefined;
    }
    calls++;
    if (calls <= busy) return { status: 429, headers: { 'retry-after': '2' }, body: '' };
    return sizeOf(step.request) <= max
      ? { status: 204, headers: {}, body: '' }
      : { status: 413, headers: { 'Content-Type': 'application/problem+json' }, body: '{"detail":"too long for token tok-secret-123"}' };
  };
  return { answer, waits, calls: () => calls };
}

test('variables of n bytes are a JSON object of exactly n bytes', () => {
  for (let n = 2; n <= 300; n++) {
    const text = variablesOfBytes(n);
    assert.equal(text.length, n);
    assert.equal(typeof JSON.parse(text), 'object');
  }
});

test('2xx accepts; 400, 404, 413, 414, 422 and 431 refuse; anything else is no answer', () => {
  assert.equal(probeVerdict(204), true);
  for (const status of [400, 404, 413, 414, 422, 431]) assert.equal(probeVerdict(status), false);
  for (const status of [401, 403, 429, 500, 503]) assert.equal(probeVerdict(status), null);
});

test('the send search carries its text in the configured or discovered body shape', () => {
  const request = limitById('limit.maxTextLength.send').request(3, context);
  assert.deepEqual(request.json, { message: { text: 'xxx' } });
  const finding = drive(
    sizeLimitSearch(limitById('limit.maxTextLength.send'), { ...context, sendBody: undefined }, { operation: 'x', secrets: [] }),
    fakeTarget(1).answer,
  );
  assert.match(finding.skipped ?? '', /no sendBody/);
});

test('a PageCount served smaller than asked is a clamp, found exactly and told apart from a refusal', () => {
  const clamp = 250;
  const answer = (step: SizeSearchStep): ProbeResponse | undefined => {
    if (step.kind === 'wait') return undefined;
    const asked = sizeOf(step.request);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ meta: { pagination: { per_page: Math.min(asked, clamp) } } }),
    };
  };
  const limit = limitById('limit.maxPageCount');
  const finding = drive(sizeLimitSearch(limit, context, { operation: 'GET /v2/conversations', secrets: [] }), answer);
  assert.deepEqual([finding.result?.outcome, finding.result?.limit, finding.result?.firstRejected], ['found', clamp, clamp + 1]);
  assert.equal(finding.refusal?.clampedTo, clamp);
  assert.match(sizeLimitLine(finding), /250 \(251 clamped to 250\)/);
  const { observed } = sizeLimitFingerprint(limit, finding.operation, finding.result!, finding.refusal);
  assert.deepEqual([observed.refusal, observed.clampedTo, observed.refusalStatus, observed.refusalBody], ['clamped', 250, 200, null]);
});

test('each definition finds its limit exactly, keeps the refusal and redacts secrets from it', () => {
  for (const limit of SIZE_LIMITS) {
    const max = limit.id === 'limit.maxPageCount' ? 500 : 4096;
    const target = fakeTarget(max);
    const finding = drive(sizeLimitSearch(limit, context, { operation: limit.operationId, secrets: [context.vertexToken] }), target.answer);
    assert.equal(finding.result?.limit, max, limit.id);
    assert.equal(finding.result?.firstRejected, max + 1, limit.id);
    assert.ok(finding.result!.requests <= finding.result!.bound, limit.id);
    assert.deepEqual(finding.refusal, { status: 413, contentType: 'application/problem+json', body: '{"detail":"too long for token [redacted]"}' });
  }
});

test('waits out 429s and asks the same value again', () => {
  const target = fakeTarget(40, 2);
  const finding = drive(sizeLimitSearch(limitById('limit.maxPageCount'), context, { operation: 'GET /v2/conversations', secrets: [] }), target.answer);
  assert.equal(finding.result?.limit, 40);
  assert.deepEqual(target.waits, [2, 2]);
  assert.equal(target.calls(), finding.result!.requests + 2);
});

test('gives up on a value after the retries and reports the search inconclusive', () => {
  const target = fakeTarget(40, 1000);
  const throttle = { maxRetries: 2, maxWaitSeconds: 60 };
  const finding = drive(
    sizeLimitSearch(limitById('limit.maxPageCount'), context, { operation: 'GET /v2/conversations', secrets: [], throttle }),
    target.answer,
  );
  assert.equal(finding.result?.outcome, 'inconclusive');
  assert.equal(target.calls(), 3);
});

test('skips a search whose context lacks what it needs', () => {
  const finding = drive(
    sizeLimitSearch(limitById('limit.maxTextLength.sendMessage'), { ...context, vertexToken: undefined }, { operation: 'x', secrets: [] }),
    fakeTarget(1).answer,
  );
  assert.equal(finding.result, null);
  assert.match(finding.skipped ?? '', /vertexToken/);
});

test('the fingerprint item carries outcome, bracket and how it was refused, the body as its shape only', () => {
  const limit = limitById('limit.maxPageCount');
  const finding = drive(sizeLimitSearch(limit, context, { operation: 'GET /v2/conversations', secrets: [] }), fakeTarget(500).answer);
  assert.deepEqual(sizeLimitFingerprint(limit, finding.operation, finding.result!, finding.refusal), {
    id: 'limit.maxPageCount',
    section: '8.3',
    operation: 'GET /v2/conversations',
    item: 'largest accepted PageCount',
    observed: {
      outcome: 'found',
      largestAccepted: 500,
      firstRejected: 501,
      refusal: 'refused',
      refusalStatus: 413,
      refusalContentType: 'application/problem+json',
      refusalBody: { detail: 'string' },
    },
  });
});

test('the summary line says what was found, how it was refused and what it cost', () => {
  const limit = limitById('limit.maxPageCount');
  const finding = drive(sizeLimitSearch(limit, context, { operation: 'GET /v2/conversations', secrets: [] }), fakeTarget(500).answer);
  assert.equal(
    sizeLimitLine(finding),
    `limit.maxPageCount (GET /v2/conversations): 500 (501 refused with 413), ${finding.result!.requests} requests (bound 16)`,
  );
  const open = drive(sizeLimitSearch(limit, context, { operation: 'GET /v2/conversations', secrets: [] }), fakeTarget(1e9).answer);
  assert.match(sizeLimitLine(open), /no limit up to 10000/);
  const skipped = drive(
    sizeLimitSearch(limitById('limit.maxTextLength.sendMessage'), { ...context, vertexToken: undefined }, { operation: 'x', secrets: [] }),
    fakeTarget(1).answer,
  );
  assert.match(sizeLimitLine(skipped), /not searched, no vertexToken in the context/);
});
