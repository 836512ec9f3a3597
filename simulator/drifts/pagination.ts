// Breaking drifts on the list envelope and its paging (spec §2.3, §4.1).
import { bodyOf, ignoreQuery, LIST_OPS, paginationOf, type Drift } from './types.ts';

export const PAGINATION_DRIFTS: Drift[] = [
  {
    name: 'total-pages-wrong',
    kind: 'breaking',
    clause: '§2.3 total_pages of meta.pagination',
    description: 'total_pages is one more than ceil(total / per_page)',
    transformResponse: (ex, reply) => {
      const p = paginationOf(ex, reply);
      if (p) p.total_pages = Number(p.total_pages) + 1;
      return reply;
    },
  },
  {
    name: 'list-keys-from-1',
    kind: 'breaking',
    clause: '§2.3 list items are under the keys "0", "1", ...',
    description: 'list items are keyed from "1" instead of "0"',
    transformResponse: (ex, reply) => {
      const body = bodyOf(ex, reply, [...LIST_OPS]);
      if (!body) return reply;
      const { meta, ...items } = body;
      const shifted: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(items)) shifted[String(Number(key) + 1)] = value;
      return { ...reply, json: { ...shifted, meta } };
    },
  },
  {
    name: 'list-count-mismatch',
    kind: 'breaking',
    clause: '§2.3 count of meta.pagination is the number of items on the page',
    description: 'count is one more than the items on the page',
    transformResponse: (ex, reply) => {
      const p = paginationOf(ex, reply);
      if (p) p.count = Number(p.count) + 1;
      return reply;
    },
  },
  {
    name: 'meta-missing',
    kind: 'breaking',
    clause: '§2.3 a list response has one key meta',
    description: 'list responses have no meta key',
    transformResponse: (ex, reply) => {
      const body = bodyOf(ex, reply, [...LIST_OPS]);
      if (body) delete body.meta;
      return reply;
    },
  },
  {
    name: 'pagination-string-numbers',
    kind: 'breaking',
    clause: '§2.3 total, count, per_page, current_page, total_pages are integers',
    description: 'the numbers of meta.pagination are sent as strings',
    transformResponse: (ex, reply) => {
      const p = paginationOf(ex, reply);
      if (p) for (const key of ['total', 'count', 'per_page', 'current_page', 'total_pages']) p[key] = String(p[key]);
      return reply;
    },
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
