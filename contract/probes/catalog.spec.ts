// Every x-unknown mark of the document has a catalogued probe, and every catalog entry still names a mark.
import { eachRun, test, expect } from './probe-test.ts';
import { catalogGaps } from './catalog.ts';

eachRun(() => {
  test('every "not shown" item the document marks has an entry in the probe catalog', ({ validators }) => {
    const { uncatalogued, stale } = catalogGaps(validators.doc);
    expect(uncatalogued, 'x-unknown items with no entry in contract/probes/catalog.ts: add a probe and its observation ids').toEqual([]);
    expect(stale, 'entries of contract/probes/catalog.ts that no x-unknown mark names any more').toEqual([]);
  });
});
