// Reading list envelopes (spec §2.3): items under decimal-index keys plus meta.pagination.
import type { SuiteConfig } from '../../config/suite-config.ts';
import type { Pagination } from '../../http/list-envelope.ts';
import { readEnvelope as readEnvelopeOf } from '../../checks/pagination.ts';
import type { ApiClient, Query } from '../target/client.ts';
import type { ApiResponse } from '../core/api-response.ts';
import { matchContract, notJudged } from '../judging/matchers.ts';
import { runStartedAt } from '../core/run-records.ts';
import { REPORTS_DIR } from '../core/env.ts';
import { recordLag, settle, type Settled } from '../target/settle.ts';
import { inVendorClock, runVendorClock, type VendorClock } from '../clock/vendor-clock.ts';
import { runListPaging } from '../core/list-paging.ts';

/** A runner instant in the vendor's clock (contract/clock/vendor-clock.ts), at the early or late end of what it may read. */
export const vendorMs = (runnerMs: number, end: 'early' | 'late') => inVendorClock(runVendorClock(), runnerMs, end);

/**
 * CreatedFrom for what was created at or after `runnerMs`, in `clock`: widened by its uncertainty, by a quarter of an
 * hour when no application stamp verified it, so a search for a dialog the run created never rests on a clock it has
 * not verified.
 */
export const createdSinceIn = (clock: VendorClock) => (runnerMs: number) => isoUtc(inVendorClock(clock, runnerMs, 'early'));

/** CreatedFrom for what was created at or after `runnerMs`, in the run's vendor clock. */
export const createdSince = (runnerMs: number) => createdSinceIn(runVendorClock())(runnerMs);

export type Version = 'v1' | 'v2';

export interface ListItem {
  id: number | string;
  name: string;
  status: string;
  ip: string;
  location: string;
  updated: string;
  duration: number;
  source?: string;
  [extra: string]: unknown;
}

export interface Page {
  response: ApiResponse;
  /** Item keys in the order the body gives them. */
  keys: string[];
  items: ListItem[];
  pagination: Pagination;
}

export const listOperation = (version: Version) => (version === 'v1' ? 'getV1Conversations' : 'getV2Conversations');

/** Splits an envelope into its index keys (every key but meta), its items and meta.pagination. */
export const readEnvelope = (body: Record<string, unknown>) => readEnvelopeOf<ListItem>(body);

/** The items of a list response, whatever its status: none when the body is not an envelope. */
export function listedItems(response: ApiResponse): ListItem[] {
  const body = response.json<Record<string, unknown>>();
  return body && typeof body === 'object' ? readEnvelope(body).items.filter(Boolean) : [];
}

/**
 * A list page a test goes on reading: one it cannot read (another status, a body that is no envelope, no
 * meta.pagination) fails at the list operation with the check that names why and the query sent, never as a crash.
 */
export async function fetchPage(api: ApiClient, version: Version, query: Query): Promise<Page> {
  const response = await api.call(listOperation(version), { query });
  const sent = Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
  matchContract(response, { status: 200, because: `for a list page of ${sent.join('&') || 'no parameters'}`, section: '4.1' });
  const body = response.json<Record<string, unknown>>();
  const page = body && typeof body === 'object' && !Array.isArray(body) ? readEnvelope(body) : undefined;
  if (!page?.pagination || typeof page.pagination !== 'object') {
    notJudged(`${response.operation.label} → ${response.status}: the page has no meta.pagination (§2.3), and the check that says so is left out of this run`);
  }
  return { response, ...page, pagination: page.pagination! };
}

/**
 * Every page of a query from the first (numbered as the run found it: contract/core/list-paging.ts), up to maxPages;
 * stops at the first page with fewer items than a full page (the PageCount asked, §4.1, or the vendor's cap below
 * it), or, without one, at total_pages.
 */
export async function fetchPages(api: ApiClient, version: Version, query: Query, maxPages: number): Promise<Page[]> {
  const pages: Page[] = [];
  const asked = Number(query.PageCount);
  const { firstPage } = runListPaging();
  for (let n = 0; n < maxPages; n++) {
    const page = await fetchPage(api, version, { ...query, PageNumber: firstPage + n });
    pages.push(page);
    const full = Math.min(asked, page.pagination.per_page);
    const last = asked > 0 ? page.items.length < full : n + 1 >= (page.pagination?.total_pages ?? 0);
    if (page.items.length === 0 || last) break;
  }
  return pages;
}

/** A search's page of the run: as many records as the vendor serves, up to the 40 §8.1 observed. */
export const searchPageCount = () => runListPaging().pageSize;

/** Whether two dialog ids name one dialog: a UUID in any case (RFC 9562 compares them without regard to case). */
export const sameId = (a: unknown, b: unknown): boolean => (typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b);

/** The first list item `match` takes in the query's first pages, if any, and the page that shows it (else the last read). */
export async function searchWhere(
  api: ApiClient,
  version: Version,
  query: Query,
  match: (item: ListItem) => boolean,
  maxPages = 5,
): Promise<{ item: ListItem | undefined; response: ApiResponse }> {
  const pages = await fetchPages(api, version, { PageCount: searchPageCount(), ...query }, maxPages);
  const hit = pages.find((page) => page.items.some(match));
  return { item: hit?.items.find(match), response: (hit ?? pages[pages.length - 1]!).response };
}

/** The list item with this id in the query's first pages, if any, and the last page read (the answer that shows it). */
export const searchList = (api: ApiClient, version: Version, query: Query, id: string | number, maxPages = 5) =>
  searchWhere(api, version, query, (item) => sameId(item.id, id), maxPages);

/**
 * searchList, read again with backoff until the item shows or `settleSeconds` have passed (a list may trail its
 * store: contract/target/settle.ts); the wait is recorded for the run's lists.lag and returned for the failure to say.
 */
export async function searchSettled(api: ApiClient, version: Version, query: Query, id: string | number, settleSeconds: number, what: string) {
  const found = await settle(
    () => searchList(api, version, query, id),
    (r) => r.item !== undefined,
    settleSeconds,
  );
  // Only a wait for what must show counts towards the run's lag (a look for what must be absent does not wait).
  if (settleSeconds > 0) recordLag(REPORTS_DIR, { what, waitedMs: found.waitedMs, settled: found.settled, reads: found.reads });
  return { ...found.value, waited: waitedText(found, settleSeconds) };
}

/** How long a settled read waited, as a failure's details say it. */
export const waitedText = (found: Pick<Settled<unknown>, 'waitedMs' | 'reads' | 'settled'>, settleSeconds: number) =>
  `${(found.waitedMs / 1000).toFixed(1)} s over ${found.reads} read${found.reads === 1 ? '' : 's'}${found.settled ? '' : ` (LIST_SETTLE_S=${settleSeconds} ran out)`}`;

/** The list item with this id in the query's first pages, if any. */
export const findInList = async (api: ApiClient, version: Version, query: Query, id: string | number, maxPages = 5): Promise<ListItem | undefined> =>
  (await searchList(api, version, query, id, maxPages)).item;

/** ISO 8601 in UTC with seconds, the form the filters are sent in. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An instant in ISO 8601 with an explicit offset of `minutes` east of UTC: "2026-11-23T15:01:00+05:00". */
export function isoZoned(ms: number, minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const hhmm = `${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
  return `${isoUtc(ms + minutes * 60_000).slice(0, 19)}${sign}${hhmm}`;
}

const DAY_MS = 86_400_000;

/**
 * Dialogs of a bot from a fixed past window (SAMPLE_CREATED_FROM/TO, else 90 days to 1 day before the start of the
 * run's UTC day): what observations of existing data read. Live traffic creates and moves recent dialogs; this
 * sample holds still, so two runs read the same dialogs in the same order.
 */
export function sampleQuery(config: Pick<SuiteConfig, 'sampleCreatedFrom' | 'sampleCreatedTo'>, botId: number): Query {
  const day = Math.floor(runStartedAt() / DAY_MS) * DAY_MS;
  return { BotID: botId, CreatedFrom: config.sampleCreatedFrom ?? isoUtc(day - 90 * DAY_MS), CreatedTo: config.sampleCreatedTo ?? isoUtc(day - DAY_MS) };
}
