// What the numbers of meta.pagination mean. §2.3 shows their names and types, and the names say what each counts;
// §4.1 says what the parameters they answer are (PageNumber "Page number", PageCount "Number of records per page").
// Every honest reading shares these: count is the number of items on the page, per_page the PageCount asked for (or
// the vendor's cap below it: the maximum is not shown, §8.3), current_page the PageNumber asked for, total and
// total_pages what a walk of all pages finds. What they are when a parameter is left out (the defaults), and which
// number the first page has, are not shown: those are observed. Pure: judged from the pages a test read.
import type { Pagination } from '../http/list-envelope.ts';
import { showValue } from '../lib/failure.ts';
import { stableStringify } from '../lib/json.ts';
import { defineCheck, type Finding } from './check.ts';

/** A list envelope split into its keys (every key but meta), its items under decimal-index keys, and meta.pagination. */
export function readEnvelope<Item = Record<string, unknown>>(
  body: Record<string, unknown>,
): { keys: string[]; items: Item[]; pagination: Pagination | undefined } {
  const keys = Object.keys(body).filter((k) => k !== 'meta');
  const indexKeys = keys.filter((k) => /^(0|[1-9]\d*)$/.test(k)).sort((a, b) => Number(a) - Number(b));
  const meta = body.meta as { pagination?: unknown } | undefined;
  const pagination = meta?.pagination && typeof meta.pagination === 'object' ? (meta.pagination as Pagination) : undefined;
  return { keys, items: indexKeys.map((k) => body[k] as Item), pagination };
}

export type PaginationField = 'count' | 'per_page' | 'current_page' | 'total_pages' | 'total';

export interface ReadPage {
  /** Items the page holds (its index keys). */
  items: number;
  pagination: Pagination;
  /** The parameters sent; a parameter left out is the vendor's default, which is observed, not judged. */
  asked: { PageCount?: number; PageNumber?: number };
}

/** One number of a page held to what its name means. `observed` is in words that stay put from run to run. */
export interface PaginationFinding {
  field: PaginationField;
  /** The PageNumber of the page it was seen on, when asked. */
  page: number | undefined;
  expected: string;
  observed: string;
  holds: boolean;
  details: Record<string, number | string | null>;
}

/** "the same", "1 more", "3 fewer": a difference in words with no value of the run but the difference itself. */
const difference = (seen: number, meant: number, unit = '') =>
  seen === meant ? 'the same' : `${Math.abs(seen - meant)}${unit} ${seen > meant ? 'more' : 'fewer'}`;

/** count, per_page and current_page of one page against the page itself and what was asked for. */
export function pageFindings(page: ReadPage): PaginationFinding[] {
  const { count, per_page: perPage, current_page: current } = page.pagination;
  const at = page.asked.PageNumber;
  const findings: PaginationFinding[] = [
    {
      field: 'count',
      page: at,
      expected: 'the number of items on the page (spec §2.3: count)',
      observed: count === page.items ? 'the items on the page' : `${difference(count, page.items)} than the items on the page`,
      holds: count === page.items,
      details: { count, items: page.items },
    },
  ];
  const asked = page.asked.PageCount;
  if (asked === undefined) {
    // The default page size is the vendor's (§4.1: not shown); a page larger than its own per_page is not.
    findings.push({
      field: 'per_page',
      page: at,
      expected: 'at least the items on the page: the records per page (spec §4.1)',
      observed: page.items <= perPage ? 'at least the items on the page' : 'fewer than the items on the page',
      holds: page.items <= perPage,
      details: { per_page: perPage, items: page.items },
    });
  } else {
    // A cap below the PageCount asked is the vendor's maximum (§8.3: not shown); more than asked is no reading of it.
    const capped = perPage < asked && perPage >= page.items && perPage > 0;
    findings.push({
      field: 'per_page',
      page: at,
      expected: 'the PageCount asked for, or the vendor\'s maximum below it with no more items than that (spec §4.1: "Number of records per page"; §8.3)',
      observed:
        perPage === asked
          ? 'the PageCount asked for'
          : capped
            ? 'a cap below the PageCount asked for'
            : `${difference(perPage, asked)} than the PageCount asked for`,
      holds: perPage === asked || capped,
      details: { per_page: perPage, PageCount: asked, items: page.items },
    });
  }
  if (at !== undefined) {
    findings.push({
      field: 'current_page',
      page: at,
      expected: 'the PageNumber asked for (spec §4.1: "Page number")',
      observed: current === at ? 'the PageNumber asked for' : `${difference(current, at)} than the PageNumber asked for`,
      holds: current === at,
      details: { current_page: current, PageNumber: at },
    });
  }
  return findings;
}

/**
 * The pages of one query read from the first page on, each with the ids it holds. Complete when the last one read
 * holds fewer items than a full page (a short or empty page ends the list).
 */
export interface Walk {
  pages: ReadonlyArray<ReadPage & { ids: readonly string[] }>;
  /** false: the walk may not start at the first page (a recording that read no page 0 beside page 1). */
  fromFirst?: boolean;
}

/**
 * How many items a full page holds: the PageCount asked for, or the vendor's cap below it (a per_page above what was
 * asked is judged wrong on its own and must not end a walk early).
 */
export const pageSize = (page: ReadPage): number => Math.min(page.asked.PageCount ?? page.pagination.per_page, page.pagination.per_page);

/** Whether a page ends the list: it holds fewer than a full page. */
export const endsList = (page: ReadPage): boolean => page.items === 0 || page.items < pageSize(page);

/** Whether the walk reached the end of the list. */
export const walkComplete = (walk: Walk): boolean => {
  const last = walk.pages[walk.pages.length - 1];
  return last !== undefined && endsList(last);
};

/**
 * total and total_pages against the walk: the same on every page, and, when the walk reached the end, the distinct
 * dialogs it found and the pages that held them. A walk that did not reach the end judges only their constancy
 * (lastPageFindings judges the rest from the last page).
 */
export function walkFindings(walk: Walk): PaginationFinding[] {
  const findings: PaginationFinding[] = [];
  const first = walk.pages[0];
  if (!first) return findings;
  for (const field of ['total', 'total_pages'] as const) {
    const other = walk.pages.find((p) => p.pagination[field] !== first.pagination[field]);
    findings.push({
      field,
      page: other?.asked.PageNumber,
      expected: `the same ${field} on every page of one query (spec §2.3)`,
      observed: other ? 'another value on a later page' : 'the same on every page',
      holds: other === undefined,
      details: { first: first.pagination[field], later: other?.pagination[field] ?? null },
    });
  }
  if (!walkComplete(walk) || walk.fromFirst === false) return findings;
  const distinct = new Set(walk.pages.flatMap((p) => p.ids)).size;
  const withItems = walk.pages.filter((p) => p.items > 0).length;
  const { total, total_pages: totalPages } = first.pagination;
  findings.push({
    field: 'total',
    page: first.asked.PageNumber,
    expected: 'the number of dialogs a walk of all pages finds (spec §2.3: total)',
    observed: total === distinct ? 'the dialogs over all pages' : `${difference(total, distinct)} than the dialogs over all pages`,
    holds: total === distinct,
    details: { total, dialogsOverAllPages: distinct, pagesRead: walk.pages.length },
  });
  // An empty list has no page with items: one empty page is as honest a count as none.
  const pagesOk = totalPages === withItems || (withItems === 0 && totalPages === 1);
  findings.push({
    field: 'total_pages',
    page: first.asked.PageNumber,
    expected: 'the number of pages a walk of all pages finds holding dialogs (spec §2.3: total_pages)',
    observed: pagesOk ? 'the pages over the list' : `${difference(totalPages, withItems)} than the pages over the list`,
    holds: pagesOk,
    details: { total_pages: totalPages, pagesHoldingDialogs: withItems, per_page: first.pagination.per_page },
  });
  return findings;
}

/**
 * For a list too long to walk: the page total_pages names holds what is left of total, and the page after it holds
 * nothing. `claimed`: the numbers of the first page; `last` and `after`: the pages numbered total_pages and one more.
 */
export function lastPageFindings(claimed: Pagination, last: ReadPage, after: ReadPage): PaginationFinding[] {
  const { total, total_pages: totalPages, per_page: perPage } = claimed;
  const left = total - (totalPages - 1) * perPage;
  const lastOk = left >= 1 && left <= perPage && last.items === left;
  return [
    {
      field: 'total_pages',
      page: last.asked.PageNumber,
      expected: 'the last page holding dialogs: after it none, on it what is left of total (spec §2.3)',
      observed: lastOk && after.items === 0 ? 'the last page holding dialogs' : after.items > 0 ? 'a page before the last' : 'not the page the list ends on',
      holds: lastOk && after.items === 0,
      details: { total, total_pages: totalPages, per_page: perPage, itemsOnThatPage: last.items, itemsOnTheNext: after.items },
    },
  ];
}

/**
 * Which PageNumber the first page has (not shown, §4.1): 0 when PageNumber 0 serves dialogs other than PageNumber
 * 1's, else 1 (0 refused, empty, or served as the first page).
 */
export function firstPageNumber(zero: { status: number; ids: readonly string[] }, one: readonly string[]): 0 | 1 {
  if (zero.status !== 200 || zero.ids.length === 0) return 1;
  return zero.ids.some((id) => one.includes(id)) ? 1 : 0;
}

/**
 * The PageCount a walk of `total` dialogs asks for: about four pages, of a size that does not divide total, so the
 * last page is short and total_pages tells ceil(total / per_page) from floor; 40 (§8.1) for a list too long to walk.
 */
export function walkPageSize(total: number): number {
  if (total > 160) return 40;
  const least = Math.max(1, Math.ceil(total / 4));
  for (let size = least; size < total; size++) if (total % size !== 0) return size;
  return least;
}

/** Findings of what the pagination numbers mean, at meta.pagination.FIELD. */
const atPagination = (findings: readonly PaginationFinding[]): Finding[] =>
  findings.map((f) => ({
    at: `/meta/pagination/${f.field}`,
    holds: f.holds,
    location: `meta.pagination.${f.field}${f.page === undefined ? '' : ` of page ${f.page}`}`,
    expected: f.expected,
    observed: showValue(f.observed),
    details: f.details,
  }));

export const itemKeys = defineCheck({
  name: 'pagination_conformance.item_keys',
  sections: ['2.3'],
  severity: 'high',
  statement: 'a list page holds its items under the decimal indexes "0", "1", ... one per item, beside meta',
  evidence: 'exchange',
  places: ['/ (item keys)'],
  judge: ({ keys }: { keys: readonly string[] }) => {
    const items = keys.filter((k) => k !== 'meta');
    const indexes = Array.from({ length: items.length }, (_, i) => String(i));
    return [
      {
        at: '/ (item keys)',
        holds: stableStringify(items) === stableStringify(indexes),
        expected: 'decimal indexes "0", "1", ... one per item',
        observed: showValue(items),
      },
    ];
  },
});

export const pageSizeKept = defineCheck({
  name: 'pagination_conformance.page_size',
  sections: ['4.1'],
  severity: 'high',
  statement: 'a page holds at most the PageCount asked for (Number of records per page)',
  evidence: 'exchange',
  places: ['/ (items on the page)'],
  judge: ({ items, PageCount }: { items: number; PageCount: number | undefined }) =>
    PageCount === undefined
      ? []
      : [
          {
            at: '/ (items on the page)',
            holds: items <= PageCount,
            expected: 'at most the PageCount asked for',
            observed: showValue(items),
            details: { PageCount },
          },
        ],
});

export const pageNumbers = defineCheck({
  name: 'pagination_conformance.page_numbers',
  sections: ['2.3', '4.1'],
  severity: 'high',
  statement: "count is the page's items, per_page the PageCount asked (or a cap below it), current_page the PageNumber asked",
  evidence: 'exchange',
  places: ['count', 'per_page', 'current_page'].map((f) => `/meta/pagination/${f}`),
  judge: (page: ReadPage) => atPagination(pageFindings(page)),
});

/** The pages of one query, each with its PageNumber and the ids it holds. */
export interface NumberedPages {
  pages: ReadonlyArray<{ number: number; ids: readonly string[] }>;
  PageCount: number;
}

export const pagesDisjoint = defineCheck({
  name: 'pagination_conformance.pages_disjoint',
  sections: ['2.3'],
  severity: 'high',
  statement: 'each dialog of a query is on exactly one of its pages',
  evidence: 'walk',
  places: ['/*/id (pages disjoint)'],
  judge: ({ pages, PageCount }: NumberedPages) => {
    const seen = new Map<string, number>();
    const out: Finding[] = [];
    for (const page of pages) {
      for (const id of page.ids) {
        const again = seen.get(id);
        out.push({
          at: '/*/id (pages disjoint)',
          holds: again === undefined,
          location: `$[…].id ${id}`,
          expected: 'each dialog on exactly one page',
          observed: showValue(again === undefined ? 'on one page' : 'on two pages'),
          details: { pages: [again ?? null, page.number], PageCount },
        });
        seen.set(id, page.number);
      }
    }
    return out;
  },
});

export const walkTotals = defineCheck({
  name: 'pagination_conformance.walk_totals',
  sections: ['2.3'],
  severity: 'high',
  statement: 'total and total_pages are the same on every page of a query and, over a whole walk, the dialogs and the pages holding them',
  evidence: 'walk',
  places: ['/meta/pagination/total', '/meta/pagination/total_pages'],
  judge: (walk: Walk) => atPagination(walkFindings(walk)),
});

export const lastPage = defineCheck({
  name: 'pagination_conformance.last_page',
  sections: ['2.3'],
  severity: 'high',
  statement: 'of a list too long to walk, the page total_pages names holds what is left of total, and the page after it none',
  evidence: 'walk',
  places: ['/meta/pagination/total_pages'],
  judge: ({ claimed, last, after }: { claimed: Pagination; last: ReadPage; after: ReadPage }) => atPagination(lastPageFindings(claimed, last, after)),
});
