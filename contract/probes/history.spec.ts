// Values the spec lists only as observed (statuses, source, data item type) and when V2 updated is "", read from
// dialogs of the sample window (lists.ts sampleQuery): dialogs live traffic no longer moves, so two runs see the same,
// recorded as sets.
import { eachRun, test } from '../fixtures/probe-test.ts';
import { fetchPage } from '../api/lists.ts';
import { sampleQuery, searchPageCount } from '../api/lists.ts';
import { readV2 } from '../api/requests.ts';

const RECORDS = 10;
/** The distinct values seen; an absent one reads "missing" (never "undefined"), null as null, an object as JSON. */
const distinct = (values: unknown[]) => [...new Set(values.map((v) => (v === undefined ? 'missing' : typeof v === 'string' ? v : JSON.stringify(v))))].sort();

eachRun(() => {
  test('records statuses, sources, empty updated times and data item types of dialogs of the sample window', async ({ api, config, probe, observe }) => {
    probe(2 + RECORDS, 'values seen in dialogs of the sample window', {
      observations: ['statuses.seen', 'sources.seen', 'updated.empty', 'updated.zone', 'lists.order', 'data.types.seen'],
    });
    const query = { ...sampleQuery(config, config.botId), PageCount: searchPageCount() };
    const v1 = await fetchPage(api, 'v1', query);
    const v2 = await fetchPage(api, 'v2', query);
    observe({
      id: 'statuses.seen',
      section: '2.2',
      item: `status values on the first page of ${query.PageCount} dialogs of the sample window`,
      observed: { v1: distinct(v1.items.map((i) => i.status)), v2: distinct(v2.items.map((i) => i.status)) },
    });
    observe(v2.response.operation, {
      id: 'sources.seen',
      section: '2.1',
      item: 'source values on that page',
      observed: distinct(v2.items.map((i) => i.source)),
    });
    observe(v2.response.operation, {
      id: 'updated.empty',
      section: '2.1',
      item: 'statuses of the dialogs on that page whose updated is ""',
      observed: distinct(v2.items.filter((i) => i.updated === '').map((i) => i.status)),
    });
    const zones = [...v1.items, ...v2.items].map((i) => /(Z|[+-]\d{2}:?\d{2})$/.exec(i.updated)?.[1] ?? (i.updated === '' ? 'empty' : 'none'));
    observe(v2.response.operation, {
      id: 'updated.zone',
      section: '2.1',
      item: 'time zone designators of updated ("ISO format"; Z, an offset, or none) on those pages',
      observed: distinct(zones),
    });
    const ids = v1.items.map((i) => Number(i.id));
    const order = ids.every((id, n) => n === 0 || id < ids[n - 1]!)
      ? 'V1 ids descending'
      : ids.every((id, n) => n === 0 || id > ids[n - 1]!)
        ? 'V1 ids ascending'
        : 'neither';
    observe(v1.response.operation, {
      id: 'lists.order',
      section: '2.3',
      item: 'order of the items of a list page (not stated)',
      observed: ids.length < 2 ? 'fewer than 2 items' : order,
    });

    const data = [];
    for (const item of v2.items.slice(0, RECORDS)) data.push(...((await readV2(api, String(item.id))).record?.data ?? []));
    observe('getV2Conversation', {
      id: 'data.types.seen',
      section: '2.2',
      item: `data item types in the records of the first ${RECORDS} of those dialogs, and those carrying deleted`,
      observed: { types: distinct(data.map((d) => d.type)), withDeleted: distinct(data.filter((d) => 'deleted' in d).map((d) => d.type)) },
    });
  });
});
