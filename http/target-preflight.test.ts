import { test } from 'node:test';
import assert from 'node:assert/strict';
import { preflight, preflightVerdict, type PreflightProblem } from './target-preflight.ts';
import { DEFAULT_THROTTLE } from './throttle.ts';

const url = 'https://staging.example.com/api/v2/conversations?PageCount=1';
const list = JSON.stringify({
  '0': {
    id: 'a1b2c3d4-0000-4000-8000-000000000000',
    name: '#1 Berlin',
    status: 'in-process',
    ip: '1.2.3.4',
    location: 'Berlin',
    updated: '',
    duration: 3,
    source: 'web',
  },
  meta: { pagination: { total: 1, count: 1, per_page: 1, current_page: 1, total_pages: 1, links: {} } },
});

const verdict = (status: number, body = '', contentType = 'application/json', error?: string) => preflightVerdict({ status, body, contentType, error }, url);
const problem = (v: ReturnType<typeof verdict>): PreflightProblem | undefined => (v.ok ? undefined : v.problem);

test('a JSON answer from the list endpoint is a target worth judging, drifted or not', () => {
  assert.deepEqual(verdict(200, list), { ok: true });
  assert.deepEqual(verdict(200, '{"0":{"id":1}}'), { ok: true }, 'meta missing is drift for the tests, not another API');
  assert.deepEqual(verdict(200, list, 'text/html'), { ok: true }, 'JSON served as text/html too');
});

test('each circumstance of the run gets its own one line, saying what to fix', () => {
  const cases: Array<[ReturnType<typeof verdict>, PreflightProblem, RegExp]> = [
    [verdict(0, '', undefined, 'ECONNREFUSED'), 'unreachable', /cannot be reached: GET https:\/\/staging.* got no answer \(ECONNREFUSED\): check API_BASE_URL/],
    [verdict(0, '', undefined, '1311 x509: certificate signed by unknown authority'), 'tls', /failed in TLS .*NODE_EXTRA_CA_CERTS.*SSL_CERT_FILE/],
    [verdict(0, '', undefined, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'tls', /private CA/],
    [verdict(401, '{"title":"Unauthorized"}'), 'credentials', /^credentials rejected: .* answered 401 \(spec §5\.2.*check API_LOGIN and API_PASSWORD$/],
    [verdict(403, ''), 'forbidden', /403 \(spec §5\.3/],
    [
      verdict(404, '<html>Not Found</html>', 'text/html; charset=utf-8'),
      'not-this-api',
      /does not look like the Dialog Bot Service: GET .* answered 404 text\/html; check the base path/,
    ],
    [verdict(200, '<html>login</html>', 'text/html'), 'not-this-api', /answered 200 text\/html that is not JSON \(the list is a JSON object, spec §2\.3\)/],
    [verdict(502, 'bad gateway', 'text/plain'), 'unhealthy', /unhealthy: .* answered 502 text\/plain/],
    [verdict(429, ''), 'throttled', /kept throttling/],
  ];
  for (const [v, expected, message] of cases) {
    assert.equal(problem(v), expected);
    assert.match(v.ok ? '' : v.reason, message);
  }
});

test('the preflight reads again after a 502 or a reset in between, not after a refused connection, and judges the last answer', async () => {
  const run = async (answers: Array<{ status: number; error?: string; body?: string }>) => {
    const sent: number[] = [];
    const waits: number[] = [];
    const result = await preflight(
      async () => {
        const next = answers[Math.min(sent.length, answers.length - 1)]!;
        sent.push(next.status);
        return { status: next.status, body: next.body ?? '', contentType: 'application/json', headers: {}, ...(next.error ? { error: next.error } : {}) };
      },
      url,
      DEFAULT_THROTTLE,
      async (s) => void waits.push(s),
    );
    return { result, sent: sent.length, waits };
  };
  const blip = await run([{ status: 502 }, { status: 0, error: 'ECONNRESET' }, { status: 200, body: list }]);
  assert.deepEqual(blip.result, { ok: true });
  assert.equal(blip.sent, 3);
  assert.ok(blip.waits.every((s) => s > 0 && s <= 4));
  const down = await run([{ status: 502 }]);
  assert.equal(down.sent, 4, 'three reads again, then the 502 is judged');
  assert.equal(problem(down.result), 'unhealthy');
  const refused = await run([{ status: 0, error: 'ECONNREFUSED' }]);
  assert.equal(refused.sent, 1, 'a refused connection is said at once');
  assert.equal(problem(refused.result), 'unreachable');
});
