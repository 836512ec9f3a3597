// The custom block's side of a test (spec §6.1, §4.3): which value of the block's call is the integration token.
// The call's shape is not shown, so several values may look like one; the one the custom-block API takes is it.
import type { ClaimedCallback } from './callback-inbox.ts';
import type { ApiClient } from './client.ts';

/** At most this many candidates are tried against send_message (each try sends a bot message). */
export const MAX_TOKEN_CHECKS = 3;

export type TokenFound = { token: string; at: string; checked: number } | { token?: undefined; why: string };

/** The token of a claimed call: its only candidate, or the candidate send_message answers 200 for. */
export async function tokenOf(anonymousApi: ApiClient, call: ClaimedCallback): Promise<TokenFound> {
  const { candidates } = call;
  if (candidates.length === 0) {
    return { why: `the custom block's call carried no value that could be the token (fields: ${call.shape.fields.map((f) => f.at).join(', ') || 'none'}): set CALLBACK_TOKEN_FIELD` };
  }
  if (candidates.length === 1) return { token: candidates[0]!.value, at: candidates[0]!.at, checked: 0 };
  if (candidates.length > MAX_TOKEN_CHECKS) {
    return { why: `the custom block's call has ${candidates.length} values that could be the token (${candidates.map((c) => c.at).join(', ')}): set CALLBACK_TOKEN_FIELD` };
  }
  for (const [i, candidate] of candidates.entries()) {
    const res = await anonymousApi.call('postVertexSendMessage', { json: { token: candidate.value, text: 'dialog-contract token check', typing: false } });
    if (res.status === 200) return { token: candidate.value, at: candidate.at, checked: i + 1 };
  }
  return { why: `none of the ${candidates.length} token candidates (${candidates.map((c) => c.at).join(', ')}) was taken by send_message: set CALLBACK_TOKEN_FIELD` };
}

/** The call as the fingerprint records it: no values, no lengths (ids differ in length from run to run). */
export function callbackObservation(call: ClaimedCallback, tokenAt: string | null) {
  return { method: call.shape.method, contentType: call.shape.contentType, fields: call.shape.fields.map((f) => `${f.at}: ${f.type}`), tokenAt };
}
