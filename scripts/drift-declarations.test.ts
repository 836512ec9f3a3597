// The mutation run counts a drift as caught only where it declares it shows (power/mutation-score.ts): a declaration
// that names no real operation or no item the suite records could never be met, and would fail the run for a typo
// instead of for the suite's weakness. So every declaration is checked against the document and the baseline.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ADDITIVE_PREFIX } from '../report/drift-report.ts';
import { contractValidators } from '../openapi/validators.ts';
import { DRIFTS } from '../simulator/drifts/index.ts';

const validators = contractValidators();
const operations = [...validators.operations.values()];
const baselineIds = new Set(
  (JSON.parse(readFileSync(new URL('../baselines/simulator.json', import.meta.url), 'utf8')) as { items: Array<{ id: string }> }).items.map((i) => i.id),
);

/** An operationId of the document (the type checks the declarations; the document may have lost one since). */
const isOperation = (name: string): boolean => operations.some((op) => op.operationId === name);

test('every breaking drift declares where it breaks, on operations of the document', () => {
  for (const drift of DRIFTS.filter((d) => d.kind === 'breaking')) {
    assert.ok(drift.breaks?.length, `${drift.name}: no breaks declared`);
    assert.equal(drift.reports, undefined, `${drift.name}: a breaking drift is caught by a failure, not reported`);
    for (const { operations: ops, at } of drift.breaks) {
      assert.ok(ops.length && at.length, `${drift.name}: a location needs operations and places`);
      for (const op of ops) assert.ok(isOperation(op), `${drift.name}: ${op} is no operation of the document`);
      for (const place of at) assert.match(place, /^(\/|status$|content-type$|body$|[a-z])/, `${drift.name}: ${place}`);
    }
  }
});

test('every additive or undocumented drift declares the report items that show it, and the suite records them', () => {
  for (const drift of DRIFTS.filter((d) => d.kind !== 'breaking')) {
    assert.ok(drift.reports?.length, `${drift.name}: no reports declared`);
    assert.equal(drift.breaks, undefined, `${drift.name}: only breaking drifts break`);
    for (const id of drift.reports) {
      if (drift.kind === 'additive') {
        // Additive items exist only once a field is added: the id names a documented operation and a JSON path.
        const [, operationId, path] = /^additive\.(\w+)\.(\$.*)$/.exec(id) ?? [];
        assert.ok(
          id.startsWith(ADDITIVE_PREFIX) && operationId && isOperation(operationId) && path,
          `${drift.name}: ${id} is no additive item of a documented operation`,
        );
      } else {
        assert.ok(baselineIds.has(id), `${drift.name}: ${id} is no item of the conforming run (baselines/simulator.json)`);
      }
    }
  }
});
