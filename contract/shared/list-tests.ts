// List semantics (spec §2.3, §4.1), defined once and registered for V1 and V2.
import { test, expect } from '../fixtures/api-test.ts';
import { holdEach, type Judgement } from '../judging/matchers.ts';
import { stableStringify } from '../../lib/json.ts';
import {
  createdSince,
  fetchPage,
  fetchPages,
  findInList,
  listedItems,
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
import {
  endsList,
  firstPageNumber,
  lastPageFindings,
  pageFindings,
  walkComplete,
  walkFindings,
  walkPageSize,
  type PaginationFinding,
  type ReadPage,
} from '../judging/pagination-meaning.ts';
import { dialogFieldMeanings, meaningJudgement, updatedKind } from '../judging/field-meanings.ts';
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
 * records per page), count, per_page and current_page meaning what they are called (pagination-meaning.ts), and each
 * item's fields what §2.1's words allow (field-meanings.ts).
 */
function expectWellFormedPage(page: Page, query: Query) {
  const { keys, items, response } = page;
  const relation = (
    at: string,
    section: string,
    expected: string,
    observed: unknown,
    holds: (seen: unknown) => boolean,
    details: Record<string, unknown>,
  ): Judgement => ({
    check: 'pagination_conformance',
    at,
    section,
    expected,
    observed,
    holds,
    details,
  });
  const itemKeys = keys.filter((k) => k !== 'meta');
  const indexes = Array.from({ length: itemKeys.length }, (_, i) => String(i));
  const asked = query.PageCount === undefined ? undefined : Number(query.PageCount);
  const askedPage = query.PageNumber === undefined ? undefined : Number(query.PageNumber);
  holdEach(
    response,
    relation('/ (item keys)', '2.3', 'decimal indexes "0", "1", ... one per item', itemKeys, (k) => stableStringify(k) === stableStringify(indexes), {}),
    ...(asked === undefined
      ? []
      : [relation('/ (items on the page)', '4.1', 'at most the PageCount asked for', items.length, (n) => (n as number) <= asked, { PageCount: asked })]),
    ...paginationJudgements(pageFindings({ items: items.length, pagination: page.pagination, asked: { PageCount: asked, PageNumber: askedPage } })),
    ...page.items.flatMap((item) => {
      // A message's time, empty (V2 "can be an empty string"), or a placeholder for no message yet (0001-01-01): not
      // a time past tomorrow, nor text that is no time (§2.1).
      const kind = updatedKind(item.updated, { createdMs: Date.UTC(2000, 0, 1), readMs: Date.now() + 24 * 60 * MINUTE });
      const when = kind === 'between the creation and the read' ? 'a time before tomorrow' : kind;
      return [
        {
          check: 'meaning_conformance' as const,
          at: '/*/updated',
          location: `$[…].updated of ${item.id}`,
          section: '2.1',
          expected: 'an ISO 8601 time before tomorrow, empty, or a placeholder before 2000 (Date and time of the last message)',
          observed: when,
          holds: (seen: unknown) => ['empty', 'a placeholder time', 'a time before tomorrow'].includes(seen as string),
          details: { dialog: item.id, updated: item.updated },
        },
        ...dialogFieldMeanings(item).map((m) => meaningJudgement(m, `/*/${m.field}`, { dialog: item.id, value: m.value }, `$[…].${m.field} of ${item.id}`)),
      ];
    }),
  );
}

/** Findings of what the pagination numbers mean, as judgements at meta.pagination.FIELD. */
function paginationJudgements(findings: readonly PaginationFinding[]): Judgement[] {
  return findings.map((f) => ({
    check: 'pagination_conformance',
    at: `/meta/pagination/${f.field}`,
    location: `meta.pagination.${f.field}${f.page === undefined ? '' : ` of page ${f.page}`}`,
    section: '2.3',
    expected: f.expected,
    observed: f.observed,
    holds: () => f.holds,
    details: f.details,
  }));
}

export function defineListTests(version: Version): void {
  const operationId = listOperation(version);
  const op = OPERATIONS[operationId].label;

  test(`${op} without parameters answers a well-formed first page; the defaults are recorded`, async ({ api, observe }) => {
    const page = await fetchPage(api, version, {});
    await expect(page.response).toMatchContract({ status: 200, section: '4.1' });
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
    await expect(zero).toMatchContract();
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
    const seen = new Map<string, number>();
    for (const [i, page] of pages.entries()) {
      await expect(page.response).toMatchContract({ status: 200, section: '4.1' });
      await expectWellFormedPage(page, { PageCount: perPage, PageNumber: base + i });
      for (const item of page.items) {
        const again = seen.get(String(item.id));
        expect(page.response).toHold({
          check: 'pagination_conformance',
          at: '/*/id (pages disjoint)',
          location: `$[…].id ${item.id}`,
          section: '2.3',
          expected: 'each dialog on exactly one page',
          observed: again === undefined ? 'on one page' : 'on two pages',
          equals: 'on one page',
          details: { pages: [again ?? null, base + i], PageCount: perPage },
        });
        seen.set(String(item.id), base + i);
      }
    }
    // total and total_pages against what the walk found; a list too long to walk, against its last page.
    const walk = { pages: pages.map(read) };
    holdEach(pages[0]!.response, ...paginationJudgements(walkFindings(walk)));
    const claimed = pages[0]!.pagination;
    if (!walkComplete(walk) && claimed.total_pages >= 1) {
      const lastNumber = base + claimed.total_pages - 1;
      const [last, after] = [await pageOf(lastNumber), await pageOf(lastNumber + 1)];
      holdEach(last.response, ...paginationJudgements(lastPageFindings(claimed, read(last, lastNumber - base), read(after, lastNumber + 1 - base))));
    }
    const pastNumber = base + total + 1;
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
    const total = async (query: Query) => (await fetchPage(api, version, { ...query, PageCount: 1 })).pagination.total;
    const history = sampleQuery(config, config.botId);
    const all = await total({ CreatedTo: history.CreatedTo });
    const own = await total(history);
    const otherPage = await fetchPage(api, version, { ...sampleQuery(config, config.gotoBotId), PageCount: 1 });
    const other = otherPage.pagination.total;
    const sum = own + other > all ? 'more than the unfiltered total' : other > 0 && own >= all ? 'the unfiltered total for one bot' : 'within it';
    expect(otherPage.response).toHold({
      check: 'filter_conformance',
      at: 'filter BotID (totals)',
      location: '$.meta.pagination.total',
      section: '4.1',
      expected: 'the totals of two bots adding up to at most the unfiltered total, each less than it',
      observed: sum,
      holds: (seen) => seen === 'within it',
      details: { [`BotID=${config.botId}`]: own, [`BotID=${config.gotoBotId}`]: other, unfiltered: all },
    });
    const { dialog } = await dialogs.create('v2-post');
    const id = version === 'v2' ? dialog.uuid : await dialogs.v1IdOf(dialog);
    const since = { CreatedFrom: createdSince(dialog.createdAfter) };
    // The list may trail the create: the dialog is looked for under its bot until it shows, then under the other.
    const underOwn = await searchSettled(api, version, { ...since, BotID: config.botId }, id!, config.listSettleSeconds, 'a new dialog under its bot');
    const underOther = await searchList(api, version, { ...since, BotID: config.gotoBotId }, id!);
    expect(underOther.response).toHold({
      check: 'filter_conformance',
      at: 'filter BotID',
      section: '4.1',
      observed: { ownBot: underOwn.item ? 'listed' : 'absent', otherBot: underOther.item ? 'listed' : 'absent' },
      equals: { ownBot: 'listed', otherBot: 'absent' },
      details: {
        dialog: id,
        ownBot: config.botId,
        otherBot: config.gotoBotId,
        waitedForTheList: underOwn.waited,
        ...since,
        clock: clockText(runVendorClock()),
      },
      shownBy: [underOwn.response],
    });
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
      expect(found.response).toHold({
        check: 'filter_conformance',
        at: 'filter CreatedFrom/CreatedTo',
        location: `filter ${new URLSearchParams(window as Record<string, string>)}`,
        section: '4.1',
        observed: found.item ? 'listed' : 'not listed',
        equals: inside ? 'listed' : 'not listed',
        details: { dialog: id, ...clocks },
      });
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
      expect(outside.response).toHold({
        check: 'filter_conformance',
        at: 'filter UpdatedFrom/UpdatedTo (outside)',
        location: `the items listed for ${new URLSearchParams(window)}`,
        section: '4.1',
        expected: `no dialog listed: ${why}`,
        observed: outside.items.length,
        holds: (n) => n === 0,
        details: { unfiltered: all, clock: clockText(runVendorClock()) },
      });
    }
    const [first] = await fetchPages(api, version, { ...history, PageCount: searchPageCount() }, 1);
    const sample = first!.items.find((item) => item.updated !== '' && !Number.isNaN(Date.parse(item.updated)));
    const none = `no dialog on bot ${config.botId} with an updated time in the sample window (SAMPLE_CREATED_FROM/TO)`;
    precondition(sample !== undefined, none, { observations: [`filter.${version}.updated-matches-field`] });
    const u = sample!.updated;
    const pages = [];
    for (const from of [shiftIso(u, -30 * 24 * 60 * MINUTE), shiftIso(u, -MINUTE), shiftIso(u, MINUTE)]) pages.push(await page({ UpdatedFrom: from }));
    const counts = pages.map((p) => p.pagination.total);
    expect(pages[2]!.response).toHold({
      check: 'filter_conformance',
      at: 'filter UpdatedFrom (monotone)',
      location: '$.meta.pagination.total as UpdatedFrom moves later',
      section: '4.1',
      observed: counts[0]! >= counts[1]! && counts[1]! >= counts[2]! ? 'never growing' : 'growing',
      equals: 'never growing',
      details: { totals: counts },
    });
    const later = await searchList(api, version, { ...history, UpdatedFrom: shiftIso(u, MINUTE) }, sample!.id);
    expect(later.response).toHold({
      check: 'filter_conformance',
      at: 'filter UpdatedFrom',
      location: `filter UpdatedFrom=${shiftIso(u, MINUTE)}`,
      section: '4.1',
      expected: 'the dialog not listed: its respondent wrote no later than its last message',
      observed: later.item ? 'listed' : 'not listed',
      holds: (seen) => seen === 'not listed',
      details: { dialog: sample!.id, lastMessage: u },
    });
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
      await expect.soft(res).toMatchContract({ status: 200, because: `for dialog ${item.id} from the list`, section: version === 'v1' ? '4.1' : '4.2' });
      await expectRecordMatchesListItem(api, version, query, item, res);
    }
  });
}
