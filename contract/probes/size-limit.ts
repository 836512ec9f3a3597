// One hidden size limit (spec §8.3, §8.4), found through the suite's client with the search and the definitions
// the k6 size-limits script uses (lib/limit-search.ts, lib/size-limits.ts), so both write the same fingerprint item.
import { runLimitSearchAsync, requestBound } from '../../lib/limit-search.ts';
import { probeVerdict, SIZE_LIMITS, sizeLimitFingerprint, type ProbeContext, type SizeLimit } from '../../lib/size-limits.ts';
import { contractValidators } from '../../openapi/validators.ts';
import type { ApiClient, ApiResponse } from '../client.ts';
import type { Observation } from '../observation.ts';

/** The shared definition of a size limit, by its fingerprint id. */
export function sizeLimit(id: string): SizeLimit {
  const found = SIZE_LIMITS.find((l) => l.id === id);
  if (!found) throw new Error(`lib/size-limits.ts defines no size limit ${id}`);
  return found;
}

/** The most requests a search over the limit's range sends. */
export const searchBound = (limit: SizeLimit) => requestBound(limit.lower, limit.upper);

/** Finds the limit; `onAccepted` sees every accepted request (a variables probe creates a dialog each time). */
export async function observeSizeLimit(api: ApiClient, limit: SizeLimit, context: ProbeContext, onAccepted: (res: ApiResponse) => void = () => {}): Promise<Observation> {
  const refused = new Map<number, ApiResponse>();
  const result = await runLimitSearchAsync(limit, async (value) => {
    const { operationId, pathParams, query, json } = limit.request(value, context);
    const res = await api.call(operationId, { path: pathParams, query, json });
    const verdict = probeVerdict(res.status);
    if (verdict === false) refused.set(value, res);
    if (verdict === true) onAccepted(res);
    return verdict;
  });
  const refusal = result.firstRejected === null ? undefined : refused.get(result.firstRejected);
  const label = contractValidators().operation(limit.operationId).label;
  const item = sizeLimitFingerprint(limit, label, result, refusal ? { status: refusal.status, contentType: refusal.contentType ?? null, body: refusal.text } : null);
  const search = `search: ${result.requests} requests (bound ${result.bound}), outcome ${result.outcome}`;
  return {
    ...item,
    evidence: refusal ? `${search}\nfirst refused value ${result.firstRejected}\n${refusal.evidence()}` : `${search}\nnothing refused up to ${limit.upper}`,
  };
}
