// Deprecation and compatibility policy (spec §9.5: not shown). The policy is not observable through the API; the
// signals a target may send with its answers (Deprecation, Sunset, Warning, version headers) are.
import { eachRun, test } from '../fixtures/probe-test.ts';

const SIGNAL = /^(deprecation|sunset|warning|api-version|x-api-version|x-api-deprecated)$/i;
const DEPRECATION_LINK = /rel="?(deprecation|successor-version|sunset)/i;

eachRun(() => {
  test('records deprecation and version signals in V1 and V2 answers', async ({ api, probe, observe }) => {
    probe(2, 'deprecation and version signals', { observations: ['versioning.deprecation-signals'] });
    const seen: Record<string, Record<string, string>> = {};
    for (const operationId of ['getV1Conversations', 'getV2Conversations'] as const) {
      const res = await api.call(operationId, { query: { PageCount: 1 } });
      const signals = Object.entries(res.headers).filter(([name, value]) => SIGNAL.test(name) || (name === 'link' && DEPRECATION_LINK.test(value)));
      seen[res.operation.label] = Object.fromEntries(signals.sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    observe({
      id: 'versioning.deprecation-signals',
      section: '9.5',
      item: 'deprecation and version signals in answers (the policy itself is not observable through the API)',
      observed: seen,
    });
  });
});
