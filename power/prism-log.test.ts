import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrismLog } from './prism-log.ts';

// Lines as Prism 5 writes them (colours removed).
const LOG = `[11:31:46 AM] › [HTTP SERVER] get /api/v1/conversations ℹ  info      Request received
[11:31:46 AM] ›     [PROXY] ℹ  info      > Forwarding "get" request to http://127.0.0.1:4620/api/v1/conversations?BotID=abc...
[11:31:46 AM] ›     [PROXY] ℹ  info      The upstream call to /api/v1/conversations has returned 400
[11:31:46 AM] ›     [VALIDATOR] ✖  error     Violation: request.query.BotID Request query parameter BotID must be integer
[11:31:47 AM] › [HTTP SERVER] post /api/v2/dialog/101/create ℹ  info      Request received
[11:31:47 AM] ›     [PROXY] ℹ  info      The upstream call to /api/v2/dialog/101/create has returned 200
[11:31:47 AM] ›     [VALIDATOR] ✖  error     Violation: response.body.dialogUUID Response body property dialogUUID must match format "uuid"
[11:31:47 AM] › [HTTP SERVER] get /api/v2/conversations ℹ  info      Request received
[11:31:47 AM] ›     [PROXY] ℹ  info      The upstream call to /api/v2/conversations has returned 200
[11:31:47 AM] ›     [VALIDATOR] ⚠  warning   Violation: request.query.PageCount Request query parameter PageCount must be integer
`;

test('violations are tied to their request and upstream status; deliberate malformed requests rejected with 4xx do not count', () => {
  const { requests, violations } = parsePrismLog(LOG);
  assert.equal(requests, 3);
  assert.deepEqual(
    violations.map((v) => [v.method, v.path, v.upstreamStatus, v.direction, v.level, v.counts]),
    [
      ['GET', '/api/v1/conversations', 400, 'request', 'error', false],
      ['POST', '/api/v2/dialog/101/create', 200, 'response', 'error', true],
      ['GET', '/api/v2/conversations', 200, 'request', 'warning', true],
    ],
  );
  assert.match(violations[1]!.message, /dialogUUID must match format "uuid"/);
});

test('a violation logged before the upstream status is settled once the status arrives', () => {
  const log = `[x] › [HTTP SERVER] post /api/vertex/v1/complete ℹ  info      Request received
[x] ›     [VALIDATOR] ✖  error     Violation: request.body Request body must have required property 'token'
[x] ›     [PROXY] ℹ  info      The upstream call to /api/vertex/v1/complete has returned 403`;
  const [v] = parsePrismLog(log).violations;
  assert.equal(v!.upstreamStatus, 403);
  assert.equal(v!.counts, false);
});
