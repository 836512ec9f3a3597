// V1 and V2 are two views of the same dialogs (spec §1.6): only the identifier and source differ by design (§2.1),
// every other field a record has in both versions must read the same (§2.2).
import { holdEach, notJudged } from '../judging/matchers.ts';
import { declaredProperties, loadDocument } from '../../openapi/document.ts';
import type { ApiClient } from '../target/client.ts';
import { readV1, readV2, type DialogRead, type DialogRecord } from './requests.ts';
import { sameValue, settledDifferences } from './settled-reads.ts';
import type { Dialog, DialogFactory } from './dialog-factory.ts';

/** Fields both record schemas declare, but the id. */
function sharedFields(): string[] {
  const v1 = declaredProperties(loadDocument(), 'V1ConversationRecord');
  return declaredProperties(loadDocument(), 'V2ConversationRecord').filter((f) => f !== 'id' && v1.includes(f));
}

/**
 * Reads one dialog by its V1 id and its UUID and fails softly, one failure per field, where the two differ: the V1
 * answer held against the V2 one (versions_agree). V2 may give "" where V1 has a time (observed for in-process
 * dialogs, §2.1). A dialog that moves (a started one publishes at once) is read again before a moving field is called
 * different. `first`: the two reads, when already made.
 */
export async function expectVersionsAgree(api: ApiClient, v1Id: number, uuid: string, first?: [DialogRead, DialogRead]): Promise<void> {
  // Reads the caller already made are the first pair compared; only a moving field is read again.
  let pair = first;
  let last: [DialogRead, DialogRead] | undefined;
  const reads = async (): Promise<[DialogRecord | undefined, DialogRecord | undefined]> => {
    last = pair ?? [await readV1(api, v1Id), await readV2(api, uuid)];
    pair = undefined;
    return [last[0].record, last[1].record];
  };
  const agree = (field: string, a: unknown, b: unknown) => sameValue(field, a, b) || (field === 'updated' && b === '');
  const fields = sharedFields();
  const { differing, a, b } = await settledDifferences(reads, fields, agree);
  const [v1, v2] = last!;
  holdEach(
    v1.response,
    ...fields.map((field) => ({
      check: 'versions_agree' as const,
      against: v2.response,
      at: `/${field}`,
      location: `/${field} of dialog ${v1Id} / ${uuid}`,
      section: '2.2',
      expected: 'the same value in both versions of one dialog',
      observed: differing.includes(field) ? 'different values' : 'the same value',
      holds: (seen: unknown) => seen === 'the same value',
      details: { v1: a?.[field], v2: b?.[field] },
    })),
  );
}

/**
 * V1 reads a dialog of the run as V2 does (`v2`: the V2 read just made), by its V1 id: known, or found by its twin
 * under the bot it is on now, then under any bot. With no twin found the agreement is not judged, with why: the run
 * cannot read V1 to compare.
 */
export async function expectDialogVersionsAgree(api: ApiClient, dialogs: DialogFactory, dialog: Dialog, v2: DialogRead): Promise<void> {
  const v1Id = await dialogs.v1IdOf(dialog);
  if (v1Id === undefined) {
    const why = `no V1 list item with its V2 record's name, ip and location under bot ${dialog.botId} or any bot: no V1 read to compare`;
    notJudged(v2.response, { check: 'versions_agree', pointer: '/ (every field)', section: '2.2', why });
    return;
  }
  await expectVersionsAgree(api, v1Id, dialog.uuid, [await dialogs.read(dialog, 'v1'), v2]);
}
