// Runs after v1, v2 and vertex (project dependency): turns every recorded exchange into the coverage matrix.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../fixtures.ts';
import { REPORTS_DIR } from '../env.ts';
import { coverageHtml, coverageMatrix, unexplained, type SeenExchange } from '../../lib/coverage-matrix.ts';
import { NOT_DRIVABLE } from './reasons.ts';

function readExchanges(): SeenExchange[] {
  const dir = join(REPORTS_DIR, 'exchanges');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SeenExchange),
  );
}

test('every documented (operation, status) pair is exercised or explained', async ({ validators }, testInfo) => {
  const operations = [...validators.operations.values()].map((op) => ({ operationId: op.operationId, label: op.label, statuses: Object.keys(op.responses) }));
  const coverage = coverageMatrix(operations, readExchanges(), NOT_DRIVABLE);
  writeFileSync(join(REPORTS_DIR, 'coverage.json'), `${JSON.stringify(coverage, null, 2)}\n`);
  await testInfo.attach('coverage.html', { body: coverageHtml(coverage), contentType: 'text/html' });
  console.log(`coverage: ${coverage.exercised}/${coverage.documented} documented (operation, status) pairs exercised`);
  const holes = unexplained(coverage).map((r) => `${r.operation} ${r.status}`);
  expect(holes, `documented pairs neither exercised nor explained in contract/coverage/reasons.ts: ${holes.join(', ')}`).toEqual([]);
});
