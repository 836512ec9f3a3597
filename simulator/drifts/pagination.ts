// Breaking drifts on the list envelope and its paging (spec §2.3, §4.1).
import { editBody, editPagination, ignoreQuery, LIST_IDS, type Drift } from './types.ts';

/** A number of meta.pagination off from what its name counts (§2.3) by `delta`: breaking at that number. */
const numberOff = (field: string, delta: number, name: string, description: string): Drift => ({
  name,
  kind: 'breaking',
  clause: `§2.3 ${field} counts what its name says`,
  description,
  breaks: [{ operations: LIST_IDS, at: [`/meta/pagination/${field}`] }],
  transformResponse: editPagination((p) => (p[field] = Number(p[field]) + delta)),
});

export const PAGINATION_DRIFTS: Drift[] = [
  numberOff('total_pages', 1, 'total-pages-off-by-one', 'total_pages is one more than the pages that hold dialogs'),
  numberOff('total', 1, 'list-total-off-by-one', 'total counts one dialog more than the pages hold'),
  numberOff('count', 1, 'count-means-something-else', 'count is one more than the items on the page'),
  numberOff('current_page', -1, 'current-page-off-by-one', 'current_page is one less than the PageNumber asked for'),
  numberOff('per_page', 1, 'per-page-off-by-one', 'per_page is one more than the PageCount asked for'),
  {
    name: 'total-pages-floor',
    kind: 'breaking',
    clause: '§2.3 total_pages counts the pages',
    description: 'total_pages is floor(total / per_page): a last page short of a full one is not counted',
    breaks: [{ operations: LIST_IDS, at: ['/meta/pagination/total_pages'] }],
    transformResponse: editPagination((p) => (p.total_pages = Math.floor(Number(p.total) / Number(p.per_page)))),
  },
  {
    name: 'list-keys-from-1',
    kind: 'breaking',
    clause: '§2.3 list items are under the keys "0", "1", ...',
    description: 'list items are keyed from "1" instead of "0"',
    breaks: [{ operations: LIST_IDS, at: ['/'] }],
    transformResponse: editBody(LIST_IDS, (body) => {
      const { meta, ...items } = body;
      for (const key of Object.keys(body)) delete body[key];
      for (const [key, value] of Object.entries(items)) body[String(Number(key) + 1)] = value;
      body.meta = meta;
    }),
  },
  {
    name: 'meta-missing',
    kind: 'breaking',
    clause: '§2.3 a list response has one key meta',
    description: 'list responses have no meta key',
    breaks: [{ operations: LIST_IDS, at: ['/meta'] }],
    transformResponse: editBody(LIST_IDS, (body) => delete body.meta),
  },
  {
    name: 'pagination-string-numbers',
    kind: 'breaking',
    clause: '§2.3 total, count, per_page, current_page, total_pages are integers',
    description: 'the numbers of meta.pagination are sent as strings',
    breaks: [{ operations: LIST_IDS, at: ['total', 'count', 'per_page', 'current_page', 'total_pages'].map((field) => `/meta/pagination/${field}`) }],
    transformResponse: editPagination((p) => {
      for (const key of ['total', 'count', 'per_page', 'current_page', 'total_pages']) p[key] = String(p[key]);
    }),
  },
  {
    name: 'page-count-ignored',
    kind: 'breaking',
    clause: '§4.1 PageCount is the number of records per page',
    description: 'PageCount is ignored: pages always hold the default count',
    breaks: [{ operations: LIST_IDS, at: ['/ (items on the page)'] }],
    beforeRequest: ignoreQuery('PageCount'),
  },
  {
    name: 'page-number-ignored',
    kind: 'breaking',
    clause: '§4.1 PageNumber is the page number',
    description: 'PageNumber is ignored: every request gets the first page',
    breaks: [{ operations: LIST_IDS, at: ['/*/id'] }],
    beforeRequest: ignoreQuery('PageNumber'),
  },
  {
    name: 'pages-overlap',
    kind: 'breaking',
    clause: '§2.3, §4.1 PageNumber pages through the list: each dialog on one page',
    description: 'every page after the first starts one item early, repeating the last item of the page before',
    breaks: [{ operations: LIST_IDS, at: ['/*/id'] }],
    pageOffset: (offset, _perPage, page) => (page > 1 ? offset - 1 : offset),
  },
  {
    name: 'page-item-repeated',
    kind: 'breaking',
    clause: '§2.3 the items of a page are distinct dialogs',
    description: 'a page lists its first dialog a second time in place of its second one',
    breaks: [{ operations: LIST_IDS, at: ['/*/id'] }],
    transformResponse: editBody(LIST_IDS, (body) => {
      if (body['0'] !== undefined && body['1'] !== undefined) body['1'] = body['0'];
    }),
  },
  {
    name: 'links-missing',
    kind: 'breaking',
    clause: '§2.3 meta.pagination has links (an object)',
    description: 'meta.pagination has no links',
    breaks: [{ operations: LIST_IDS, at: ['/meta/pagination/links'] }],
    transformResponse: editPagination((p) => delete p.links),
  },
];
