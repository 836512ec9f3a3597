// The learned document serves teams that build against the API: `prism mock` started on it answers the send
// operation with the shape the run learned (a body without the learned field is refused, one with it is taken),
// where the project's own document, which leaves the shape open, takes both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import type { FingerprintItem } from '../lib/fingerprint.ts';
import { observedOverlay } from '../report/overlay.ts';
import { loadDocument } from '../openapi/document.ts';
import { ObservedItems } from '../lib/observations.ts';
import { applyOverlay } from '../report/learned-document.ts';
import { startPrism, type RunningPrism } from './prism.ts';

const baseline = JSON.parse(readFileSync(new URL('../baselines/simulator.json', import.meta.url), 'utf8')) as { items: FingerprintItem[] };
const learnedShape = new ObservedItems(baseline.items).get('body.send.accepted')!;
const AUTH = `Basic ${Buffer.from(`${DEFAULT_CONFIG.auth.login}:${DEFAULT_CONFIG.auth.password}`).toString('base64')}`;
const dir = mkdtempSync(join(tmpdir(), 'prism-mock-'));
let learned: RunningPrism;
let plain: RunningPrism;

before(async () => {
  learned = await startPrism('mock', (await applyOverlay(observedOverlay(baseline.items, null), loadDocument())).document, dir);
  plain = await startPrism('mock', loadDocument(), dir);
});
after(async () => {
  await Promise.all([learned?.stop(), plain?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const send = (prism: RunningPrism, body: unknown) =>
  fetch(`${prism.url}/api/v2/conversation/5f0c2d2e-1b7a-4c1e-9a57-0d3b1c2e4f60/send`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.status);

test('prism mock on the learned document answers send with the learned shape and refuses another', async () => {
  assert.equal(learnedShape, '{"text":"{{text}}"}');
  assert.equal(await send(learned, { text: 'hello' }), 204);
  // Refused for the learned field. Prism then picks the 400 (§4.2: a malformed request) but cannot serialize its
  // open "*/*" content and answers 500: the refusal is what counts here, its log names the field.
  assert.notEqual(await send(learned, { message: 'hello' }), 204);
  // Prism logs the refusal as it answers: the line may reach us after the answer did.
  await learned.waitFor(/Request body must have required property 'text'/);
  // The project's document leaves the shape open (§4.2 not shown): both are taken.
  assert.deepEqual([await send(plain, { text: 'hello' }), await send(plain, { message: 'hello' })], [204, 204]);
});
