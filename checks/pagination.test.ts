import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endsList, firstPageNumber, lastPageFindings, pageFindings, walkComplete, walkFindings, walkPageSize, type ReadPage, type Walk } from './pagination.ts';

/** The pages of a list of `total` dialogs, `perPage` a page, as a Laravel-style paginator answers them. */
function list(total: number, perPage: number, edit: (p: ReadPage) => void = () => {}): Walk {
  const count = Math.max(1, Math.ceil(total / perPage));
  const pages = Array.from({ length: count }, (_, i) => {
    const items = Math.max(0, Math.min(perPage, total - i * perPage));
    const page: ReadPage & { ids: string[] } = {
      items,
      asked: { PageCount: perPage, PageNumber: i + 1 },
      pagination: { total, count: items, per_page: perPage, current_page: i + 1, total_pages: Math.ceil(total / perPage), links: {} },
      ids: Array.from({ length: items }, (_, k) => `d${i * perPage + k}`),
    };
    edit(page);
    return page;
  });
  // A list that fills its last page is walked one page further, to the empty page that ends it.
  if (total % perPage === 0 && total > 0) {
    pages.push({
      ...pages[0]!,
      items: 0,
      ids: [],
      asked: { PageCount: perPage, PageNumber: count + 1 },
      pagination: { ...pages[0]!.pagination, count: 0, current_page: count + 1 },
    });
  }
  return { pages };
}

const failing = (findings: ReturnType<typeof pageFindings>) => findings.filter((f) => !f.holds).map((f) => `${f.field}: ${f.observed}`);

test('a paginator whose numbers mean what they are called passes every finding', () => {
  for (const [total, perPage] of [
    [10, 3],
    [12, 3],
    [2, 1],
    [0, 5],
  ] as const) {
    const walk = list(total, perPage);
    assert.ok(walkComplete(walk), `${total}/${perPage} walked to the end`);
    assert.deepEqual(failing([...walk.pages.flatMap(pageFindings), ...walkFindings(walk)]), [], `${total}/${perPage}`);
  }
});

test('each number off by one fails at that number, in words that hold still from run to run', () => {
  const off = (field: 'count' | 'per_page' | 'current_page' | 'total_pages' | 'total', delta: number) => {
    const walk = list(10, 3, (p) => (p.pagination[field] += delta));
    return failing([...walk.pages.flatMap(pageFindings), ...walkFindings(walk)]);
  };
  assert.deepEqual([...new Set(off('count', 1))], ['count: 1 more than the items on the page']);
  assert.deepEqual([...new Set(off('current_page', -1))], ['current_page: 1 fewer than the PageNumber asked for']);
  assert.deepEqual([...new Set(off('per_page', 1))], ['per_page: 1 more than the PageCount asked for']);
  assert.deepEqual(off('total_pages', 1), ['total_pages: 1 more than the pages over the list']);
  assert.deepEqual(off('total', 5), ['total: 5 more than the dialogs over all pages']);
});

test("a cap below the PageCount asked is the vendor's maximum, not a drift; a page larger than it is", () => {
  const capped: ReadPage = {
    items: 20,
    asked: { PageCount: 30, PageNumber: 1 },
    pagination: { total: 50, count: 20, per_page: 20, current_page: 1, total_pages: 3, links: {} },
  };
  assert.deepEqual(failing(pageFindings(capped)), []);
  assert.equal(endsList(capped), false, 'a full capped page does not end the list');
  assert.deepEqual(failing(pageFindings({ ...capped, items: 25, pagination: { ...capped.pagination, count: 25 } })), [
    'per_page: 10 fewer than the PageCount asked for',
  ]);
});

test('without parameters only what the page itself shows is judged (the defaults are observed)', () => {
  const page: ReadPage = { items: 40, asked: {}, pagination: { total: 90, count: 40, per_page: 40, current_page: 1, total_pages: 3, links: {} } };
  assert.deepEqual(
    pageFindings(page).map((f) => f.field),
    ['count', 'per_page'],
  );
  assert.deepEqual(failing(pageFindings({ ...page, pagination: { ...page.pagination, per_page: 20 } })), ['per_page: fewer than the items on the page']);
});

test('a walk that ended early judges only constancy; the last page then judges total and total_pages', () => {
  const walk = list(100, 10);
  const early = { pages: walk.pages.slice(0, 3) };
  assert.equal(walkComplete(early), false);
  assert.deepEqual(
    walkFindings(early).map((f) => f.field),
    ['total', 'total_pages'],
  );
  const claimed = walk.pages[0]!.pagination;
  const last = walk.pages[9]!;
  const empty: ReadPage = { items: 0, asked: { PageCount: 10, PageNumber: 11 }, pagination: { ...claimed, count: 0, current_page: 11 } };
  assert.deepEqual(failing(lastPageFindings(claimed, last, empty)), []);
  assert.deepEqual(failing(lastPageFindings({ ...claimed, total: 105, total_pages: 11 }, { ...empty, asked: { PageCount: 10, PageNumber: 11 } }, empty)), [
    'total_pages: not the page the list ends on',
  ]);
  assert.deepEqual(failing(lastPageFindings({ ...claimed, total_pages: 9 }, walk.pages[8]!, last)), ['total_pages: a page before the last']);
  const drifting = list(30, 10, (p) => (p.pagination.total += p.asked.PageNumber ?? 0));
  assert.deepEqual(failing(walkFindings({ pages: drifting.pages.slice(0, 2) })), ['total: another value on a later page']);
});

test('the first page is PageNumber 0 only when 0 serves other dialogs than 1', () => {
  assert.equal(firstPageNumber({ status: 400, ids: [] }, ['a']), 1);
  assert.equal(firstPageNumber({ status: 200, ids: [] }, ['a']), 1);
  assert.equal(firstPageNumber({ status: 200, ids: ['a', 'b'] }, ['a', 'b']), 1);
  assert.equal(firstPageNumber({ status: 200, ids: ['x', 'y'] }, ['a', 'b']), 0);
});

test('a walk asks for about four pages of a size that leaves the last one short', () => {
  assert.equal(walkPageSize(48), 13, '12 divides 48: floor and ceil of total / per_page would agree');
  assert.equal(walkPageSize(50), 13);
  assert.equal(walkPageSize(3), 2);
  assert.equal(walkPageSize(2), 1, 'no size below 2 leaves a remainder');
  assert.equal(walkPageSize(500), 40);
  const floorDrift = list(48, walkPageSize(48), (p) => (p.pagination.total_pages = Math.floor(48 / p.pagination.per_page)));
  assert.deepEqual(failing(walkFindings(floorDrift)), ['total_pages: 1 fewer than the pages over the list']);
});
