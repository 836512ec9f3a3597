import { test } from 'node:test';
import assert from 'node:assert/strict';
import { preflightVerdict, type PreflightProblem } from './target-preflight.ts';
import { envelopeShapes } from '../load/openapi-data.ts';

const envelope = envelopeShapes().getV2Conversations!;
const url = 'https://staging.example.com/api/v2/conversations?PageCount=1';
const list = JSON.stringify({
  '0': { id: 'a1b2c3d4-0000-4000-8000-000000000000', name: '#1 Berlin', status: 'in-process', ip: '1.2.3.4', location: 'Berlin', updated: '', duration: 3, source: 'web' },
  meta: { pagination: { total: 1, count: 1, per_page: 1, current_page: 1, total_pages: 1, links: {} } },
});

const verdict = (status: number, body = '', contentType = 'application/json', error?: string) => preflightVerdict({ status, body, contentType, error }, url, envelope);
const problem = (v: ReturnType<typeof verdict>): PreflightProblem | undefined => (v.ok ? undefined : v.problem);

test('a list envelope from the list endpoint is a target worth judging', () => {
  assert.deepEqual(verdict(200, list), { ok: true });
});

test('each circumstance of the run gets its own one line, saying what to fix', () => {
  const cases: Array<[ReturnType<typeof verdict>, PreflightProblem, RegExp]> = [
    [verdict(0, '', undefined, 'ECONNREFUSED'), 'unreachable', /cannot be reached: GET https:\/\/staging.* got no answer \(ECONNREFUSED\): check API_BASE_URL/],
    [verdict(0, '', undefined, '1311 x509: certificate signed by unknown authority'), 'tls', /failed in TLS .*NODE_EXTRA_CA_CERTS.*SSL_CERT_FILE/],
    [verdict(0, '', undefined, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'tls', /private CA/],
    [verdict(401, '{"title":"Unauthorized"}'), 'credentials', /^credentials rejected: .* answered 401 \(spec §5\.2.*check API_LOGIN and API_PASSWORD$/],
    [verdict(403, ''), 'forbidden', /403 \(spec §5\.3/],
    [verdict(404, '<html>Not Found</html>', 'text/html; charset=utf-8'), 'not-this-api', /does not look like the Dialog Bot Service: GET .* answered 404 text\/html; check the base path/],
    [verdict(200, '<html>login</html>', 'text/html'), 'not-this-api', /answered 200 text\/html that is not a list envelope \(spec §2\.3\)/],
    [verdict(200, '{"items":[]}'), 'not-this-api', /not a list envelope/],
    [verdict(502, 'bad gateway', 'text/plain'), 'unhealthy', /unhealthy: .* answered 502 text\/plain/],
    [verdict(429, ''), 'throttled', /kept throttling/],
  ];
  for (const [v, expected, message] of cases) {
    assert.equal(problem(v), expected);
    assert.match(v.ok ? '' : v.reason, message);
  }
});
