// In the coverage project, after the v1, v2, vertex and probes projects: every observation the catalog counts on was
// recorded in this run. One that was not means a probe or a test could not observe, whatever the reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../fixtures.ts';
import { REPORTS_DIR } from '../env.ts';
import { UNKNOWN_CATALOG } from './catalog.ts';

function recordedIds(): Set<string> {
  const dir = join(REPORTS_DIR, 'observations');
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir).flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ),
  );
}

test('every catalogued "not shown" item was observed in this run', () => {
  const recorded = recordedIds();
  const missing = UNKNOWN_CATALOG.flatMap((e) => e.ids.filter((id) => !recorded.has(id)).map((id) => `${id} (spec §${e.section}: ${e.item})`));
  expect(missing, 'not observed in this run: the test or probe that records each was skipped or failed before recording (its reason is in the report)').toEqual([]);
});
