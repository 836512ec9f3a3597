import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageHtml, coverageMatrix, unexplained } from './coverage-matrix.ts';

const ops = [
  { operationId: 'a', label: 'GET /a', statuses: ['200', '404', '403'] },
  { operationId: 'b', label: 'POST /b', statuses: ['2XX', '400'] },
];

test('counts exercised pairs, matches ranges, keeps reasons only for pairs not exercised', () => {
  const cov = coverageMatrix(
    ops,
    [
      { operationId: 'a', status: 200 },
      { operationId: 'a', status: 200 },
      { operationId: 'a', status: 500 },
      { operationId: 'b', status: 202 },
    ],
    { 'a 403': 'needs a blocked instance', 'a 200': 'never shown' },
  );
  assert.deepEqual(
    cov.rows.map((r) => [r.operationId, r.status, r.exercised, r.reason]),
    [
      ['a', '200', 2, undefined],
      ['a', '404', 0, undefined],
      ['a', '403', 0, 'needs a blocked instance'],
      ['b', '2XX', 1, undefined],
      ['b', '400', 0, undefined],
    ],
  );
  assert.deepEqual(cov.undocumented, [{ operationId: 'a', status: 500, count: 1 }]);
  assert.deepEqual(
    unexplained(cov).map((r) => `${r.operationId} ${r.status}`),
    ['a 404', 'b 400'],
  );
  assert.equal(cov.exercised, 2);
  assert.match(coverageHtml(cov), /2\/5 documented/);
  assert.match(coverageHtml(cov), /undocumented status 500 seen 1×/);
});
