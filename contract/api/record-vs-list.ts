// A record is its list item plus data (spec §2.2): every field the document declares for the list item reads the same
// in the record of one dialog. A dialog may move between the two reads (a message, a status change): a moving field is
// read again before it is called different (settled-reads.ts); right after a write, the list may trail the record
// (§4.1: consistency not shown), and both are read again with backoff for LIST_SETTLE_S at most.
import { declaredProperties, loadDocument } from '../../openapi/document.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { ApiClient, Query } from '../target/client.ts';
import { findInList, searchPageCount, type ListItem, type Version } from './lists.ts';
import { holdEach, type Judgement } from '../judging/matchers.ts';
import { sameValue, settledDifferences } from './settled-reads.ts';
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
  const { differing, a, b } =
    settleSeconds > 0
      ? await settle(reads, agree, settleSeconds).then(({ value: [a, b] }) => ({ differing: fields.filter((f) => !sameValue(f, a?.[f], b?.[f])), a, b }))
      : await settledDifferences(reads, fields, sameValue);
  holdEach(
    res,
    ...fields.map(
      (field): Judgement => ({
        check: 'record_matches_list_item',
        at: `record vs list item /${field}`,
        location: `$.${field}`,
        section: '2.2',
        expected: 'the field of the list item (a record is the list item plus data, spec §2.2)',
        observed: differing.includes(field) ? 'another value' : 'the same value',
        holds: (seen) => seen === 'the same value',
        details: { dialog: item.id, list: a?.[field], record: b?.[field] },
      }),
    ),
  );
}
