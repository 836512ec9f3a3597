// The one judging engine: exchanges in time order, whoever recorded them (the run's own journal at its end, a HAR
// from any client under `npm run judge`), assembled by the feeders into every kind of evidence the checks ask for
// (checks/feeder.ts), each check judging what its feeder hands it. The project's checks are fed by the feeders that
// declare them; a team's (CHECKS_MODULE) get each exchange and the whole set. A throttled answer (429, a 503 with
// Retry-After) was waited out, never judged. Pure.
import { failureId, type RecordedFailure } from '../lib/failure.ts';
import { failuresOf, type AnyCheck, type CheckRegistry } from './check.ts';
import { failureExchange, type ExchangeEvidence } from './evidence.ts';
import type { FeedContext, Feeder, Judged } from './feeder.ts';
import { createWithoutIds, listPage, oneAnswer, recordRead, sentAndDownloaded, timeFilters } from './feed-exchange.ts';
import { moves, overTime, series, twoViews, variablesPlaces, writeThenRead } from './feed-dialogs.ts';
import { createdThenListed, filterTotals, versionLists, walks } from './feed-lists.ts';
import { BUILT_IN, type CheckName } from './registry.ts';
import { Timeline } from './timeline.ts';

/** Every feeder of the engine, in the order their judgements are listed. */
export const FEEDERS: readonly Feeder[] = [
  oneAnswer,
  createWithoutIds,
  listPage,
  recordRead,
  sentAndDownloaded,
  timeFilters,
  overTime,
  writeThenRead,
  variablesPlaces,
  twoViews,
  series,
  moves,
  walks,
  filterTotals,
  versionLists,
  createdThenListed,
];

/** Each check of the project the engine feeds, with the evidence its feeders assemble for it. */
export const ENGINE_EVIDENCE: ReadonlyMap<CheckName, string[]> = FEEDERS.reduce((map, feeder) => {
  for (const check of feeder.checks) map.set(check, [...(map.get(check) ?? []), feeder.evidence]);
  return map;
}, new Map<CheckName, string[]>());

/** A throttled answer, waited out by whoever sent it: never a finding (a 429, a 503 that says when to come back). */
export const throttled = (e: ExchangeEvidence) => e.response.status === 429 || (e.response.status === 503 && e.response.headers['retry-after'] !== undefined);

const isProject = (check: AnyCheck) => BUILT_IN.includes(check);

export interface EngineOptions extends FeedContext {
  registry: CheckRegistry;
}

/** Every check the registry runs, fed from the exchanges in time order. */
export function judgeExchanges(exchanges: readonly ExchangeEvidence[], { registry, ...context }: EngineOptions): Judged[] {
  const judged = exchanges.filter((e) => e.operationId !== null && !throttled(e));
  const timeline = new Timeline(judged);
  const runs = (check: AnyCheck) => registry.runs(check.name);
  const project = FEEDERS.filter((f) => f.checks.some((c) => registry.runs(c))).flatMap((f) => f.feed(timeline, context));
  const teams = registry.all().filter((c) => !isProject(c) && runs(c));
  const last = timeline.exchanges.at(-1);
  const team: Judged[] = teams.flatMap((check) =>
    check.evidence === 'exchange'
      ? timeline.exchanges.map((e) => ({ check, findings: check.judge(e), at: e }))
      : check.evidence === 'run' && last
        ? [{ check, findings: check.judge(timeline.exchanges), at: last }]
        : [],
  );
  return [...project.filter((j) => runs(j.check)), ...team];
}

/** How often each check judged, and how often it failed. */
export type JudgedCounts = Record<string, { judged: number; failed: number }>;

/** The failures of what the checks found, each at its exchange, filed under `source`; how often each check judged. */
export function recordedFailures(judgements: readonly Judged[], source: string): { judged: JudgedCounts; failures: RecordedFailure[] } {
  const judged: JudgedCounts = {};
  const failures: RecordedFailure[] = [];
  for (const j of judgements) {
    const failing = j.findings.filter((f) => !f.holds);
    const count = (judged[j.check.name] ??= { judged: 0, failed: 0 });
    count.judged++;
    if (failing.length === 0) continue;
    count.failed++;
    // The exchanges a failure shows, made for failures only: most judgements hold, and each is a copy of its bodies.
    const at = {
      operationId: j.at.operationId,
      status: j.at.response.status,
      ...(j.comparedWith ? { comparedWith: j.comparedWith.operationId! } : {}),
      exchanges: [j.at, ...(j.comparedWith ? [j.comparedWith] : []), ...(j.shownBy ?? [])].map((e) => failureExchange(e)),
    };
    for (const f of failuresOf(j.check, failing, at)) failures.push({ ...f, id: failureId(f), test: `${source} ${j.at.method} ${j.at.path}` });
  }
  return { judged, failures };
}
