import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_HEALTH, failureLine, outageLine, recordOutcome, resendDelaySeconds, transientKind, type FailureStreak, type SendOutcome } from './health.ts';

test("what a network or a gateway may cause is transient; every other answer is the target's to judge", () => {
  assert.equal(transientKind({ kind: 'answer', status: 502 }), 'bad-gateway');
  assert.equal(transientKind({ kind: 'answer', status: 504 }), 'gateway-timeout');
  for (const status of [200, 400, 429, 500, 503]) assert.equal(transientKind({ kind: 'answer', status }), undefined, String(status));
  assert.equal(transientKind({ kind: 'transport', what: 'read ECONNRESET' }), 'reset');
  assert.equal(transientKind({ kind: 'transport', what: 'UND_ERR_SOCKET: other side closed' }), 'reset');
  assert.equal(transientKind({ kind: 'transport', what: 'connect ECONNREFUSED 127.0.0.1:4010' }), 'refused');
  assert.equal(transientKind({ kind: 'transport', what: 'Request timed out after 12000ms' }), 'timeout');
  assert.equal(transientKind({ kind: 'transport', what: 'getaddrinfo ENOTFOUND staging' }), 'other-transport');
});

test("a connection's failure is one line, its code first, which tells its transient kind", () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010\r\nsaid twice'), { code: 'ECONNREFUSED' });
  assert.equal(failureLine(refused), 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:4010 said twice');
  assert.equal(transientKind({ kind: 'transport', what: failureLine(refused) }), 'refused');
  assert.equal(failureLine(new Error('the answer broke off')), 'error: the answer broke off');
});

test('resends back off from a quarter second, with jitter, and never wait more than 4 s', () => {
  assert.equal(
    resendDelaySeconds(1, () => 0),
    0.125,
  );
  assert.equal(
    resendDelaySeconds(1, () => 1),
    0.25,
  );
  assert.equal(
    resendDelaySeconds(3, () => 1),
    1,
  );
  assert.equal(
    resendDelaySeconds(12, () => 1),
    4,
  );
});

/** Feeds outcomes at the given seconds; returns the outage, if one was told, and when. */
function feed(events: Array<[number, SendOutcome, string?]>): { at?: number; line?: string; streak?: FailureStreak } {
  let streak: FailureStreak | undefined;
  for (const [second, outcome, operation] of events) {
    const next = recordOutcome(streak, operation ?? 'getV2Conversations', outcome, second * 1000, DEFAULT_HEALTH);
    streak = next.streak;
    if (next.outage) return { at: second, line: outageLine(next.outage), streak };
  }
  return { ...(streak ? { streak } : {}) };
}

const down503: SendOutcome = { kind: 'answer', status: 503 };
const refused: SendOutcome = { kind: 'transport', what: 'ECONNREFUSED' };
const ok: SendOutcome = { kind: 'answer', status: 200 };

test('an outage is failures for OUTAGE_S seconds with no answer worth judging in between, across operations', () => {
  const outage = feed([
    [0, ok],
    [1, down503],
    [4, down503, 'postV2DialogCreate'],
    [8, refused],
    [11, down503],
  ]);
  assert.equal(outage.at, 11);
  assert.match(
    outage.line!,
    /^the target went down at 1970-01-01T00:00:01\.000Z \(then 3 × 503 without Retry-After, 1 × connection refused on 2 operations, no answer to judge for 10 s\): try again when the service is up$/,
  );
});

test('no outage: a good answer, a 4xx or a 500 in between ends the streak; a 503 with Retry-After and a 429 are throttling', () => {
  assert.equal(
    feed([
      [0, down503],
      [5, ok],
      [9, down503],
      [14, down503],
    ]).at,
    undefined,
  );
  assert.equal(
    feed([
      [0, down503],
      [5, { kind: 'answer', status: 404 }],
      [12, down503],
      [13, down503],
    ]).at,
    undefined,
  );
  assert.equal(
    feed([
      [0, down503],
      [6, { kind: 'answer', status: 500 }],
      [11, down503],
    ]).at,
    undefined,
    "a 500 is an answer: the vendor's to be judged for",
  );
  assert.equal(
    feed([
      [0, { kind: 'answer', status: 503, retryAfter: true }],
      [6, { kind: 'answer', status: 429 }],
      [12, { kind: 'answer', status: 503, retryAfter: true }],
    ]).streak,
    undefined,
  );
});

test('two failures over a long time are not an outage: at least three are', () => {
  assert.equal(
    feed([
      [0, refused],
      [30, refused],
    ]).at,
    undefined,
  );
  assert.equal(
    feed([
      [0, refused],
      [30, refused],
      [31, refused],
    ]).at,
    31,
  );
});
