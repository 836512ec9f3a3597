// The custom block's side of a test (spec §6.1, §4.3): which value of the block's call is the integration token.
// The call's shape is not shown, so several values may look like one; the one the custom-block API takes is it.
import type { ClaimedCallback } from '../target/callback-inbox.ts';
import type { ApiClient } from '../target/client.ts';
import { placeText } from '../../http/callback-request.ts';
import type { CallbackShapeObserved, CallPlace } from '../../lib/observations.ts';

/** At most this many candidates are tried against send_message (each try sends a bot message). */
export const MAX_TOKEN_CHECKS = 3;

export type TokenFound = { token: string; at: CallPlace; checked: number } | { token?: undefined; why: string };

/** The token of a claimed call: its only candidate, or the candidate send_message answers 200 for. */
export async function tokenOf(anonymousApi: ApiClient, call: ClaimedCallback): Promise<TokenFound> {
  const { candidates } = call;
  if (candidates.length === 0) {
    const fields = call.shape.fields.map(placeText).join(', ') || 'none';
    return { why: `the custom block's call carried no value that could be the token (fields: ${fields}): set CALLBACK_TOKEN_FIELD` };
  }
  if (candidates.length === 1) return { token: candidates[0]!.value, at: placeOf(candidates[0]!), checked: 0 };
  if (candidates.length > MAX_TOKEN_CHECKS) {
    const places = candidates.map(placeText).join(', ');
    return { why: `the custom block's call has ${candidates.length} values that could be the token (${places}): set CALLBACK_TOKEN_FIELD` };
  }
  for (const [i, candidate] of candidates.entries()) {
    const res = await anonymousApi.call('postVertexSendMessage', { json: { token: candidate.value, text: 'dialog-contract token check', typing: false } });
    if (res.status === 200) return { token: candidate.value, at: placeOf(candidate), checked: i + 1 };
  }
  const places = candidates.map(placeText).join(', ');
  return { why: `none of the ${candidates.length} token candidates (${places}) was taken by send_message: set CALLBACK_TOKEN_FIELD` };
}

/** The place of a candidate, without its value. */
const placeOf = ({ in: part, path, file }: CallPlace): CallPlace => ({ in: part, path, ...(file ? { file } : {}) });

/** The call as the fingerprint records it: no values, no lengths (ids differ in length from run to run). */
export function callbackObservation(call: ClaimedCallback, tokenAt: CallPlace | null): CallbackShapeObserved {
  return { method: call.shape.method, contentType: call.shape.contentType, fields: call.shape.fields.map(({ length: _length, ...field }) => field), tokenAt };
}
