// One hidden size limit (spec §8.3, §8.4), found through the suite's client with the very search and definitions
// the k6 size-limits script runs (discovery/size-limits.ts), so both write the same fingerprint item. The client waits
// out throttling itself; the search's own waits only serve k6.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { driveAsync } from '../../discovery/drive.ts';
import { requestBound } from '../../discovery/limit-search.ts';
import { SIZE_LIMITS, sizeLimitFingerprint, sizeLimitSearch, type ProbeContext, type SizeLimit } from '../../discovery/size-limits.ts';
import { contractValidators } from '../../openapi/validators.ts';
import type { ApiClient } from '../target/client.ts';
import type { ApiResponse } from '../core/api-response.ts';
import type { Observation } from '../core/observation.ts';
import { REPORTS_DIR } from '../core/env.ts';
import type { SizeLimitId, SizeLimitObserved } from '../../lib/observations.ts';

/** The shared definition of a size limit, by its fingerprint id. */
export function sizeLimit(id: string): SizeLimit {
  const found = SIZE_LIMITS.find((l) => l.id === id);
  if (!found) throw new Error(`discovery/size-limits.ts defines no size limit ${id}`);
  return found;
}

/** The most requests a search over the limit's range sends. */
export const searchBound = (limit: SizeLimit) => requestBound(limit.lower, limit.upper);

/** Finds the limit; `onAnswer` sees every answer (a variables probe creates a dialog with each accepted one). */
export async function observeSizeLimit(
  api: ApiClient,
  limit: SizeLimit,
  context: ProbeContext,
  onAnswer: (res: ApiResponse) => void = () => {},
): Promise<Observation> {
  const label = contractValidators().operation(limit.operationId).label;
  // Each request's answer, to quote the one of the first refused value.
  const answers = new Map<string, ApiResponse>();
  const finding = await driveAsync(sizeLimitSearch(limit, context, { operation: label, secrets: [] }), async (step) => {
    if (step.kind === 'wait') {
      await new Promise((resolve) => setTimeout(resolve, step.seconds * 1000));
      return undefined;
    }
    const { operationId, pathParams, query, json } = step.request;
    const res = await api.call(operationId, { path: pathParams, query, json });
    onAnswer(res);
    answers.set(JSON.stringify(step.request), res);
    return { status: res.status, headers: res.headers, body: res.text };
  });
  if (!finding.result) throw new Error(`could not observe ${limit.item}: ${finding.skipped}`);
  const { result, refusal } = finding;
  const search = `search: ${result.requests} requests (bound ${result.bound}), outcome ${result.outcome}`;
  const shown =
    refusal?.clampedTo !== undefined
      ? `first value served less: ${result.firstRejected}, clamped to ${refusal.clampedTo}`
      : `first refused value ${result.firstRejected}`;
  if (result.firstRejected === null)
    return { ...sizeLimitFingerprint(limit, label, result, refusal), evidence: `${search}\nnothing refused up to ${limit.upper}` };
  const quoted = answers.get(JSON.stringify(limit.request(result.firstRejected, context)))?.evidence() ?? '';
  return { ...sizeLimitFingerprint(limit, label, result, refusal), evidence: `${search}\n${shown}\n${quoted}` };
}

/** Where a run keeps the size limits it found: the probe that records one and the generated inputs search it once. */
const foundFile = () => join(REPORTS_DIR, 'probes', 'size-limits.json');

const found = (): Partial<Record<SizeLimitId, Observation>> => (existsSync(foundFile()) ? JSON.parse(readFileSync(foundFile(), 'utf8')) : {});

/** The limit as the run found it, if it searched it already. */
export const foundSizeLimit = (id: SizeLimitId): Observation | undefined => found()[id];

/** The limit as the run found it: searched now (observeSizeLimit) if no test of the run searched it before. */
export async function runSizeLimit(api: ApiClient, limit: SizeLimit, context: ProbeContext, onAnswer?: (res: ApiResponse) => void): Promise<Observation> {
  const known = foundSizeLimit(limit.id);
  if (known) return known;
  const observation = await observeSizeLimit(api, limit, context, onAnswer);
  mkdirSync(join(REPORTS_DIR, 'probes'), { recursive: true });
  writeFileSync(foundFile(), JSON.stringify({ ...found(), [limit.id]: observation }));
  return observation;
}

/** The requests a probe of the limit still sends: none once the run found it. */
export const boundOf = (limit: SizeLimit): number => (foundSizeLimit(limit.id) ? 0 : searchBound(limit));

/** The largest value the target accepted, from a limit found; undefined when nothing was accepted or it could not tell. */
export const largestAccepted = (observation: Observation | undefined): number | undefined =>
  (observation?.observed as SizeLimitObserved | undefined)?.largestAccepted ?? undefined;
