// V1 and V2 are two views of the same dialogs (spec §1.6): only the identifier and source differ by design (§2.1),
// every other field a record has in both versions must read the same (§2.2).
import { holdEach } from '../judging/matchers.ts';
import { declaredProperties, loadDocument } from '../../openapi/document.ts';
import type { ApiClient } from '../target/client.ts';
import { readV1, readV2, type DialogRead, type DialogRecord } from './requests.ts';
import { sameValue, settledDifferences } from './settled-reads.ts';

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
