// Rate limits (spec §8.2: not shown), politely: one small burst inside the request budget. A 429 is waited out
// (Retry-After) by the probes' client and reported here; the k6 rate-limit ladder measures the rate itself.
import { test } from './probe-fixtures.ts';

const BURST = 10;
const RATE_HEADER = /ratelimit|retry-after/i;

test(`records whether a burst of ${BURST} list requests meets a rate limit`, async ({ api, probeBudget, probe, observe }) => {
  probe(BURST, 'rate limits');
  const before = probeBudget.throttles.length;
  const responses = await Promise.all(Array.from({ length: BURST }, () => api.call('getV2Conversations', { query: { PageCount: 1 } })));
  const throttle = probeBudget.throttles[before];
  const headers = [...new Set(responses.flatMap((r) => Object.keys(r.headers).filter((h) => RATE_HEADER.test(h))))].sort();
  observe({
    id: 'rate.burst',
    section: '8.2',
    operation: 'GET /v2/conversations',
    item: `rate limit met by ${BURST} list requests at once`,
    observed: throttle
      ? { limited: true, status: throttle.status, retryAfter: throttle.retryAfter !== undefined, rateLimitHeaders: headers }
      : { limited: false, requests: BURST, rateLimitHeaders: headers },
  });
});
