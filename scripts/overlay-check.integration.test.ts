// The overlay check fails where the learned document is wrong: an action that matches nothing, a document Redocly
// rejects, an answer the run recorded that the learned document refuses; and passes the overlay of a real run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { observedOverlay, type Overlay, type OverlayAction } from '../report/overlay.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { applyOverlay } from '../report/learned-document.ts';
import { OBSERVED_DOCUMENT, OBSERVED_OVERLAY } from '../contract/core/run-report-files.ts';
import { EXCHANGES_HAR } from '../contract/core/run-report-files.ts';
import type { RecordedExchange } from '../lib/exchange.ts';
import { harOf } from '../report/har.ts';
import { checkObserved } from './overlay-check.ts';
import { loadDocument } from '../openapi/document.ts';

const baseline = JSON.parse(readFileSync(new URL('../baselines/simulator.json', import.meta.url), 'utf8')) as { items: FingerprintItem[] };
const PROBLEM = JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'PageCount must be 1 or more' });
const answer400: RecordedExchange = {
  operationId: 'getV2Conversations',
  request: { method: 'GET', path: '/api/v2/conversations?PageCount=0', credentials: 'configured' },
  test: 'a test',
  startedAt: '2026-11-24T00:00:00.000Z',
  ms: 3,
  status: 400,
  statusText: 'Bad Request',
  headers: { 'content-type': 'application/problem+json' },
  contentType: 'application/problem+json',
  contentLength: null,
  body: PROBLEM,
};

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A reports directory as a run leaves it: the overlay, the document with it applied, and the answers recorded (HAR). */
async function reportsWith(overlay: Overlay, answers: RecordedExchange[] = [answer400]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'overlay-check-'));
  dirs.push(dir);
  writeFileSync(join(dir, OBSERVED_OVERLAY), stringify(overlay));
  writeFileSync(join(dir, OBSERVED_DOCUMENT), stringify((await applyOverlay(overlay, loadDocument())).document));
  writeFileSync(join(dir, EXCHANGES_HAR), JSON.stringify(harOf(answers, 'http://127.0.0.1:4010', { name: 'test', version: '0' }, 'a run')));
  return dir;
}

const with_ = (...actions: Array<Omit<OverlayAction, 'x-observed'>>): Overlay => {
  const real = observedOverlay(baseline.items, null);
  return {
    ...real,
    actions: [
      ...real.actions,
      ...actions.map((a) => ({ ...a, 'x-observed': { observations: ['test'], runStartedAt: 'now', target: 'here', sections: ['7'] } })),
    ],
  };
};

test('the overlay of the conforming simulator applies, lints clean and accepts what the run answered', async () => {
  const result = await checkObserved(await reportsWith(observedOverlay(baseline.items, null)));
  assert.deepEqual(result.problems, []);
  assert.equal(result.answers, 1);
});

test('an action that matches nothing, a document Redocly rejects and a refused answer each fail the check', async () => {
  const nowhere = await checkObserved(await reportsWith(with_({ target: '$.components.schemas.NoSuchSchema', description: 'x', update: { maxLength: 1 } })));
  assert.deepEqual(nowhere.problems, ['overlay action on $.components.schemas.NoSuchSchema matches nothing in the document']);

  const duplicate = await checkObserved(
    await reportsWith(with_({ target: "$.paths['/v1/conversations'].get", description: 'x', update: { operationId: 'getV2Conversations' } })),
  );
  assert.match(duplicate.problems.join('\n'), /^redocly lint of the learned document: .*operationId/m);

  // The overlay claims error bodies carry status as a string: the recorded 400 says otherwise.
  const wrongType = { content: { 'application/problem+json': { schema: { type: 'object', properties: { status: { type: 'string' } } } } } };
  const refused = await checkObserved(await reportsWith(with_({ target: '$.components.responses.BadRequest', description: 'x', update: wrongType })));
  assert.deepEqual(refused.violations, ['GET /v2/conversations → 400: $.status: expected type string (spec §7), observed number 400']);
});

test('a throttled answer in the HAR was waited out, not judged: it is held to neither document', async () => {
  const throttled: RecordedExchange = { ...answer400, status: 429, statusText: 'Too Many Requests', body: '{"error":"slow down"}', throttled: true };
  const result = await checkObserved(await reportsWith(observedOverlay(baseline.items, null), [answer400, throttled]));
  assert.deepEqual(result.problems, []);
  assert.equal(result.answers, 1);
});
