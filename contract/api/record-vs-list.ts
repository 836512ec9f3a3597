// A record is its list item plus data (spec §2.2): every field the document declares for the list item reads the same
// in the record of one dialog. A dialog may move between the two reads (a message, a status change): a moving field is
// read again before it is called different (settled-reads.ts); right after a write, the list may trail the record
// (§4.1: consistency not shown), and both are read again with backoff for LIST_SETTLE_S at most.
import { declaredProperties, loadDocument } from '../../openapi/document.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { ApiClient, Query } from '../target/client.ts';
import { createdSince, findInList, searchPageCount, searchSettled, type ListItem, type Version } from './lists.ts';
import { checkNotJudged, judgeSoft } from '../judging/matchers.ts';
import { sameValue } from '../../checks/dialogs.ts';
import type { Dialog } from './dialog-factory.ts';
import type { DialogRead } from './requests.ts';
import { settledDifferences } from './settled-reads.ts';
import { settle } from '../target/settle.ts';

/**
 * Holds the record `res` of the dialog listed as `item` (by `query`) to that item, one soft failure per field, at the
 * record's operation: "record vs list item /FIELD".
 */
export async function expectRecordMatchesListItem(
  api: ApiClient,
  version: Version,
  query: Query,
  item: ListItem,
  res: ApiResponse,
  settleSeconds = 0,
): Promise<void> {
  // Only documented fields: a field the vendor adds to one view is additive, not a disagreement.
  const fields = declaredProperties(loadDocument(), version === 'v1' ? 'V1ConversationListItem' : 'V2ConversationListItem');
  const read = () => api.call(res.operationId, { path: version === 'v1' ? { id: Number(item.id) } : { uuid: String(item.id) } });
  let first = true;
  const reads = async (): Promise<[ListItem | undefined, Record<string, unknown> | undefined]> => {
    if (first) {
      first = false;
      return [item, res.json<Record<string, unknown>>()];
    }
    return [await findInList(api, version, { ...query, PageCount: searchPageCount() }, item.id), (await read()).json<Record<string, unknown>>()];
  };
  const agree = ([a, b]: [ListItem | undefined, Record<string, unknown> | undefined]) => fields.every((f) => sameValue(f, a?.[f], b?.[f]));
  const { a, b } =
    settleSeconds > 0 ? await settle(reads, agree, settleSeconds).then(({ value: [a, b] }) => ({ a, b })) : await settledDifferences(reads, fields, sameValue);
  judgeSoft(res, 'record_matches_list_item', { fields, dialog: item.id, a, b });
}

/**
 * A dialog of the run held to its V2 list item (§2.2), looked for under the bot it is on now among those created since
 * it was, read until it shows or LIST_SETTLE_S. A dialog no list shows is a lookup that failed, not a record that
 * differs: not judged, with why.
 */
export async function expectDialogMatchesListItem(api: ApiClient, dialog: Dialog, read: DialogRead, settleSeconds: number, what: string): Promise<void> {
  const query = { BotID: dialog.botId, CreatedFrom: createdSince(dialog.createdAfter) };
  const listed = await searchSettled(api, 'v2', query, dialog.uuid, settleSeconds, what);
  if (listed.item) return expectRecordMatchesListItem(api, 'v2', query, listed.item, read.response, settleSeconds);
  const why = `not in the V2 list of bot ${dialog.botId} created since ${query.CreatedFrom} (waited ${listed.waited}): no list item to compare`;
  checkNotJudged(read.response, 'record_matches_list_item', { pointer: 'record vs list item', why });
}
