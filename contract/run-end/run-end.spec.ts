// The teardown project: after every other project has finished, passed or not (it is the setup project's teardown),
// what only the whole run can tell: its rate limit, whether every "not shown" item was observed, and which
// (operation, status) pairs were exercised. It sends no request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../fixtures.ts';
import { REPORTS_DIR } from '../env.ts';
import { coverageHtml, coverageMatrix, unexplained, type SeenExchange } from '../../lib/coverage-matrix.ts';
import { rateLimitFinding } from '../../http/throttle.ts';
import { UNKNOWN_CATALOG } from '../probes/catalog.ts';
import { preconditionReasons } from '../preconditions.ts';
import { currentRun, readJsonLines } from '../run-records.ts';
import { readThrottleRecords } from '../run-throttle.ts';
import { NOT_DRIVABLE } from './not-drivable.ts';

test.describe.configure({ mode: 'serial' });

const jsonLines = <T>(dir: string) => readJsonLines<T>(join(REPORTS_DIR, dir));

test('records the rate limit the run met, from every throttled answer of every worker', ({ observe }) => {
  const throttles = readThrottleRecords(REPORTS_DIR);
  const answered = jsonLines<SeenExchange>('exchanges').length;
  const seconds = (Date.now() - Number(process.env.RUN_STARTED_AT ?? Date.now())) / 1000;
  const finding = rateLimitFinding(throttles, answered + throttles.length, seconds);
  observe({ id: 'rate.limit', section: '8.2', item: 'rate limit met by the run (any request throttled: status, Retry-After form, rate-limit headers)', observed: finding.observed, evidence: finding.evidence });
});

const partial = process.env.RUN_PARTIAL || undefined;

test('every catalogued "not shown" item was observed in this run, or its test said why it could not be', () => {
  test.skip(partial !== undefined, partial);
  const recorded = new Set(jsonLines<{ id: string }>('observations').map((row) => row.id));
  const excused = preconditionReasons(REPORTS_DIR, 'observations');
  const missing = UNKNOWN_CATALOG.flatMap((e) => e.ids.filter((id) => !recorded.has(id) && !excused[id]).map((id) => `${id} (spec §${e.section}: ${e.item})`));
  expect(missing, 'not observed in this run: the test or probe that records each failed before recording (its failure is in the report)').toEqual([]);
});

test('every documented (operation, status) pair is exercised or explained', async ({ validators, config }, testInfo) => {
  const operations = [...validators.operations.values()].map((op) => ({ operationId: op.operationId, label: op.label, statuses: Object.keys(op.responses) }));
  // What this run could not set up comes first: it says why the pair is missing now.
  const coverage = coverageMatrix(operations, jsonLines<SeenExchange>('exchanges'), { ...NOT_DRIVABLE, ...preconditionReasons(REPORTS_DIR, 'pairs') });
  writeFileSync(join(REPORTS_DIR, 'coverage.json'), `${JSON.stringify({ run: currentRun(config), ...coverage }, null, 2)}\n`);
  await testInfo.attach('coverage.html', { body: coverageHtml(coverage), contentType: 'text/html' });
  console.log(`coverage: ${coverage.exercised}/${coverage.documented} documented (operation, status) pairs exercised`);
  test.skip(partial !== undefined, partial);
  const holes = unexplained(coverage).map((r) => `${r.operation} ${r.status}`);
  expect(holes, `documented pairs neither exercised nor explained in contract/run-end/not-drivable.ts: ${holes.join(', ')}`).toEqual([]);
});
