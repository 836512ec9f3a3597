// V1 and V2 are two views of the same dialogs (spec §1.6): only the identifier and source differ by design (§2.1),
// every other field a record has in both versions must read the same (§2.2).
import { expect } from './matchers.ts';
import { declaredProperties, loadDocument } from '../openapi/document.ts';
import type { ApiClient } from './client.ts';
import { readV1, readV2, type DialogRecord } from './requests.ts';
import { sameValue, settledDifferences } from './settled-reads.ts';

/**
 * How a failure names the comparison of the two reads. The version drifts of the simulator declare the same label
 * (they cannot import it); the mutation run counts a version drift as detected only where a failure names it.
 */
const VERSIONS_AGREE = 'GET /v1/conversation/{id} vs GET /v2/conversation/{uuid}';

/** Fields both record schemas declare, but the id. */
function sharedFields(): string[] {
  const v1 = declaredProperties(loadDocument(), 'V1ConversationRecord');
  return declaredProperties(loadDocument(), 'V2ConversationRecord').filter((f) => f !== 'id' && v1.includes(f));
}

/**
 * Reads one dialog by its V1 id and its UUID and fails softly, one failure per field, where the two differ. V2 may
 * give "" where V1 has a time (observed for in-process dialogs, §2.1). A dialog that moves (a started one publishes
 * at once) is read again before a moving field is called different. `first`: the two records, when already read.
 */
export async function expectVersionsAgree(api: ApiClient, v1Id: number, uuid: string, first?: [DialogRecord | undefined, DialogRecord | undefined]): Promise<void> {
  // Reads the caller already made are the first pair compared; only a moving field is read again.
  let given = first;
  const reads = async (): Promise<[DialogRecord | undefined, DialogRecord | undefined]> => {
    if (given) {
      const pair = given;
      given = undefined;
      return pair;
    }
    return [(await readV1(api, v1Id)).record, (await readV2(api, uuid)).record];
  };
  const agree = (field: string, a: unknown, b: unknown) => sameValue(field, a, b) || (field === 'updated' && b === '');
  const { differing, a, b } = await settledDifferences(reads, sharedFields(), agree);
  for (const field of differing) {
    expect.soft(false).toHold({
      operation: VERSIONS_AGREE,
      pointer: `/${field}`,
      location: `/${field} of dialog ${v1Id} / ${uuid}`,
      expected: 'the same value in both versions of one dialog',
      section: '2.2',
      observed: `V1 ${JSON.stringify(a?.[field])?.slice(0, 120)}, V2 ${JSON.stringify(b?.[field])?.slice(0, 120)}`,
    });
  }
}
