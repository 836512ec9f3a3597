import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GENERATED_FILE, operationsModule } from './generate.ts';
import { listOperations, loadDocument } from './document.ts';
import { OPERATIONS } from './operations.generated.ts';

test('operations.generated.ts is what the document generates now (else: npm run generate:api)', () => {
  assert.equal(readFileSync(GENERATED_FILE, 'utf8'), operationsModule(), 'openapi/operations.generated.ts is out of date: run npm run generate:api');
});

test('the generated table names every operation of the document by its method, path and label', () => {
  assert.deepEqual(
    Object.entries(OPERATIONS).map(([id, op]) => [id, op.method, op.path, op.label]),
    listOperations(loadDocument()).map((op) => [op.operationId, op.method, op.path, op.label]),
  );
});
