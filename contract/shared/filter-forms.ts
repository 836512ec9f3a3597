// Every documented form of a time filter (§4.1: "ISO 8601; time and time zone may be added", for CreatedFrom, CreatedTo,
// UpdatedFrom and UpdatedTo alike): a date alone and a date with a time but no zone for the Created filters, besides
// the times in Z and with an offset list-tests.ts judges them by; every form for the Updated filters. A value without a
// zone is read in a zone the spec does not name, so its window lies a day or more from the instant judged: inside or
// outside in every zone of the world (±14 h). Each answer is held to §7 first: a form the vendor cannot read is a wrong
// answer, not a missing dialog. Registered for V1 and V2 by their filter-forms spec files.
import { test } from '../fixtures/api-test.ts';
import { checkNotJudged, judge, matchContract } from '../judging/matchers.ts';
import {
  createdSince,
  fetchPages,
  isoUtc,
  isoZoned,
  listOperation,
  sampleQuery,
  searchList,
  searchPageCount,
  searchSettled,
  vendorMs,
  type Version,
} from '../api/lists.ts';
import { clockText, runVendorClock, zonedInstant } from '../clock/vendor-clock.ts';
import type { ApiClient, Query } from '../target/client.ts';
import { OPERATIONS } from '../../openapi/operations.generated.ts';

const DAY = 24 * 60 * 60_000;
/** "2026-11-24": a date alone. */
const dateOf = (ms: number) => isoUtc(ms).slice(0, 10);
/** "2026-11-24T10:00:00": a date and a time, no zone. */
const localOf = (ms: number) => isoUtc(ms).slice(0, 19);
const shown = (window: Query) => new URLSearchParams(window as Record<string, string>).toString();

export function defineFilterFormTests(version: Version): void {
  const operationId = listOperation(version);
  const op = OPERATIONS[operationId].label;

  /** The list for `query`, its first answer held to the documented 200, searched for `id`. */
  async function listedIn(api: ApiClient, query: Query, id: string | number) {
    const first = await api.call(operationId, { query });
    matchContract(first, { status: 200, because: `for ${shown(query)}`, section: '4.1' });
    return searchList(api, version, query, id);
  }

  test(`${op} CreatedFrom and CreatedTo read a date alone and a date with a time but no zone`, async ({ api, config, dialogs }) => {
    const { dialog } = await dialogs.create('v2-post');
    const id = version === 'v2' ? dialog.uuid : dialog.v1Id!;
    // The list may trail the create: read until it shows; a dialog no list shows is not a window that misses it.
    const since = { BotID: config.botId, CreatedFrom: createdSince(dialog.createdAfter) };
    const listed = await searchSettled(api, version, since, id, config.listSettleSeconds, 'a new dialog in the list');
    if (!listed.item) {
      const why = `the dialog is not in the list of bot ${config.botId} created since ${since.CreatedFrom} (waited ${listed.waited}): no window to judge by`;
      checkNotJudged(listed.response, 'filter_conformance.created_window', { pointer: 'filter CreatedFrom/CreatedTo', why });
      return;
    }
    const created = vendorMs(dialog.createdAfter, 'early');
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ CreatedFrom: dateOf(created - 2 * DAY) }, true],
      [{ CreatedFrom: dateOf(created + 2 * DAY) }, false],
      // A date alone ending the period, at its start or its end: two days on, the dialog is inside either way.
      [{ CreatedTo: dateOf(created + 2 * DAY) }, true],
      [{ CreatedTo: dateOf(created - 2 * DAY) }, false],
      [{ CreatedFrom: localOf(created - DAY) }, true],
      [{ CreatedFrom: localOf(created + DAY) }, false],
      [{ CreatedTo: localOf(created + DAY) }, true],
      [{ CreatedTo: localOf(created - DAY) }, false],
    ];
    for (const [window, inside] of cases) {
      const found = await listedIn(api, { BotID: config.botId, ...window }, id);
      judge(
        found.response,
        'filter_conformance.created_window',
        { window, inside, listed: found.item !== undefined },
        { details: { dialog: id, created: isoUtc(dialog.createdAfter), clock: clockText(runVendorClock()) } },
      );
    }
  });

  test(`${op} UpdatedFrom and UpdatedTo read every ISO 8601 form: a date alone, a time with no zone, with Z, with an offset`, async ({
    api,
    config,
    precondition,
  }) => {
    const history = sampleQuery(config, config.botId);
    // Nothing was updated two days from now, nor before 2000, in any zone of the world.
    const later = vendorMs(Date.now() + 2 * DAY, 'late');
    const outside: Record<string, string>[] = [
      { UpdatedFrom: dateOf(later) },
      { UpdatedFrom: localOf(later) },
      { UpdatedFrom: isoZoned(later, 5 * 60) },
      { UpdatedTo: '2000-01-01T00:00:00' },
      { UpdatedTo: '2000-01-01T00:00:00Z' },
      { UpdatedTo: '2000-01-01T00:00:00+05:00' },
    ];
    for (const window of outside) {
      const res = await api.call(operationId, { query: { ...history, ...window, PageCount: 1 } });
      matchContract(res, { status: 200, because: `for ${shown(window)}`, section: '4.1' });
      const items = Object.keys(res.json<Record<string, unknown>>() ?? {}).filter((k) => k !== 'meta').length;
      judge(
        res,
        'filter_conformance.updated_outside',
        { window, why: 'nothing was updated two days from now, nor before 2000', listed: items },
        { details: { clock: clockText(runVendorClock()) } },
      );
    }
    // An offset names an instant: a minute after a dialog's last message, written at -05:00, that dialog is not listed.
    const [first] = await fetchPages(api, version, { ...history, PageCount: searchPageCount() }, 1);
    const sample = first!.items.find((item) => zonedInstant(item.updated) !== undefined);
    precondition(sample !== undefined, `no dialog on bot ${config.botId} with an updated time and zone in the sample window (SAMPLE_CREATED_FROM/TO)`);
    const from = isoZoned(zonedInstant(sample!.updated)! + 60_000, -5 * 60);
    const found = await listedIn(api, { ...history, UpdatedFrom: from }, sample!.id);
    judge(found.response, 'filter_conformance.updated_after_last_message', {
      dialog: sample!.id,
      lastMessage: sample!.updated,
      from,
      listed: found.item !== undefined,
    });
  });
}
