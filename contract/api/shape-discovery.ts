// Global setup's discovery of the send and command body shapes (spec §4.2: field names and types not shown), through
// the suite's client: tried first as the run's baseline verified them, else as http/body-discovery.ts finds them. Apart
// from the run's record of them (contract/core/request-shapes.ts), which every worker reads without loading all this.
import type { ConfigOf, SuiteConfig } from '../../config/suite-config.ts';
import { discoverRequestShapes, type DiscoveryResult } from '../../http/body-discovery.ts';
import { driveAsync } from '../../discovery/drive.ts';
import type { ApiClient } from '../target/client.ts';
import { createdSince } from './lists.ts';
import { runListPaging } from '../core/list-paging.ts';
import { readBaseline } from '../core/baselines.ts';

/** The shapes the run's baseline verified (CONTRACT_FROM, else BASELINE), for the discovery to try first. */
function knownShapes(config: Pick<SuiteConfig, 'baseline' | 'contractFrom'>): { known?: { from: string; send?: string; command?: string } } {
  const name = config.contractFrom ?? config.baseline;
  if (!name) return {};
  const saved = readBaseline(name);
  const template = (id: string) => {
    const observed = saved.items.find((i) => i.id === id)?.observed;
    return typeof observed === 'string' ? observed : undefined;
  };
  const [send, command] = [template('body.send.accepted'), template('body.command.accepted')];
  return send || command ? { known: { from: saved.name, ...(send ? { send } : {}), ...(command ? { command } : {}) } } : {};
}

/** What the discovery uses of the target: the credentials, the bot it creates on and the goto target; no custom block. */
export type DiscoveryConfig = ConfigOf<'API_LOGIN' | 'API_PASSWORD' | 'BOT_ID' | 'GOTO_BOT_ID'>;

/** Discovers (or takes from the configuration) both shapes through the suite's client. */
export function discoverShapes(
  api: ApiClient,
  config: DiscoveryConfig,
  since: (runnerMs: number) => string = createdSince,
  pageSize: number = runListPaging().pageSize,
): Promise<DiscoveryResult> {
  const steps = discoverRequestShapes({
    pageSize,
    botId: config.botId,
    gotoBotId: config.gotoBotId,
    sendBody: config.sendBody,
    commandBody: config.commandBody,
    now: Date.now,
    createdSince: since,
    settleSeconds: config.listSettleSeconds,
    // A configured shape is sent once and said refused, working, or accepted with no effect, as a discovered one.
    verifyConfigured: true,
    ...knownShapes(config),
  });
  return driveAsync(steps, async (step) => {
    if (step.kind === 'wait') {
      await new Promise((resolve) => setTimeout(resolve, step.seconds * 1000));
      return undefined;
    }
    const { operationId, pathParams, query, json } = step.request;
    const res = await api.call(operationId, { path: pathParams, query, json });
    return { status: res.status, body: res.text };
  });
}
