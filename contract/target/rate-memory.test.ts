import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunMeta } from '../../lib/fingerprint.ts';
import { LEARNED_HERE, paceOf } from '../../http/run-pace.ts';
import { knownLimit, readPace, rememberLimit, writePace } from './rate-memory.ts';

const REFUSAL = { limited: true as const, statuses: [429], retryAfter: ['seconds'], headers: ['retry-after'] };
const run = (over: Partial<RunMeta> = {}): RunMeta => ({
  runId: 'r1',
  startedAt: '2026-11-25T10:00:00.000Z',
  target: 'staging.example.com',
  suiteVersion: '0.1.0',
  vendorVersion: null,
  ...over,
});

test('the run before against the same target leaves the limit it found, named by that run, with the refusal it met', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
  assert.equal(knownLimit(dir, 'staging.example.com', undefined), undefined);
  rememberLimit(dir, run(), { initial: null, limit: { perSecond: 19.4, from: LEARNED_HERE } }, REFUSAL);
  const known = knownLimit(dir, 'staging.example.com', undefined);
  const limit = { perSecond: 19.4, from: 'the run of 2026-11-25T10:00:00.000Z', basis: 'throttles', confidence: 'estimate' };
  assert.deepEqual(known, { limit, refusal: REFUSAL });
  assert.equal(knownLimit(dir, 'other.example.com', undefined), undefined, 'another target knows nothing of it');
  // A later run kept to it and met nothing: it still names the run that found it.
  rememberLimit(dir, run({ startedAt: '2026-11-26T10:00:00.000Z' }), { initial: known!.limit, limit: known!.limit }, REFUSAL);
  assert.deepEqual(knownLimit(dir, 'staging.example.com', undefined), known);
});

test('MAX_RPS alone leaves the memory as it was; a run that went unpaced and met no limit forgets the target', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
  rememberLimit(dir, run(), { initial: null, limit: { perSecond: 19.4, from: LEARNED_HERE } }, REFUSAL);
  const known = knownLimit(dir, 'staging.example.com', undefined);
  rememberLimit(dir, run(), { initial: { perSecond: 5, from: 'MAX_RPS' }, limit: { perSecond: 5, from: 'MAX_RPS' } }, { limited: false });
  assert.deepEqual(knownLimit(dir, 'staging.example.com', undefined), known);
  rememberLimit(dir, run(), { initial: null, limit: null }, { limited: false });
  assert.equal(knownLimit(dir, 'staging.example.com', undefined), undefined);
});

test("without a run before, a baseline of the same target gives the limit its run block holds, and its rate.limit's refusal", () => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
  const baseline = {
    name: 'staging',
    run: run({ rateLimit: { perSecond: 18, from: LEARNED_HERE } }),
    items: [{ id: 'rate.limit', section: '8.2', operation: 'any operation', item: 'rate limit met by the run', observed: REFUSAL }],
  };
  assert.deepEqual(knownLimit(dir, 'staging.example.com', baseline), {
    limit: { perSecond: 18, from: 'baseline staging (the run of 2026-11-25T10:00:00.000Z)', basis: 'throttles', confidence: 'estimate' },
    refusal: REFUSAL,
  });
  assert.equal(knownLimit(dir, 'vendor-b.example.com', baseline), undefined, "another target's baseline");
  assert.equal(knownLimit(dir, 'staging.example.com', { ...baseline, run: run() }), undefined, 'a baseline that knew no limit');
});

test("the run's pace is written as it changes, with the refusal it carried in", () => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
  assert.equal(readPace(dir), undefined);
  const carried = { limit: { perSecond: 19.4, from: 'the run of 2026-11-25T10:00:00.000Z' }, refusal: REFUSAL };
  writePace(dir, { initial: carried.limit, limit: { perSecond: 12, from: LEARNED_HERE } }, carried);
  assert.deepEqual(readPace(dir), { initial: carried.limit, limit: { perSecond: 12, from: LEARNED_HERE }, carried });
});

test("the target's limit and the pace kept under it are both remembered; a file of before the pace was kept reads as its limit, the pace it kept", () => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
  // A burst-1 bucket: what it let through while pressed, and the slower pace that met no throttle a jittery network away.
  const probed = { perSecond: 13.4, pace: 12.1, from: LEARNED_HERE, basis: 'probed' as const, confidence: 'confirmed' as const };
  rememberLimit(dir, run(), { initial: null, limit: probed }, REFUSAL);
  const known = knownLimit(dir, 'staging.example.com', undefined)!;
  assert.deepEqual(known.limit, { ...probed, from: 'the run of 2026-11-25T10:00:00.000Z' });
  assert.equal(paceOf(known.limit), 12.1);
  const older = {
    'staging.example.com': {
      limit: { perSecond: 14.55, from: 'the run of 2026-11-20T10:00:00.000Z', basis: 'probed', confidence: 'confirmed' },
      refusal: REFUSAL,
    },
  };
  writeFileSync(join(dir, 'rate-limits.json'), JSON.stringify(older));
  assert.equal(paceOf(knownLimit(dir, 'staging.example.com', undefined)!.limit), 14.55);
});

test('a limit the target announced is kept though never met; a file written before basis and confidence were kept reads as it was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
  const announced = { perSecond: 15, pace: 14.55, from: LEARNED_HERE, basis: 'announced' as const, confidence: 'confirmed' as const };
  rememberLimit(dir, run(), { initial: null, limit: announced }, { limited: false });
  assert.deepEqual(knownLimit(dir, 'staging.example.com', undefined), {
    limit: { ...announced, from: 'the run of 2026-11-25T10:00:00.000Z' },
    refusal: { limited: false },
  });
  // An older file: its limit has neither (the run's pace takes it for an estimate learned from throttles, and probes).
  const older = { 'staging.example.com': { limit: { perSecond: 7.66, from: 'the run of 2026-11-20T10:00:00.000Z' }, refusal: REFUSAL } };
  writeFileSync(join(dir, 'rate-limits.json'), JSON.stringify(older));
  assert.deepEqual(knownLimit(dir, 'staging.example.com', undefined), older['staging.example.com']);
});
