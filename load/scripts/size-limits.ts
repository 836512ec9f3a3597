// Size limits (spec §8.3, §8.4: not shown): the largest accepted PageCount, send text length, custom-block text
// length (with VERTEX_TOKEN) and variables size, each found exactly with ⌈log2 range⌉ + 2 requests at most by the
// search that the Node probes use too (discovery/limit-search.ts, discovery/size-limits.ts). The searches ask one
// question at a time and cannot be split: in a split test (k6-operator) only the first runner's first VU runs them,
// and the other runners say so. Every runner gets VUs of the scenario (k6 splits them), so each completes its part.
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { THROTTLE_STATUSES } from '../../http/throttle.ts';
import { drive } from '../../discovery/drive.ts';
import { isFirst, segmentLabel } from '../../discovery/execution-segment.ts';
import { sequentialSearch } from '../../discovery/load-shapes.ts';
import { evidenceOf } from '../../discovery/load-summary.ts';
import { REFUSALS, SIZE_LIMITS, sizeLimitFingerprint, sizeLimitLine, sizeLimitSearch, type SizeLimitFinding } from '../../discovery/size-limits.ts';
import { asProbeResponse, call, operation } from './common/api.ts';
import { botId, config, secrets } from './common/config.ts';
import { guardInit } from './common/guard.ts';
import { completing, expectStatuses, loadOptions, recordEvidence } from './common/options.ts';
import { operatorSetup, type OperatorSetup } from './common/operator-setup.ts';
import { currentSegment } from './common/segment.ts';
import { sendBodyReport } from './common/send-body.ts';
import { summaryHandler } from './common/summary.ts';

const MAX_MINUTES = Number(__ENV.SIZE_MAX_MINUTES || '5');

export const options = loadOptions({ sizeLimits: sequentialSearch('searchLimits', `${MAX_MINUTES}m`) });
guardInit(options);
botId();
// Refusals are the answers being looked for, and throttles are waited out: neither is a failed request here.
expectStatuses(...REFUSALS, ...THROTTLE_STATUSES);

/** Whether this process runs the searches: the first runner of a split test, or the only one. */
const searches = () => isFirst(currentSegment());

export function setup(): OperatorSetup {
  return operatorSetup(searches() ? 1 : 0);
}

export const searchLimits = completing((data: OperatorSetup) => {
  if (!searches() || exec.vu.idInInstance !== 1) return;
  const context = { botId: botId(), dialogUuid: data.dialogs[0], sendBody: data.sendBody, vertexToken: config.vertexToken };
  for (const limit of SIZE_LIMITS) {
    const search = sizeLimitSearch(limit, context, {
      operation: operation(limit.operationId).label,
      secrets,
      throttle: config.throttle,
      random: Math.random,
      now: Date.now,
    });
    const finding = drive(search, (step) => {
      if (step.kind === 'send') return asProbeResponse(call(step.request));
      sleep(step.seconds);
      return undefined;
    });
    check(finding, { [`${limit.id}: every probe got a clear answer`]: (f) => f.result?.outcome !== 'inconclusive' });
    recordEvidence('size-limit', finding);
  }
});

export const handleSummary = summaryHandler('size-limits', (data, segment) => {
  const findings = evidenceOf<SizeLimitFinding>(data, 'size-limit');
  const { sendBody, lines } = sendBodyReport(data);
  const elsewhere = isFirst(segment)
    ? []
    : [`${segmentLabel(segment)}: the size searches ran on the first runner only (one question at a time: they cannot be split)`];
  return {
    findings: { sendBody, limits: findings },
    lines: [...lines, ...elsewhere, ...findings.map(sizeLimitLine)],
    fingerprint: findings.flatMap((f) => {
      const limit = SIZE_LIMITS.find((l) => l.id === f.id);
      return limit && f.result ? [sizeLimitFingerprint(limit, f.operation, f.result, f.refusal)] : [];
    }),
  };
});
