// Breaking drifts on the list envelope and its paging (spec §2.3, §4.1).
import { editBody, editPagination, ignoreQuery, LIST_OPS, type Drift } from './types.ts';

export const PAGINATION_DRIFTS: Drift[] = [
  {
    name: 'total-pages-wrong',
    kind: 'breaking',
    clause: '§2.3 total_pages of meta.pagination',
    description: 'total_pages is one more than ceil(total / per_page)',
    transformResponse: editPagination((p) => (p.total_pages = Number(p.total_pages) + 1)),
  },
  {
    name: 'list-keys-from-1',
    kind: 'breaking',
    clause: '§2.3 list items are under the keys "0", "1", ...',
    description: 'list items are keyed from "1" instead of "0"',
    transformResponse: editBody([...LIST_OPS], (body) => {
      const { meta, ...items } = body;
      for (const key of Object.keys(body)) delete body[key];
      for (const [key, value] of Object.entries(items)) body[String(Number(key) + 1)] = value;
      body.meta = meta;
    }),
  },
  {
    name: 'list-count-mismatch',
    kind: 'breaking',
    clause: '§2.3 count of meta.pagination is the number of items on the page',
    description: 'count is one more than the items on the page',
    transformResponse: editPagination((p) => (p.count = Number(p.count) + 1)),
  },
  {
    name: 'meta-missing',
    kind: 'breaking',
    clause: '§2.3 a list response has one key meta',
    description: 'list responses have no meta key',
    transformResponse: editBody([...LIST_OPS], (body) => delete body.meta),
  },
  {
    name: 'pagination-string-numbers',
    kind: 'breaking',
    clause: '§2.3 total, count, per_page, current_page, total_pages are integers',
    description: 'the numbers of meta.pagination are sent as strings',
    transformResponse: editPagination((p) => {
      for (const key of ['total', 'count', 'per_page', 'current_page', 'total_pages']) p[key] = String(p[key]);
    }),
  },
  {
    name: 'page-count-ignored',
    kind: 'breaking',
    clause: '§4.1 PageCount is the number of records per page',
    description: 'PageCount is ignored: pages always hold the default count',
    beforeRequest: ignoreQuery('PageCount'),
  },
  {
    name: 'page-number-ignored',
    kind: 'breaking',
    clause: '§4.1 PageNumber is the page number',
    description: 'PageNumber is ignored: every request gets the first page',
    beforeRequest: ignoreQuery('PageNumber'),
  },
];
