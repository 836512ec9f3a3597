// List semantics (spec §2.3, §4.1), defined once and registered for V1 and V2.
import { test } from '../fixtures/api-test.ts';
import { judge, judgeSoft, matchContract } from '../judging/matchers.ts';
import {
  createdSince,
  fetchPage,
  fetchPages,
  findInList,
  listedItems,
  readEnvelope,
  listOperation,
  sampleQuery,
  searchList,
  searchPageCount,
  searchSettled,
  isoUtc,
  isoZoned,
  vendorMs,
} from '../api/lists.ts';
import { clockText, runVendorClock } from '../clock/vendor-clock.ts';
import type { ListItem, Page, Version } from '../api/lists.ts';
import type { Query } from '../target/client.ts';
import { OPERATIONS } from '../../openapi/operations.generated.ts';
import { endsList, firstPageNumber, walkComplete, walkPageSize, type ReadPage } from '../../checks/pagination.ts';
import { expectRecordMatchesListItem } from '../api/record-vs-list.ts';

const MINUTE = 60_000;

/** Moves an ISO 8601 timestamp by `deltaMs`, keeping its style (an offset-less time stays offset-less). */
export function shiftIso(value: string, deltaMs: number): string {
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
  const ms = Date.parse(hasOffset ? value : `${value.replace(' ', 'T')}Z`) + deltaMs;
  return hasOffset ? isoUtc(ms) : isoUtc(ms).replace(/Z$/, '');
}

/**
 * One page as documented: item keys "0", "1", ... (spec §2.3), at most the PageCount asked for (§4.1: the number of
 * records per page), count, per_page and current_page meaning what they are called, and each item's fields what
 * §2.1's words allow.
 */
function expectWellFormedPage(page: Page, query: Query) {
  const { keys, items, response } = page;
  const asked = query.PageCount === undefined ? undefined : Number(query.PageCount);
  const askedPage = query.PageNumber === undefined ? undefined : Number(query.PageNumber);
  judgeSoft(response, 'pagination_conformance.item_keys', { keys });
  judgeSoft(response, 'pagination_conformance.page_size', { items: items.length, PageCount: asked });
  judgeSoft(response, 'pagination_conformance.page_numbers', {
    items: items.length,
    pagination: page.pagination,
    asked: { PageCount: asked, PageNumber: askedPage },
  });
  const readMs = Date.now();
  for (const item of items) {
    judgeSoft(response, 'meaning_conformance.listed_updated', { id: item.id, updated: item.updated, readMs });
    for (const name of ['meaning_conformance.ip', 'meaning_conformance.location', 'meaning_conformance.duration'] as const) {
      judgeSoft(response, name, { dialog: item, in: 'list item' });
    }
  }
}

export function defineListTests(version: Version): void {
  const operationId = listOperation(version);
  const op = OPERATIONS[operationId].label;

  test(`${op} without parameters answers a well-formed first page; the defaults are recorded`, async ({ api, observe }) => {
    const page = await fetchPage(api, version, {});
    matchContract(page.response, { status: 200, section: '4.1' });
    await expectWellFormedPage(page, {});
    observe(operationId, {
      id: `default.${version}.PageNumber`,
      section: '4.1',
      item: 'default PageNumber',
      observed: page.pagination.current_page,
      evidence: page.response.evidence(),
    });
    observe(operationId, {
      id: `default.${version}.PageCount`,
      section: '4.1',
      item: 'default PageCount (per_page)',
      observed: page.pagination.per_page,
      evidence: page.response.evidence(),
    });
    observe(operationId, {
      id: `links.${version}`,
      section: '2.3',
      item: 'meta.pagination.links',
      observed: page.pagination.links,
      evidence: page.response.evidence(),
    });
  });

  test(`${op} honours PageNumber and PageCount: pages are disjoint; total, count, per_page, current_page and total_pages mean what they are called`, async ({
    api,
    config,
    observe,
    precondition,
  }) => {
    const query = sampleQuery(config, config.botId);
    const probe = await fetchPage(api, version, { ...query, PageCount: 1 });
    const total = probe.pagination.total;
    const few = `the target has fewer than 2 dialogs on bot ${config.botId} in the sample window (SAMPLE_CREATED_FROM/TO): pagination cannot be observed`;
    precondition(total >= 2, few, { observations: [`pagination.${version}.past-last-page`, `pagination.${version}.first-page`] });
    // About four pages over the whole window when it is small; the first pages only when it is large. Never more
    // than 40 a page: the page size observed in the spec (§8.1), so a vendor whose maximum is lower than what the
    // suite asks (not shown, §8.3: it may cap) is not taken for one that ignores PageCount.
    const perPage = walkPageSize(total);
    const pageOf = (PageNumber: number) => fetchPage(api, version, { ...query, PageCount: perPage, PageNumber });
    // Which number the first page has is not shown (§4.1): PageNumber 0 serving other dialogs than 1 makes it 0.
    const one = await pageOf(1);
    const zero = await api.call(operationId, { query: { ...query, PageCount: perPage, PageNumber: 0 } });
    matchContract(zero);
    const idsOf = (items: readonly ListItem[]) => items.map((item) => String(item.id));
    const base = firstPageNumber({ status: zero.status, ids: idsOf(listedItems(zero)) }, idsOf(one.items));
    observe(operationId, {
      id: `pagination.${version}.first-page`,
      section: '4.1',
      item: 'the PageNumber of the first page',
      observed: base,
      evidence: zero.evidence(),
    });
    // The walk: from the first page until a page holds fewer than its per_page, at most 10 pages.
    const read = (page: Page, i: number): ReadPage & { ids: string[] } => ({
      items: page.items.length,
      pagination: page.pagination,
      asked: { PageCount: perPage, PageNumber: base + i },
      ids: idsOf(page.items),
    });
    const pages: Page[] = [];
    for (let n = base; n < base + 10; n++) {
      const page = n === 1 ? one : await pageOf(n);
      pages.push(page);
      if (endsList(read(page, n - base))) break;
    }
    for (const [i, page] of pages.entries()) {
      matchContract(page.response, { status: 200, section: '4.1' });
      await expectWellFormedPage(page, { PageCount: perPage, PageNumber: base + i });
    }
    const numbered = pages.map((p, n) => ({ number: base + n, ids: idsOf(p.items) }));
    judge(pages[pages.length - 1]!.response, 'pagination_conformance.pages_disjoint', { pages: numbered, PageCount: perPage });
    // total and total_pages against what the walk found; a list too long to walk, against its last page.
    const walk = { pages: pages.map(read) };
    judgeSoft(pages[0]!.response, 'pagination_conformance.walk_totals', walk);
    const claimed = pages[0]!.pagination;
    if (!walkComplete(walk) && claimed.total_pages >= 1) {
      const lastNumber = base + claimed.total_pages - 1;
      const [last, after] = [await pageOf(lastNumber), await pageOf(lastNumber + 1)];
      judgeSoft(last.response, 'pagination_conformance.last_page', { claimed, last: read(last, lastNumber - base), after: read(after, lastNumber + 1 - base) });
    }
    const pastNumber = base + total + 1;
    // What a page past the last answers is not described: any status the document lists, recorded.
    const past = await api.call(operationId, { query: { ...query, PageCount: perPage, PageNumber: pastNumber } });
    matchContract(past);
    // The page number itself depends on how many dialogs the target holds: only whether it is echoed is recorded.
    const body = past.json<Record<string, unknown>>();
    const currentPage = (body && typeof body === 'object' ? readEnvelope(body).pagination?.current_page : undefined) ?? null;
    observe(operationId, {
      id: `pagination.${version}.past-last-page`,
      section: '2.3',
      item: 'a PageNumber past the last page',
      observed: { status: past.status, items: listedItems(past).length, current_page: currentPage === pastNumber ? 'the PageNumber asked for' : currentPage },
      evidence: past.evidence(),
    });
  });

  test(`${op} BotID filter keeps the bot's dialogs and excludes other bots'`, async ({ api, config, dialogs }) => {
    const total = async (query: Query) => (await fetchPage(api, version, { ...query, PageCount: 1 })).pagination.total;
    const history = sampleQuery(config, config.botId);
    const all = await total({ CreatedTo: history.CreatedTo });
    const own = await total(history);
    const otherPage = await fetchPage(api, version, { ...sampleQuery(config, config.gotoBotId), PageCount: 1 });
    const other = otherPage.pagination.total;
    judge(otherPage.response, 'filter_conformance.bot_totals', { own, other, unfiltered: all, bots: [config.botId, config.gotoBotId] });
    const { dialog } = await dialogs.create('v2-post');
    const id = version === 'v2' ? dialog.uuid : await dialogs.v1IdOf(dialog);
    const since = { CreatedFrom: createdSince(dialog.createdAfter) };
    // The list may trail the create: the dialog is looked for under its bot until it shows, then under the other.
    const underOwn = await searchSettled(api, version, { ...since, BotID: config.botId }, id!, config.listSettleSeconds, 'a new dialog under its bot');
    const underOther = await searchList(api, version, { ...since, BotID: config.gotoBotId }, id!);
    judge(
      underOther.response,
      'filter_conformance.bot_id',
      { ownBot: underOwn.item !== undefined, otherBot: underOther.item !== undefined },
      {
        details: {
          dialog: id,
          ownBot: config.botId,
          otherBot: config.gotoBotId,
          waitedForTheList: underOwn.waited,
          ...since,
          clock: clockText(runVendorClock()),
        },
        shownBy: [underOwn.response],
      },
    );
  });

  test(`${op} CreatedFrom and CreatedTo include what is inside the window and exclude what is outside`, async ({ api, config, dialogs }) => {
    const { dialog } = await dialogs.create('v2-post');
    const id = version === 'v2' ? dialog.uuid : await dialogs.v1IdOf(dialog);
    // The list may trail the create: it is read until the dialog shows, then each window is asked once.
    const listed = await searchSettled(
      api,
      version,
      { BotID: config.botId, CreatedFrom: createdSince(dialog.createdAfter) },
      id!,
      config.listSettleSeconds,
      'a new dialog in the list',
    );
    // Windows in the vendor's clock (its stamps are what the filters compare), widened by how well it is known.
    const [early, late] = [vendorMs(dialog.createdAfter, 'early'), vendorMs(Date.now(), 'late')];
    const [before, after] = [isoUtc(early), isoUtc(late)];
    const clocks = {
      runner: `created between ${isoUtc(dialog.createdAfter)} and ${isoUtc(Date.now())}`,
      clock: clockText(runVendorClock()),
      windowSent: `${before} to ${after}`,
      waitedForTheList: listed.waited,
    };
    const cases: Array<[Query, boolean]> = [
      [{ CreatedFrom: before }, true],
      [{ CreatedFrom: before, CreatedTo: after }, true],
      // A bare date a day earlier: inside the window whatever time zone the target reads it in.
      [{ CreatedFrom: isoUtc(dialog.createdAfter - 24 * 60 * MINUTE).slice(0, 10) }, true],
      [{ CreatedTo: before }, false],
      [{ CreatedFrom: after }, false],
      // The same bounds in other time zones (§4.1: "time and time zone may be added"): the same instants, so the
      // same answer; a target that drops the zone reads them hours off and answers otherwise.
      [{ CreatedFrom: isoZoned(early, 5 * 60) }, true],
      [{ CreatedTo: isoZoned(late, -5 * 60) }, true],
    ];
    for (const [window, inside] of cases) {
      const found = await searchList(api, version, { BotID: config.botId, ...window }, id!);
      const sent = Object.fromEntries(Object.entries(window).map(([k, v]) => [k, String(v)]));
      judge(
        found.response,
        'filter_conformance.created_window',
        { window: sent, inside, listed: found.item !== undefined },
        { details: { dialog: id, ...clocks } },
      );
    }
  });

  // UpdatedFrom/To filter on the respondent's last message, updated shows the last message of anyone (§2.1, §4.1):
  // only what holds for both is asserted; whether they coincide is recorded.
  test(`${op} UpdatedFrom and UpdatedTo exclude what lies outside the window`, async ({ api, config, observe, precondition }) => {
    const history = sampleQuery(config, config.botId);
    const page = (window: Query) => fetchPage(api, version, { ...history, ...window, PageCount: 1 });
    const all = (await page({})).pagination.total;
    // Tomorrow in the vendor's clock (its stamps are what the filters compare).
    const future = isoUtc(vendorMs(Date.now() + 24 * 60 * MINUTE, 'late'));
    for (const [window, why] of [
      [{ UpdatedFrom: future }, 'nothing was updated after tomorrow'],
      [{ UpdatedTo: '2000-01-01' }, 'nothing was updated before 2000'],
    ] as const) {
      const outside = await page(window);
      // Judged by what is listed: what total counts is not stated (§2.3).
      // Soft: the filters below are read whatever this one did (one drift must not hide what the test goes on to see).
      judgeSoft(
        outside.response,
        'filter_conformance.updated_outside',
        { window, why, listed: outside.items.length },
        { details: { unfiltered: all, clock: clockText(runVendorClock()) } },
      );
    }
    const [first] = await fetchPages(api, version, { ...history, PageCount: searchPageCount() }, 1);
    const sample = first!.items.find((item) => item.updated !== '' && !Number.isNaN(Date.parse(item.updated)));
    const none = `no dialog on bot ${config.botId} with an updated time in the sample window (SAMPLE_CREATED_FROM/TO)`;
    precondition(sample !== undefined, none, { observations: [`filter.${version}.updated-matches-field`] });
    const u = sample!.updated;
    const pages = [];
    for (const from of [shiftIso(u, -30 * 24 * 60 * MINUTE), shiftIso(u, -MINUTE), shiftIso(u, MINUTE)]) pages.push(await page({ UpdatedFrom: from }));
    judgeSoft(pages[2]!.response, 'filter_conformance.updated_monotone', { totals: pages.map((p) => p.pagination.total) });
    const from = shiftIso(u, MINUTE);
    const later = await searchList(api, version, { ...history, UpdatedFrom: from }, sample!.id);
    judge(later.response, 'filter_conformance.updated_after_last_message', { dialog: sample!.id, lastMessage: u, from, listed: later.item !== undefined });
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
  const operationId = version === 'v1' ? 'getV1Conversation' : 'getV2Conversation';
  const op = OPERATIONS[operationId].label;
  test(`${op} reads existing dialogs as documented, agreeing with their list items`, async ({ api, config, precondition }) => {
    const query = sampleQuery(config, config.botId);
    const [page] = await fetchPages(api, version, { ...query, PageCount: 10 }, 1);
    precondition(Boolean(page?.items.length), `no dialog on bot ${config.botId} in the sample window (SAMPLE_CREATED_FROM/TO)`);
    for (const item of page!.items) {
      const res = await api.call(operationId, { path: version === 'v1' ? { id: Number(item.id) } : { uuid: String(item.id) } });
      matchContract(res, { status: 200, because: `for dialog ${item.id} from the list`, section: version === 'v1' ? '4.1' : '4.2' }, true);
      await expectRecordMatchesListItem(api, version, query, item, res);
    }
  });
}
