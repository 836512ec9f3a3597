import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageHtml, coverageMatrix, stateMatrix, unexplained } from './coverage-matrix.ts';

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

test('the state × trigger matrix: each pair walked with its outcomes, or its reason; the html shows both', () => {
  const rows = stateMatrix(
    ['created × start', 'operator × start', 'completed × stop'],
    [
      { pair: 'operator × start', status: 204, after: 'in-process' },
      { pair: 'created × start', status: 204, after: 'in-process' },
      { pair: 'operator × start', status: 204, after: 'in-process' },
      { pair: 'created × start', status: 403, after: null },
    ],
    { 'completed × stop': 'no completed dialog', 'operator × start': 'unused: it was walked' },
  );
  assert.deepEqual(rows, [
    {
      pair: 'created × start',
      walked: 2,
      outcomes: [
        { status: 204, after: ['in-process'] },
        { status: 403, after: ['(not read)'] },
      ],
    },
    { pair: 'operator × start', walked: 2, outcomes: [{ status: 204, after: ['in-process'] }] },
    { pair: 'completed × stop', walked: 0, outcomes: [], reason: 'no completed dialog' },
  ]);
  const html = coverageHtml(coverageMatrix(ops, [], {}), rows);
  assert.match(html, /State × trigger \(spec §3\): 2\/3 walked/);
  assert.match(html, /204 → in-process; 403 → \(not read\)/);
  assert.match(html, /no completed dialog/);
});

test('the variants table: each documented variant, how often and by which test it was exercised, or why not', () => {
  const html = coverageHtml(
    coverageMatrix(ops, [], {}),
    [],
    [
      { id: 'a', section: '4.2', operation: 'POST /v2/dialog/{BotID}/create', variant: 'response in the query alone, true', exercised: 2, by: '[api] t' },
      {
        id: 'b',
        section: '4.1',
        operation: 'GET /v1/conversations',
        variant: 'CreatedTo in the query, a date alone',
        exercised: 0,
        reason: 'not in this run: x',
      },
      { id: 'c', section: '3', operation: 'POST /v2/conversation/{uuid}/start', variant: 'right after X', exercised: 0 },
    ],
  );
  assert.match(html, /Documented variants \(spec §3, §4\): 1\/3 exercised/);
  assert.match(html, /response in the query alone, true<\/td><td>2<\/td><td>exercised, first by \[api\] t/);
  assert.match(html, /not in this run: x/);
  assert.match(html, /NOT EXERCISED/);
});
