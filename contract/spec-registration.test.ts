// Every spec file registers its tests inside eachRun, or eachRunApart (contract/fixtures/api-test.ts). In an invocation of several runs a test
// registered outside it carries no run's lane tag, so no lane's project would select it: the mutation and profile
// runs would silently run without it. Formatted code puts every top-level statement at column 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const CONTRACT = fileURLToPath(new URL('.', import.meta.url));
const specFiles = (readdirSync(CONTRACT, { recursive: true }) as string[]).filter((f) => f.endsWith('.spec.ts')).sort();

/** Top-level lines that register tests: a test or describe call, a loop, or a shared define…Tests call. */
const REGISTERS = /^(test\b|for\b|define\w*\(|\w+\.describe\b)/;

test('every spec file registers its tests inside one eachRun', () => {
  assert.ok(specFiles.length > 20, `${specFiles.length} spec files found`);
  const offending = specFiles.flatMap((file) => {
    const lines = readFileSync(join(CONTRACT, file), 'utf8').split('\n');
    const outside = lines.map((line, i) => [line, i + 1] as const).filter(([line]) => REGISTERS.test(line));
    const wraps = lines.filter((line) => /^eachRun(Apart)?\(/.test(line)).length;
    return [
      ...outside.map(([line, n]) => `contract/${file}:${n}: "${line.slice(0, 60)}" registers outside eachRun`),
      ...(wraps === 1 ? [] : [`contract/${file}: ${wraps} top-level eachRun calls, not 1`]),
    ];
  });
  assert.deepEqual(offending, [], 'wrap the registrations in eachRun(() => { … }) (contract/fixtures/api-test.ts)');
});

test('a registration outside eachRun is named', () => {
  assert.ok(REGISTERS.test("test('reads a dialog', async ({ api }) => {"));
  assert.ok(REGISTERS.test("defineListTests('v1');"));
  assert.ok(REGISTERS.test('for (const c of CASES) {'));
  assert.ok(!REGISTERS.test("  test('reads a dialog', async ({ api }) => {"), 'indented: inside eachRun');
  assert.ok(!REGISTERS.test('const CASES = [];'));
});
