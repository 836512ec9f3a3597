// What the numbers of meta.pagination count (spec §2.3 shows only their names and types): each relation a vendor may
// choose, as the run saw it over the pages it walked. Recorded as the observation pagination.<version>.relations
// and compared with the baseline, so a vendor that changes what `count` means is reported, never assumed. Pure.
import type { Pagination } from './lists.ts';

/** The x-unknown item of the document's Pagination schema, word for word. */
export const PAGINATION_MEANING = 'what total, count, per_page, current_page and total_pages count';

export interface WalkedPage {
  /** Items the page holds (its index keys). */
  items: number;
  pagination: Pagination;
  asked: { PageCount: number; PageNumber: number };
}

/** The usual meaning of each number; any other reads as what was seen, from the first page it differs on. */
export const USUAL = {
  count: 'the items on the page',
  per_page: 'the PageCount asked for',
  current_page: 'the PageNumber asked for',
  total_pages: 'ceil(total / per_page)',
  total: 'the dialogs over all pages',
} as const;

type Relation = keyof typeof USUAL;

/**
 * Each relation as it held over `pages`; `distinct` is how many dialogs the pages held together, when they were all
 * walked (undefined when the list was too long to walk).
 */
export function paginationRelations(pages: readonly WalkedPage[], distinct: number | undefined): Record<Relation, string> {
  const first = <T>(f: (p: WalkedPage) => T | undefined) => pages.map(f).find((x) => x !== undefined);
  const check = (relation: Relation, holds: (p: WalkedPage) => boolean, seen: (p: WalkedPage) => string) =>
    first((p) => (holds(p) ? undefined : `${seen(p)} on page ${p.asked.PageNumber}`)) ?? USUAL[relation];
  const totals = new Set(pages.map((p) => p.pagination.total));
  const total = pages[0]?.pagination.total;
  return {
    count: check(
      'count',
      (p) => p.pagination.count === p.items,
      (p) => `count ${p.pagination.count} with ${p.items} items`,
    ),
    per_page: check(
      'per_page',
      (p) => p.pagination.per_page === p.asked.PageCount,
      (p) => `per_page ${p.pagination.per_page} for PageCount ${p.asked.PageCount}`,
    ),
    current_page: check(
      'current_page',
      (p) => p.pagination.current_page === p.asked.PageNumber,
      (p) => `current_page ${p.pagination.current_page} for PageNumber ${p.asked.PageNumber}`,
    ),
    total_pages: check(
      'total_pages',
      (p) => p.pagination.total_pages === Math.ceil(p.pagination.total / p.pagination.per_page),
      (p) => `total_pages ${p.pagination.total_pages} with total ${p.pagination.total} and per_page ${p.pagination.per_page}`,
    ),
    total:
      totals.size > 1
        ? `differs between pages (${[...totals].join(', ')})`
        : distinct === undefined
          ? 'the same on every page (the list was too long to count)'
          : total === distinct
            ? USUAL.total
            : `total ${total} with ${distinct} dialogs over all pages`,
  };
}
