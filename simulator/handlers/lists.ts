// GET /v1/conversations and GET /v2/conversations (spec §2.3, §4.1, §4.2). Order: config.lists.order (default
// newest first, i.e. V1 id descending). total_pages = ceil(total / per_page), so 0 when nothing matches; a page
// past the end has count 0 and the same meta. Pages are cached per store revision: a list is a pure function of
// the store and the query, and this is the hot path of the load tests.
import { JSON_TYPE, type Exchange, type Reply } from '../exchange.ts';
import { pageSize } from '../limits.ts';
import { parseFilterDate, parseInteger, parsePositive } from '../params.ts';
import type { Simulation } from '../simulation.ts';
import type { ApiVersion, ListQuery } from '../store.ts';
import type { Handler } from './types.ts';

const CACHE_ENTRIES = 256;

export function listHandler(sim: Simulation, api: ApiVersion): Handler {
  let cachedRevision = -1;
  const cache = new Map<string, Buffer>();
  return (ex: Exchange): Reply => {
    const { filter, page, perPage } = parseListQuery(sim, ex.query);
    // Trailing lists change with the clock, not only with the store: nothing to cache.
    if (sim.config.lists.lagMs > 0) return { status: 200, raw: Buffer.from(renderPage(sim, api, filter, page, perPage)), contentType: JSON_TYPE };
    const key = `${page}|${perPage}|${filter.botId}|${filter.createdFrom}|${filter.createdTo}|${filter.updatedFrom}|${filter.updatedTo}`;
    if (cachedRevision !== sim.store.revision || cache.size >= CACHE_ENTRIES) {
      cache.clear();
      cachedRevision = sim.store.revision;
    }
    let body = cache.get(key);
    if (!body) {
      body = Buffer.from(renderPage(sim, api, filter, page, perPage));
      cache.set(key, body);
    }
    return { status: 200, raw: body, contentType: JSON_TYPE };
  };
}

function parseListQuery(sim: Simulation, query: URLSearchParams): { filter: ListQuery; page: number; perPage: number } {
  const { lists, limits } = sim.config;
  const text = (name: string) => query.get(name) ?? undefined;
  const botId = text('BotID');
  const pageNumber = text('PageNumber');
  const pageCount = text('PageCount');
  const dates = (['CreatedFrom', 'CreatedTo', 'UpdatedFrom', 'UpdatedTo'] as const).map((name) => {
    const value = text(name);
    return value === undefined ? undefined : parseFilterDate(value, name.endsWith('To'), 400, name);
  });
  const perPage = pageSize(limits.maxPageCount, pageCount === undefined ? lists.defaultPageCount : parsePositive(pageCount, 400, 'PageCount'));
  return {
    filter: {
      botId: botId === undefined ? undefined : parseInteger(botId, 400, 'BotID'),
      createdFrom: dates[0],
      createdTo: dates[1],
      updatedFrom: dates[2],
      updatedTo: dates[3],
    },
    page: pageNumber === undefined ? lists.defaultPageNumber : parsePositive(pageNumber, 400, 'PageNumber'),
    perPage,
  };
}

function renderPage(sim: Simulation, api: ApiVersion, filter: ListQuery, page: number, perPage: number): string {
  const offset = sim.pageOffset(page, perPage);
  const { total, items } = sim.store.page(filter, offset, perPage);
  const parts = items.map((dialog, i) => `"${i}":${sim.store.renderItem(dialog, api)}`);
  const meta = {
    pagination: {
      total,
      count: items.length,
      per_page: perPage,
      current_page: page,
      total_pages: Math.ceil(total / perPage),
      links: {},
    },
  };
  parts.push(`"meta":${JSON.stringify(meta)}`);
  return `{${parts.join(',')}}`;
}
