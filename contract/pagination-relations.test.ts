import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paginationRelations, USUAL, type WalkedPage } from './pagination-relations.ts';

/** Pages of a list of `total` dialogs, `perPage` a page, as a Laravel-style paginator answers them. */
function walk(total: number, perPage: number, edit: (p: WalkedPage) => void = () => {}): WalkedPage[] {
  const pages = Math.ceil(total / perPage);
  return Array.from({ length: pages }, (_, i) => {
    const items = Math.min(perPage, total - i * perPage);
    const page: WalkedPage = {
      items,
      asked: { PageCount: perPage, PageNumber: i + 1 },
      pagination: { total, count: items, per_page: perPage, current_page: i + 1, total_pages: pages, links: {} },
    };
    edit(page);
    return page;
  });
}

test('a paginator of the usual kind has every usual relation', () => {
  assert.deepEqual(paginationRelations(walk(10, 3), 10), USUAL);
});

test('each changed meaning is said with what was seen, from the first page it differs on', () => {
  const r = paginationRelations(
    walk(10, 3, (p) => {
      p.pagination.count += 1;
      p.pagination.total_pages = 5;
    }),
    10,
  );
  assert.equal(r.count, 'count 4 with 3 items on page 1');
  assert.equal(r.total_pages, 'total_pages 5 with total 10 and per_page 3 on page 1');
  assert.equal(r.per_page, USUAL.per_page);
  const zeroBased = paginationRelations(
    walk(10, 3, (p) => (p.pagination.current_page -= 1)),
    10,
  );
  assert.equal(zeroBased.current_page, 'current_page 0 for PageNumber 1 on page 1');
});

test('total: against the dialogs over all pages when they were counted, else only its constancy', () => {
  assert.equal(paginationRelations(walk(10, 3), 9).total, 'total 10 with 9 dialogs over all pages');
  assert.equal(paginationRelations(walk(10, 3), undefined).total, 'the same on every page (the list was too long to count)');
  assert.equal(
    paginationRelations(
      walk(10, 3, (p) => (p.pagination.total += p.asked.PageNumber)),
      10,
    ).total,
    'differs between pages (11, 12, 13, 14)',
  );
});
