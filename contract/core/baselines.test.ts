import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fingerprintJson, readFingerprintFile, type RunMeta, type RunScope } from '../../lib/fingerprint.ts';
import { BaselineError, saveBaseline } from './baselines.ts';

const scope = (partial: string[]): RunScope => ({
  partial,
  ended: 'complete',
  tests: { selected: 1, ran: 1, specs: ['v2/x.spec.ts'], projects: ['api'] },
  checks: { made: 58, leftOut: [] },
  operations: [],
});
const run = (partial: string[]): RunMeta => ({
  runId: 'r',
  startedAt: '2026-11-28T00:00:00Z',
  target: 'h',
  suiteVersion: '0',
  vendorVersion: null,
  scope: scope(partial),
});
const item = (id: string) => ({ id, section: '3', operation: '', item: id, observed: 1 });

function fingerprint(dir: string, ids: string[], partial: string[]): string {
  const file = join(dir, 'fingerprint.json');
  writeFileSync(file, fingerprintJson(ids.map(item), run(partial), { [ids[0]!]: ['v2/x.spec.ts › t'] }));
  return file;
}

test("a partial run's fingerprint is refused as a baseline unless asked for by name, then saved marked partial", () => {
  const dir = mkdtempSync(join(tmpdir(), 'baselines-'));
  const file = fingerprint(dir, ['a'], ['narrowed by -g']);
  assert.throws(
    () => saveBaseline('staging', { fingerprint: file, dir }),
    (err: Error) => err instanceof BaselineError && /is of a partial run \(narrowed by -g\).*--partial/.test(err.message),
  );
  const saved = saveBaseline('staging', { fingerprint: file, dir, partial: true });
  assert.equal(saved.partial, 'narrowed by -g');
  const read = readFingerprintFile(JSON.parse(readFileSync(join(dir, 'staging.json'), 'utf8')));
  assert.equal(read?.partial, 'narrowed by -g');
  assert.deepEqual(read?.observedBy, { a: ['v2/x.spec.ts › t'] }, 'who observed each item travels with it');
});

test('a whole run replacing a baseline names the items the old one had and it lacks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baselines-'));
  saveBaseline('staging', { fingerprint: fingerprint(dir, ['a', 'b', 'c'], []), dir });
  const saved = saveBaseline('staging', { fingerprint: fingerprint(dir, ['a'], []), dir });
  assert.deepEqual(saved, { path: saved.path, items: 1, replaced: true, missing: ['b', 'c'] });
});
