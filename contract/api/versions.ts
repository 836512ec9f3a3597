// V1 and V2 are two views of the same dialogs (spec §1.6): only the identifier and source differ by design (§2.1),
// every other field a record has in both versions must read the same (§2.2).
import { checkNotJudged, judgeSoft } from '../judging/matchers.ts';
import { versionsAgreeOn } from '../../checks/dialogs.ts';
import { declaredProperties, loadDocument } from '../../openapi/document.ts';
import type { ApiClient } from '../target/client.ts';
import { readV1, readV2, type DialogRead, type DialogRecord } from './requests.ts';
import { settledDifferences } from './settled-reads.ts';
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
  const fields = sharedFields();
  const { a, b } = await settledDifferences(reads, fields, versionsAgreeOn);
  const [v1, v2] = last!;
  judgeSoft(v1.response, 'versions_agree', { fields, dialog: `${v1Id} / ${uuid}`, a, b }, { against: v2.response });
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
    checkNotJudged(v2.response, 'versions_agree', { pointer: '/ (every field)', why });
    return;
  }
  await expectVersionsAgree(api, v1Id, dialog.uuid, [await dialogs.read(dialog, 'v1'), v2]);
}
