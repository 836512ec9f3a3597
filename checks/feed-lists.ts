// Feeders of several list reads, in time order (checks/timeline.ts): the pages of one query read with no write that
// could move it between them; lists of one query told apart by BotID, or by UpdatedFrom alone; a V1 list and a V2
// list of one query; and a dialog a create made against the lists read after it, by its bot, its creation time and
// the time a list may trail a write (LIST_SETTLE_S). A list says a dialog is absent only where one page holds all its
// query matches and it was read long enough after the write. Pure.
import type { ExchangeEvidence } from './evidence.ts';
import { jsonOf } from './evidence.ts';
import { defineFeeder, type Judged, type RecordedClock } from './feeder.ts';
import { answeredAt, instantRange, num } from './feed-exchange.ts';
import { CREATES, LISTS, listItems, paginationOf, queryKey, Timeline, versionOf, wholeList, WRITES } from './timeline.ts';
import { hasZone } from './meanings.ts';
import * as dialogs from './dialogs.ts';
import * as filters from './filters.ts';
import * as pagination from './pagination.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How far apart in time an unverified vendor clock may stand from the answers' own (as the suite reads one, docs/verdict.md). */
const CLOCK_MARGIN = 15 * 60_000;

const okList = (e: ExchangeEvidence) => LISTS.includes(e.operationId!) && e.response.status === 200 && !e.probing && paginationOf(e) !== undefined;
const ids = new WeakMap<ExchangeEvidence, string[]>();
const idsOf = (e: ExchangeEvidence) => {
  if (!ids.has(e))
    ids.set(
      e,
      listItems(e).map((item) => String(item.id).toLowerCase()),
    );
  return ids.get(e)!;
};

/** When a create's answer came, in the vendor's clock, and how far either way that may be off. */
function createdAt(e: ExchangeEvidence, clock: RecordedClock | undefined): { fromMs: number; toMs: number; marginMs: number } {
  if (clock) return { fromMs: e.startedMs + clock.offsetMs, toMs: e.endedMs + clock.offsetMs, marginMs: clock.marginMs };
  return { ...answeredAt(e), marginMs: CLOCK_MARGIN };
}

/**
 * How far the recording's lists trail its creates: the longest a list holding every match of its query left a new
 * dialog out before a later one showed it (`trailed`, 0 where none ever did), and the soonest one showed a new dialog
 * (`shownWithin`); none where no list showed a dialog the recording created.
 */
const lags = new WeakMap<Timeline, ReturnType<typeof measureLag>>();
function listLag(t: Timeline, clock: RecordedClock | undefined): { trailed: number; shownWithin: number } | undefined {
  if (!lags.has(t)) lags.set(t, measureLag(t, clock));
  return lags.get(t);
}

function measureLag(t: Timeline, clock: RecordedClock | undefined): { trailed: number; shownWithin: number } | undefined {
  const trailed: number[] = [];
  const shown: number[] = [];
  // The V2 lists no Updated filter narrows, each with its place: the only ones that may show any create.
  const candidates = [...t.exchanges.entries()].filter(
    ([, e]) => versionOf(e.operationId) === 'v2' && okList(e) && e.query.UpdatedFrom === undefined && e.query.UpdatedTo === undefined,
  );
  for (const [dialog, at] of t.createOf) {
    const create = t.exchanges[at]!;
    const bot = Timeline.createdOn(create);
    const created = createdAt(create, clock);
    const reads = candidates
      .filter(([i, e]) => i > at && (e.query.BotID === undefined || e.query.BotID === bot) && ['none', 'inside'].includes(createdWindowOf(e, created)))
      .map(([, e]) => e);
    const first = reads.findIndex((e) => idsOf(e).includes(dialog));
    if (first < 0) continue;
    shown.push(reads[first]!.startedMs - create.endedMs);
    const missed = reads.slice(0, first).filter(wholeList).at(-1);
    trailed.push(missed ? missed.startedMs - create.endedMs : 0);
  }
  return shown.length ? { trailed: Math.max(...trailed), shownWithin: Math.min(...shown) } : undefined;
}

/**
 * How long after a write a list that does not show it says it is absent: twice the longest the recording's lists
 * trailed a create, and no sooner than its lists ever showed one, a fifth of a second at least; LIST_SETTLE_S where no
 * list of the recording showed a dialog it created.
 */
export function absentAfterMs(t: Timeline, settleMs: number, clock: RecordedClock | undefined): number {
  const lag = listLag(t, clock);
  return lag ? Math.max(200, 2 * lag.trailed, lag.shownWithin) : settleMs;
}

/**
 * How long after a write two lists read apart show the same state of it: as long as a list takes to say it is absent
 * where the recording shows its lists trailing a create; none where it shows none trailing, or none at all (as a
 * recording that shows no lag reads).
 */
function caughtUpAfterMs(t: Timeline, settleMs: number, clock: RecordedClock | undefined): number {
  return listLag(t, clock)?.trailed ? absentAfterMs(t, settleMs, clock) : 0;
}

/**
 * Whether a write may move what a list query lists: a create or a goto moves any; another write the Updated filters,
 * and what a page of a list longer than its page holds. The order of a list is not stated (§2.3, observed as
 * lists.order): a vendor that lists by `updated` moves a dialog a start, a stop or a message touched to another page.
 */
function mayMove(write: ExchangeEvidence, list: ExchangeEvidence): boolean {
  if (write.operationId === 'postV2ConversationCommand' || CREATES.includes(write.operationId!)) {
    const bot = list.query.BotID;
    return write.operationId === 'postV2ConversationCommand' || bot === undefined || Timeline.createdOn(write) === bot;
  }
  return list.query.UpdatedFrom !== undefined || list.query.UpdatedTo !== undefined || !wholeList(list);
}

/**
 * Groups of lists that share a key, each split where a write stands between two that may move them; a list read
 * before the lists caught up with a write that may move it (`caughtUpMs` after it) is in none: it and another read
 * later may show two states of that write.
 */
function segments(t: Timeline, key: (e: ExchangeEvidence) => string | undefined, caughtUpMs: number): ExchangeEvidence[][] {
  const groups = new Map<string, { lists: ExchangeEvidence[]; index: number[] }>();
  const writes = [...t.exchanges.entries()].filter(([, e]) => WRITES.includes(e.operationId!) && e.response.status < 300);
  const settling = (i: number, e: ExchangeEvidence) => writes.some(([w, write]) => w < i && e.startedMs - write.endedMs < caughtUpMs && mayMove(write, e));
  for (const [i, e] of t.exchanges.entries()) {
    if (!okList(e) || settling(i, e)) continue;
    const k = key(e);
    if (k === undefined) continue;
    const group = groups.get(k) ?? { lists: [], index: [] };
    group.lists.push(e);
    group.index.push(i);
    groups.set(k, group);
  }
  const out: ExchangeEvidence[][] = [];
  for (const { lists, index } of groups.values()) {
    let current: ExchangeEvidence[] = [];
    for (const [n, list] of lists.entries()) {
      const moved = n > 0 && writes.some(([w, write]) => w > index[n - 1]! && w < index[n]! && mayMove(write, list));
      if (moved) {
        out.push(current);
        current = [];
      }
      current.push(list);
    }
    out.push(current);
  }
  return out.filter((s) => s.length > 0);
}

/** The number of the page a list read: the PageNumber asked, else the page its envelope says it is (the default, not shown). */
const pageNumberOf = (e: ExchangeEvidence) => num(e.query.PageNumber) ?? (paginationOf(e)?.current_page as number | undefined);

/** The pages of one query read with no write between them: disjoint, totals over the walk, the last page and the one after. */
export const walks = defineFeeder({
  evidence: 'the pages of one query read with no write that could move it between them',
  checks: ['pagination_conformance.pages_disjoint', 'pagination_conformance.walk_totals', 'pagination_conformance.last_page'],
  feed: (t, { settleMs, clock }) => {
    const out: Judged[] = [];
    for (const reads of segments(t, (e) => `${e.operationId} ${queryKey(e)}`, caughtUpAfterMs(t, settleMs, clock))) {
      const byNumber = new Map<number, ExchangeEvidence>();
      for (const e of reads) {
        const n = pageNumberOf(e);
        if (typeof n === 'number' && !byNumber.has(n)) byNumber.set(n, e);
      }
      // Which number the first page has is not shown (§4.1): PageNumber 0 is the first page only when it serves other
      // dialogs than 1 (pagination.firstPageNumber); served as page 1, it is no page of the walk.
      const [zero, one] = [byNumber.get(0), byNumber.get(1)];
      const base = zero && one ? pagination.firstPageNumber({ status: 200, ids: idsOf(zero) }, idsOf(one)) : zero ? 0 : one ? 1 : undefined;
      if (base === 1) byNumber.delete(0);
      if (byNumber.size < 2) continue;
      const pages = [...byNumber.keys()].sort((a, b) => a - b).map((number) => ({ number, e: byNumber.get(number)! }));
      // A total that moved between the pages says writes the recording does not hold moved the list (another client's,
      // a live system's): its pages are two states of the list, no one walk. The suite's own walk (its sample window)
      // still holds a total to its pages.
      if (new Set(pages.map((p) => total(p.e))).size > 1) continue;
      const last = pages.at(-1)!.e;
      const PageCount = num(last.query.PageCount) ?? 0;
      out.push({
        check: pagination.pagesDisjoint,
        findings: pagination.pagesDisjoint.judge({ pages: pages.map((p) => ({ number: p.number, ids: idsOf(p.e) })), PageCount }),
        at: last,
        shownBy: pages.slice(0, -1).map((p) => p.e),
      });
      const read = (p: { number: number; e: ExchangeEvidence }) => {
        const envelope = pagination.readEnvelope(jsonOf(p.e) as Record<string, unknown>);
        return envelope.pagination
          ? {
              items: envelope.items.length,
              pagination: envelope.pagination,
              asked: { PageCount: num(p.e.query.PageCount), PageNumber: p.number },
              ids: idsOf(p.e),
            }
          : undefined;
      };
      // Totals over the pages from the first on, none missing between; a walk whose first page is not known holds
      // only their constancy.
      const walked = pages.filter((p, i) => p.number === pages[0]!.number + i);
      const walk = { pages: walked.flatMap((p) => read(p) ?? []) };
      if (walk.pages.length >= 2)
        out.push({
          check: pagination.walkTotals,
          findings: pagination.walkTotals.judge({ ...walk, fromFirst: base !== undefined && walked[0]!.number === base }),
          at: walked[0]!.e,
        });
      // The page total_pages names and a page after it (the first read past it: every page after the last is empty).
      const claimed = read(pages[0]!)?.pagination;
      const lastNumber = typeof claimed?.total_pages === 'number' && base !== undefined ? claimed.total_pages - 1 + base : undefined;
      const [lastPage, after] = [pages.find((p) => p.number === lastNumber), pages.find((p) => lastNumber !== undefined && p.number > lastNumber)];
      const [lastRead, afterRead] = [lastPage && read(lastPage), after && read(after)];
      if (claimed && lastRead && afterRead)
        out.push({
          check: pagination.lastPage,
          findings: pagination.lastPage.judge({ claimed, last: lastRead, after: afterRead }),
          at: after!.e,
          shownBy: [lastPage!.e],
        });
    }
    return out;
  },
});

const total = (e: ExchangeEvidence) => paginationOf(e)?.total as number | undefined;

/** Lists of one query but BotID: two bots' totals within the unfiltered one; lists of one query but UpdatedFrom: never growing as it moves later. */
export const filterTotals = defineFeeder({
  evidence: 'a walk of lists of one query told apart by BotID alone, or by UpdatedFrom alone, with no write between',
  checks: ['filter_conformance.bot_totals', 'filter_conformance.updated_monotone'],
  feed: (t, { settleMs, clock }) => {
    const out: Judged[] = [];
    const caughtUp = caughtUpAfterMs(t, settleMs, clock);
    for (const group of segments(t, (e) => `${e.operationId} ${queryKey(e, ['BotID', 'PageNumber', 'PageCount'])}`, caughtUp)) {
      const unfiltered = group.find((e) => e.query.BotID === undefined);
      const bots = [...new Map(group.filter((e) => e.query.BotID !== undefined).map((e) => [e.query.BotID!, e])).values()];
      if (!unfiltered || bots.length < 2 || total(unfiltered) === undefined) continue;
      const [own, other] = bots as [ExchangeEvidence, ExchangeEvidence];
      if (total(own) === undefined || total(other) === undefined) continue;
      const input = {
        own: total(own)!,
        other: total(other)!,
        unfiltered: total(unfiltered)!,
        bots: [Number(own.query.BotID), Number(other.query.BotID)] as [number, number],
      };
      out.push({ check: filters.botTotals, findings: filters.botTotals.judge(input), at: other, shownBy: [own, unfiltered] });
    }
    // Read within seconds of each other: a respondent's message between them (no write of the recording) is unlikely.
    const byUpdatedFrom = (e: ExchangeEvidence) =>
      e.query.UpdatedFrom === undefined ? undefined : `${e.operationId} ${queryKey(e, ['UpdatedFrom', 'PageNumber'])}`;
    for (const group of segments(t, byUpdatedFrom, caughtUp)) {
      const timed = group
        .filter(
          (e) =>
            total(e) !== undefined &&
            instantRange(e.query.UpdatedFrom!) !== undefined &&
            hasZone(e.query.UpdatedFrom!) === hasZone(group[0]!.query.UpdatedFrom!),
        )
        .filter((e) => e.startedMs - group[0]!.startedMs < 10_000);
      const byFrom = [...new Map(timed.map((e) => [instantRange(e.query.UpdatedFrom!)!.earliest, e])).entries()].sort(([a], [b]) => a - b);
      if (byFrom.length < 2) continue;
      const totals = byFrom.map(([, e]) => total(e)!);
      out.push({
        check: filters.updatedMonotone,
        findings: filters.updatedMonotone.judge({ totals }),
        at: byFrom.at(-1)![1],
        shownBy: byFrom.slice(0, -1).map(([, e]) => e),
      });
    }
    return out;
  },
});

/** The same query read by V1 and by V2 with no write between, each whole: V1 lists the dialogs V2 lists. */
export const versionLists = defineFeeder({
  evidence: 'a V1 list and a V2 list of one query, each on one page, with no write between',
  checks: ['versions_agree.same_dialogs'],
  feed: (t, { settleMs, clock }) =>
    segments(t, (e) => queryKey(e, []), caughtUpAfterMs(t, settleMs, clock)).flatMap((group): Judged[] => {
      const v1 = group.find((e) => versionOf(e.operationId) === 'v1' && wholeList(e));
      const v2 = group.find((e) => versionOf(e.operationId) === 'v2' && wholeList(e) && listItems(e).length > 0);
      if (!v1 || !v2) return [];
      const key = (item: Record<string, unknown>) => [JSON.stringify(item.name ?? null), JSON.stringify([item.ip ?? null, item.location ?? null])];
      const v1Keys = new Set(listItems(v1).flatMap(key));
      const pairs = listItems(v2).filter((item) => key(item).some((k) => v1Keys.has(k))).length;
      const input = { pairs, v1Items: listItems(v1).length, v2Items: listItems(v2).length };
      return [{ check: dialogs.versionsListSameDialogs, findings: dialogs.versionsListSameDialogs.judge(input), at: v1, comparedWith: v2 }];
    }),
});

/**
 * Whether a dialog created within `created` (in the vendor's clock) is surely inside, surely outside, or neither, of a
 * list's Created window: a bound with its zone by the clock's margin, a zone-less one by a day (in some zone of the world).
 */
function createdWindowOf(e: ExchangeEvidence, created: { fromMs: number; toMs: number; marginMs: number }): 'inside' | 'outside' | 'unknown' | 'none' {
  const { CreatedFrom: from, CreatedTo: to } = e.query;
  if (from === undefined && to === undefined) return 'none';
  const [f, u] = [from === undefined ? undefined : instantRange(from), to === undefined ? undefined : instantRange(to)];
  if ((from !== undefined && !f) || (to !== undefined && !u)) return 'unknown';
  // The vendor stamps a creation in whole seconds (its filters too): its stamp lies between the second the earliest
  // reading starts and the latest reading; a zone-less bound names its instant only within a day.
  const zoneless = (iso: string | undefined) => (iso !== undefined && !hasZone(iso) ? DAY : 0);
  const [early, late] = [Math.floor((created.fromMs - created.marginMs) / 1000) * 1000, created.toMs + created.marginMs];
  if ((f && late < f.earliest - zoneless(from)) || (u && early > u.latest + zoneless(to))) return 'outside';
  if ((!f || early >= f.latest + zoneless(from)) && (!u || late <= u.earliest - zoneless(to))) return 'inside';
  return 'unknown';
}

/**
 * A dialog a create named, against the lists read after it and before it moved: listed under its bot (and never under
 * another), inside a Created window around its creation and never inside one far from it, and shown at all once a
 * list that holds every match of its query was read long enough after it.
 */
export const createdThenListed = defineFeeder({
  evidence: 'a write and the reads after it: a create, and the lists read after it by bot and creation time',
  checks: ['filter_conformance.bot_id', 'filter_conformance.created_window', 'created_dialog_identified.listed'],
  feed: (t, { settleMs, clock }) => {
    const out: Judged[] = [];
    const absentAfter = absentAfterMs(t, settleMs, clock);
    const allLists = [...t.exchanges.entries()].filter(([, e]) => okList(e));
    for (const [dialog, at] of t.createOf) {
      const create = t.exchanges[at]!;
      const bot = Timeline.createdOn(create);
      const moved = t.writesOn(dialog).find((w) => w > at && t.exchanges[w]!.operationId === 'postV2ConversationCommand') ?? Number.POSITIVE_INFINITY;
      const v1 = t.v1Of(dialog);
      // Lists answered before the goto began: one answered while it ran may show the dialog where it went.
      const moving = Number.isFinite(moved) ? t.exchanges[moved]!.startedMs : Number.POSITIVE_INFINITY;
      const lists = allLists.filter(([i, e]) => i > at && i < moved && e.endedMs <= moving).map(([, e]) => e);
      const shows = (e: ExchangeEvidence) => (versionOf(e.operationId) === 'v2' ? idsOf(e).includes(dialog) : v1 !== undefined && idsOf(e).includes(v1));
      const created = createdAt(create, clock);
      // A list that holds every match of its query, read long enough after the create, or after another list already
      // showed the dialog (the lists had caught up with it): one not showing it says it is absent.
      const caughtUp = lists.find(shows);
      const settledWhole = (e: ExchangeEvidence) =>
        wholeList(e) && (e.startedMs - create.endedMs >= absentAfter || (caughtUp !== undefined && caughtUp.startedMs < e.startedMs));
      const plain = (e: ExchangeEvidence) => e.query.UpdatedFrom === undefined && e.query.UpdatedTo === undefined;
      // BotID: listed under its own bot, never under another (§4.1 "Bot identifier").
      const own = lists.filter((e) => e.query.BotID === bot && shows(e));
      const other = lists.filter((e) => e.query.BotID !== undefined && e.query.BotID !== bot);
      const otherShows = other.filter(shows);
      if (bot !== undefined && ((own.length && other.length) || otherShows.length)) {
        const at = otherShows[0] ?? other[0]!;
        out.push({
          check: filters.botFilter,
          findings: filters.botFilter.judge({ ownBot: own.length > 0, otherBot: otherShows.length > 0 }),
          at,
          shownBy: [create, ...own.slice(0, 1)],
        });
      }
      // CreatedFrom/CreatedTo: a window surely around its creation lists it (where the list would show it: its bot or
      // none, every match on the page, read long enough after), one surely away from it does not. A window is to
      // blame for leaving it out only where its version's lists show it elsewhere: a dialog none of them ever showed
      // is not listed at all (below).
      const ownBot = (e: ExchangeEvidence) => plain(e) && (e.query.BotID === undefined || e.query.BotID === bot);
      const shownBy = {
        v1: lists.some((e) => versionOf(e.operationId) === 'v1' && shows(e)),
        v2: lists.some((e) => versionOf(e.operationId) === 'v2' && shows(e)),
      };
      for (const e of lists) {
        const where = createdWindowOf(e, created);
        const listed = shows(e);
        const leftOut = shownBy[versionOf(e.operationId)] && ownBot(e) && settledWhole(e);
        if (!((where === 'outside' && listed) || (where === 'inside' && (listed || leftOut)))) continue;
        const window = Object.fromEntries(['CreatedFrom', 'CreatedTo'].flatMap((k) => (e.query[k] === undefined ? [] : [[k, e.query[k]!]])));
        out.push({
          check: filters.createdWindow,
          findings: filters.createdWindow.judge({ window, inside: where === 'inside', listed }),
          at: e,
          shownBy: [create],
        });
      }
      // Shown at all: by the first list of its bot (or none) that shows it, or not by one that says it is absent.
      const fits = (e: ExchangeEvidence, windows: readonly string[]) =>
        versionOf(e.operationId) === 'v2' && ownBot(e) && windows.includes(createdWindowOf(e, created));
      const shown = lists.find((e) => fits(e, ['none', 'inside']) && shows(e));
      const missing = lists.find((e) => fits(e, ['none', 'inside']) && settledWhole(e) && !shows(e));
      const judged = shown ?? missing;
      if (judged)
        out.push({ check: dialogs.createdListed, findings: dialogs.createdListed.judge({ listed: judged === shown }), at: judged, shownBy: [create] });
    }
    return out;
  },
});
