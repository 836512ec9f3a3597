// List semantics (spec §2.3, §4.1), defined once and registered for V1 and V2.
import { test, expect } from '../api-test.ts';
import { holdEach, type Finding } from '../matchers.ts';
import { CLOCK_SKEW_MS, fetchPage, fetchPages, findInList, listOperation, sampleQuery, isoUtc, type ListItem, type Page, type Version } from '../lists.ts';
import { sameValue, settledDifferences } from '../settled-reads.ts';
import type { Query } from '../client.ts';
import { declaredProperties } from '../../openapi/document.ts';

const MINUTE = 60_000;

/** Moves an ISO 8601 timestamp by `deltaMs`, keeping its style (an offset-less time stays offset-less). */
export function shiftIso(value: string, deltaMs: number): string {
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
  const ms = Date.parse(hasOffset ? value : `${value.replace(' ', 'T')}Z`) + deltaMs;
  return hasOffset ? isoUtc(ms) : isoUtc(ms).replace(/Z$/, '');
}

/** An instant in ISO 8601 with an explicit offset of `minutes` east of UTC: "2026-11-23T15:01:00+05:00". */
function zoned(ms: number, minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const hhmm = `${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
  return `${new Date(ms + minutes * MINUTE).toISOString().slice(0, 19)}${sign}${hhmm}`;
}

/** Well-formedness of one page: keys, count, per_page, total_pages, current_page (spec §2.3). */
async function expectWellFormedPage(page: Page, query: Query) {
  const { pagination: p, keys, response } = page;
  const op = response.operation.label;
  const evidence = response.evidence(300);
  const f = (pointer: string, expected: string, observed: unknown, location?: string) => ({
    operation: op,
    operationId: response.operationId,
    status: response.status,
    pointer,
    location,
    expected,
    section: '2.3',
    observed: JSON.stringify(observed),
    evidence,
  });
  const expectedKeys = Array.from({ length: p.count }, (_, i) => String(i));
  const itemKeys = keys.filter((k) => k !== 'meta');
  const lastFull = Math.max(0, Math.min(p.per_page, p.total - (p.current_page - 1) * p.per_page));
  const pages = Math.ceil(p.total / p.per_page);
  holdEach(
    [
      JSON.stringify(itemKeys) === JSON.stringify(expectedKeys),
      f('/ (item keys)', `decimal indexes "0".."${p.count - 1}" (one per item, count ${p.count})`, itemKeys.length > 12 ? [...itemKeys.slice(0, 12), '…'] : itemKeys),
    ],
    [p.count <= p.per_page, f('/meta/pagination/count', `at most per_page (${p.per_page})`, p.count)],
    [p.total_pages === pages, f('/meta/pagination/total_pages', `ceil(total / per_page) = ceil(${p.total} / ${p.per_page}) = ${pages}`, p.total_pages)],
    [query.PageCount === undefined || p.per_page === Number(query.PageCount), f('/meta/pagination/per_page', `the PageCount asked for (${query.PageCount})`, p.per_page)],
    [query.PageNumber === undefined || p.current_page === Number(query.PageNumber), f('/meta/pagination/current_page', `the PageNumber asked for (${query.PageNumber})`, p.current_page)],
    [p.count === lastFull, f('/meta/pagination/count', `min(per_page, total - (current_page - 1) * per_page) = ${lastFull}`, p.count)],
    ...page.items.map((item): [boolean, Finding] => {
      const t = item.updated === '' ? NaN : Date.parse(item.updated);
      const plausible = item.updated === '' || (t > Date.UTC(2000, 0, 1) && t < Date.now() + 24 * 60 * MINUTE);
      return [plausible, f('/*/updated', 'an ISO 8601 time between 2000 and now', item.updated, `$[…].updated of ${item.id}`)];
    }),
  );
}

export function defineListTests(version: Version): void {
  const op = version === 'v1' ? 'GET /v1/conversations' : 'GET /v2/conversations';
  const operationId = listOperation(version);

  test(`${op} without parameters answers a well-formed first page; the defaults are recorded`, async ({ api, observe }) => {
    const page = await fetchPage(api, version, {});
    await expect(page.response).toMatchContract({ status: 200, section: '4.1' });
    await expectWellFormedPage(page, {});
    observe(operationId, { id: `default.${version}.PageNumber`, section: '4.1', item: 'default PageNumber', observed: page.pagination.current_page, evidence: page.response.evidence() });
    observe(operationId, { id: `default.${version}.PageCount`, section: '4.1', item: 'default PageCount (per_page)', observed: page.pagination.per_page, evidence: page.response.evidence() });
    observe(operationId, { id: `links.${version}`, section: '2.3', item: 'meta.pagination.links', observed: page.pagination.links, evidence: page.response.evidence() });
  });

  test(`${op} honours PageNumber and PageCount; pages are disjoint and together hold the total`, async ({ api, config, observe }) => {
    const query = sampleQuery(config, config.botId);
    const probe = await fetchPage(api, version, { ...query, PageCount: 1 });
    const total = probe.pagination.total;
    test.skip(total < 2, `the target has fewer than 2 dialogs on bot ${config.botId} in the sample window (SAMPLE_CREATED_FROM/TO): pagination cannot be observed`);
    // About four pages over the whole window when it is small; the first pages only when it is large. Never more
    // than 40 a page: the page size observed in the spec (§8.1), so a vendor whose maximum is lower than what the
    // suite asks (not shown, §8.3: it may clamp) is not taken for one that ignores PageCount.
    const perPage = total <= 160 ? Math.max(1, Math.ceil(total / 4)) : 40;
    const pages = await fetchPages(api, version, { ...query, PageCount: perPage }, total <= 160 ? 10 : 4);
    const seen = new Map<string, number>();
    for (const [i, page] of pages.entries()) {
      await expect(page.response).toMatchContract({ status: 200, section: '4.1' });
      await expectWellFormedPage(page, { PageCount: perPage, PageNumber: i + 1 });
      for (const item of page.items) {
        const again = seen.get(String(item.id));
        expect(again === undefined).toHold({
          operation: op,
          operationId,
          pointer: '/*/id (pages disjoint)',
          location: `$[…].id ${item.id}`,
          expected: 'each dialog on exactly one page',
          section: '2.3',
          observed: `on page ${again} and page ${i + 1} (PageCount ${perPage})`,
        });
        seen.set(String(item.id), i + 1);
      }
      expect(page.pagination.total === total).toHold({ operation: op, operationId, pointer: '/meta/pagination/total', expected: `the same total on every page (${total})`, section: '2.3', observed: String(page.pagination.total) });
    }
    if (total <= 160) {
      expect(seen.size === total).toHold({ operation: op, operationId, pointer: '/meta/pagination/total (all pages)', expected: `total (${total}) distinct dialogs`, section: '2.3', observed: `${seen.size} over ${pages.length} pages of ${perPage}` });
    }
    const pastNumber = probe.pagination.total + 1;
    const past = await fetchPage(api, version, { ...query, PageCount: perPage, PageNumber: pastNumber });
    await expect(past.response).toMatchContract();
    // The page number itself depends on how many dialogs the target holds: only whether it is echoed is recorded.
    const currentPage = past.pagination?.current_page ?? null;
    observe(operationId, {
      id: `pagination.${version}.past-last-page`,
      section: '2.3',
      item: 'a PageNumber past the last page',
      observed: { status: past.response.status, items: past.items.length, current_page: currentPage === pastNumber ? 'the PageNumber asked for' : currentPage },
      evidence: past.response.evidence(),
    });
  });

  test(`${op} BotID filter keeps the bot's dialogs and excludes other bots'`, async ({ api, config, dialogs }) => {
    const totals = async (query: Query) => (await fetchPage(api, version, { ...query, PageCount: 1 })).pagination.total;
    const history = sampleQuery(config, config.botId);
    const all = await totals({ CreatedTo: history.CreatedTo });
    const own = await totals(history);
    const other = await totals(sampleQuery(config, config.gotoBotId));
    expect(own + other <= all && (other === 0 || own < all)).toHold({
      operation: op,
      operationId,
      pointer: 'filter BotID (totals)',
      location: '$.meta.pagination.total',
      expected: `totals of BotID ${config.botId} and ${config.gotoBotId} adding up to at most the unfiltered total`,
      section: '4.1',
      observed: `${own} + ${other} of ${all}`,
    });
    const { dialog } = await dialogs.create('v2-post');
    const id = version === 'v2' ? dialog.uuid : await dialogs.v1IdOf(dialog);
    const since = { CreatedFrom: isoUtc(dialog.createdAfter - CLOCK_SKEW_MS) };
    const underOwn = await findInList(api, version, { ...since, BotID: config.botId }, id!);
    const underOther = await findInList(api, version, { ...since, BotID: config.gotoBotId }, id!);
    expect(underOwn !== undefined && underOther === undefined).toHold({
      operation: op,
      operationId,
      pointer: 'filter BotID',
      location: `BotID filter, dialog ${id} created on bot ${config.botId}`,
      expected: `listed with BotID=${config.botId}, not with BotID=${config.gotoBotId}`,
      section: '4.1',
      observed: `with own bot: ${underOwn ? 'listed' : 'absent'}, with other bot: ${underOther ? 'listed' : 'absent'}`,
    });
  });

  test(`${op} CreatedFrom and CreatedTo include what is inside the window and exclude what is outside`, async ({ api, config, dialogs }) => {
    const { dialog } = await dialogs.create('v2-post');
    const id = version === 'v2' ? dialog.uuid : await dialogs.v1IdOf(dialog);
    const before = isoUtc(dialog.createdAfter - CLOCK_SKEW_MS);
    const after = isoUtc(Date.now() + CLOCK_SKEW_MS);
    const cases: Array<[Query, boolean]> = [
      [{ CreatedFrom: before }, true],
      [{ CreatedFrom: before, CreatedTo: after }, true],
      // A bare date a day earlier: inside the window whatever time zone the target reads it in.
      [{ CreatedFrom: isoUtc(dialog.createdAfter - 24 * 60 * MINUTE).slice(0, 10) }, true],
      [{ CreatedTo: before }, false],
      [{ CreatedFrom: after }, false],
      // The same bounds in other time zones (§4.1: "time and time zone may be added"): the same instants, so the
      // same answer; a target that drops the zone reads them hours off and answers otherwise.
      [{ CreatedFrom: zoned(dialog.createdAfter - CLOCK_SKEW_MS, 5 * 60) }, true],
      [{ CreatedTo: zoned(Date.now() + CLOCK_SKEW_MS, -5 * 60) }, true],
    ];
    for (const [window, inside] of cases) {
      const hit = await findInList(api, version, { BotID: config.botId, ...window }, id!);
      expect((hit !== undefined) === inside).toHold({
        operation: op,
        operationId,
        pointer: 'filter CreatedFrom/CreatedTo',
        location: `filter ${new URLSearchParams(window as Record<string, string>)}`,
        expected: `dialog ${id} (created between ${before} and ${after}) ${inside ? 'listed' : 'not listed'}`,
        section: '4.1',
        observed: hit ? 'listed' : 'not listed',
      });
    }
  });

  // UpdatedFrom/To filter on the respondent's last message, updated shows the last message of anyone (§2.1, §4.1):
  // only what holds for both is asserted; whether they coincide is recorded.
  test(`${op} UpdatedFrom and UpdatedTo exclude what lies outside the window`, async ({ api, config, observe }) => {
    const history = sampleQuery(config, config.botId);
    const total = async (window: Query) => (await fetchPage(api, version, { ...history, ...window, PageCount: 1 })).pagination.total;
    const all = await total({});
    const future = isoUtc(Date.now() + 24 * 60 * MINUTE);
    for (const [window, why] of [
      [{ UpdatedFrom: future }, 'nothing was updated after tomorrow'],
      [{ UpdatedTo: '2000-01-01' }, 'nothing was updated before 2000'],
    ] as const) {
      const n = await total(window);
      expect(n === 0).toHold({ operation: op, operationId, pointer: 'filter UpdatedFrom/UpdatedTo (outside)', location: `$.meta.pagination.total for ${new URLSearchParams(window)}`, expected: `0: ${why}`, section: '4.1', observed: `${n} of ${all}` });
    }
    const [page] = await fetchPages(api, version, { ...history, PageCount: 40 }, 1);
    const sample = page!.items.find((item) => item.updated !== '' && !Number.isNaN(Date.parse(item.updated)));
    test.skip(!sample, `no dialog on bot ${config.botId} with an updated time in the sample window (SAMPLE_CREATED_FROM/TO)`);
    const u = sample!.updated;
    const counts = [];
    for (const from of [shiftIso(u, -30 * 24 * 60 * MINUTE), shiftIso(u, -MINUTE), shiftIso(u, MINUTE)]) counts.push(await total({ UpdatedFrom: from }));
    expect(counts[0]! >= counts[1]! && counts[1]! >= counts[2]!).toHold({ operation: op, operationId, pointer: 'filter UpdatedFrom (monotone)', location: '$.meta.pagination.total as UpdatedFrom moves later', expected: 'never growing', section: '4.1', observed: counts.join(' → ') });
    const later = await findInList(api, version, { ...history, UpdatedFrom: shiftIso(u, MINUTE) }, sample!.id);
    expect(later === undefined).toHold({ operation: op, operationId, pointer: 'filter UpdatedFrom', location: `filter UpdatedFrom=${shiftIso(u, MINUTE)}`, expected: `dialog ${sample!.id} (last message ${u}) not listed: its respondent wrote no later`, section: '4.1', observed: 'listed' });
    const around = await findInList(api, version, { ...history, UpdatedFrom: shiftIso(u, -MINUTE), UpdatedTo: shiftIso(u, MINUTE) }, sample!.id);
    observe(operationId, {
      id: `filter.${version}.updated-matches-field`,
      section: '4.1',
      item: 'whether UpdatedFrom/UpdatedTo filter on the same time as the updated field',
      observed: around !== undefined,
    });
  });
}


/** Records of existing dialogs (with their data items, file links, deleted flags) against their list items. */
export function defineReadTests(version: Version): void {
  const op = version === 'v1' ? 'GET /v1/conversation/{id}' : 'GET /v2/conversation/{uuid}';
  const operationId = version === 'v1' ? 'getV1Conversation' : 'getV2Conversation';
  test(`${op} reads existing dialogs as documented, agreeing with their list items`, async ({ api, config, validators }) => {
    // Only documented fields: a field the vendor adds to one view is additive, not a disagreement.
    const fields = declaredProperties(validators.doc, version === 'v1' ? 'V1ConversationListItem' : 'V2ConversationListItem');
    const [page] = await fetchPages(api, version, { ...sampleQuery(config, config.botId), PageCount: 10 }, 1);
    test.skip(!page?.items.length, `no dialog on bot ${config.botId} in the sample window (SAMPLE_CREATED_FROM/TO)`);
    const read = (id: unknown) => api.call(version === 'v1' ? 'getV1Conversation' : 'getV2Conversation', { path: version === 'v1' ? { id: Number(id) } : { uuid: String(id) } });
    for (const item of page!.items) {
      const res = await read(item.id);
      await expect.soft(res).toMatchContract({ status: 200, because: `for dialog ${item.id} from the list`, section: version === 'v1' ? '4.1' : '4.2' });
      // A dialog may move between the two reads (a message, a status change): moving fields are read again first.
      let first = true;
      const reads = async (): Promise<[ListItem | undefined, Record<string, unknown> | undefined]> => {
        if (first) return (first = false), [item, res.json<Record<string, unknown>>()];
        return [await findInList(api, version, { ...sampleQuery(config, config.botId), PageCount: 40 }, item.id), (await read(item.id)).json<Record<string, unknown>>()];
      };
      const { differing, a, b } = await settledDifferences(reads, fields, sameValue);
      expect.soft(differing.length === 0).toHold({
        operation: op,
        operationId,
        status: res.status,
        pointer: `record vs list item ${differing.map((k) => `/${k}`).join(',') || '/'}`,
        location: differing.map((k) => `$.${k}`).join(', ') || '$',
        expected: `the fields of the list item of dialog ${item.id} (a record is the list item plus data, spec §2.2)`,
        section: '2.2',
        observed: differing.map((k) => `${k}: list ${JSON.stringify(a?.[k])}, record ${JSON.stringify(b?.[k])}`).join('; '),
      });
    }
  });
}
