// The setup project: before the api and probes projects, the run settles the send and command body
// shapes (spec §4.2: not shown) once — configured, or discovered and verified by their effect — and every test
// then uses that one shape. It never fails on the target's answers: a failure here would skip the whole run, so
// what went wrong is recorded, and each test that needs a shape says why it has none.
import { test as base } from '../fixtures.ts';
import { canonicalTemplate } from '../../http/body-template.ts';
import type { ShapeFinding } from '../../http/body-discovery.ts';
import { REPORTS_DIR } from '../env.ts';
import { discoverShapes, writeRequestShapes } from '../request-shapes.ts';

const test = base.extend({
  api: async ({ clientFor }, use) => use(await clientFor('valid', { serverErrorsFail: false })),
});

const evidence = (finding: ShapeFinding) =>
  [finding.how, ...finding.tried.map((t) => `tried ${canonicalTemplate(t.template)} → ${t.status}, effect: ${t.effect}`)].join('\n');

test('settles the send and command body shapes the target takes, verified by their effect', async ({ api, config, dialogs, observe }) => {
  const startedAt = Date.now();
  const result = await discoverShapes(api, config);
  for (const uuid of result.dialogs) dialogs.adopt(uuid, config.botId, startedAt);
  writeRequestShapes(REPORTS_DIR, result);
  for (const [kind, operation, item] of [
    ['send', 'POST /v2/conversation/{uuid}/send', 'name and type of the send body field'],
    ['command', 'POST /v2/conversation/{uuid}/command', 'names and types of the command body fields'],
  ] as const) {
    const finding = result[kind];
    observe({ id: `body.${kind}.accepted`, section: '4.2', operation, item, observed: finding.template === null ? null : canonicalTemplate(finding.template), evidence: evidence(finding) });
  }
});
