// Every x-unknown mark of the document has a catalogued probe, and every catalog entry still names a mark.
import { eachRun, test, expect } from '../fixtures/probe-test.ts';
import { catalogGaps } from '../core/unknowns-catalog.ts';

eachRun(() => {
  test('every "not shown" item the document marks has an entry in the probe catalog', ({ validators }) => {
    const { uncatalogued, stale } = catalogGaps(validators.doc);
    expect(uncatalogued, 'x-unknown items with no entry in contract/core/unknowns-catalog.ts: add a probe and its observation ids').toEqual([]);
    expect(stale, 'entries of contract/core/unknowns-catalog.ts that no x-unknown mark names any more').toEqual([]);
  });
});
