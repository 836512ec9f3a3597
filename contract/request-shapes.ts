// The send and command body shapes of a run (spec §4.2: field names and types not shown): configured
// (SEND_BODY, COMMAND_BODY), or discovered once in the run's global setup and read by every worker from the run's file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteConfig } from '../config/suite-config.ts';
import { configuredShape, discoverRequestShapes, type DiscoveryResult, type RequestShapes, type ShapeFinding } from '../http/body-discovery.ts';
import { driveAsync } from '../discovery/drive.ts';
import type { ApiClient } from './client.ts';
import { createdSince } from './lists.ts';
import { readBaseline } from './reporters/baselines.ts';

const file = (reportsDir: string) => join(reportsDir, 'run', 'request-shapes.json');

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

/** Discovers (or takes from the configuration) both shapes through the suite's client. */
export function discoverShapes(api: ApiClient, config: SuiteConfig, since: (runnerMs: number) => string = createdSince): Promise<DiscoveryResult> {
  const steps = discoverRequestShapes({
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

/** What names a target in the record of its shapes: its URL, or the embedded simulator's profile (whose port varies). */
export const shapesTarget = (config: Pick<SuiteConfig, 'targetBaseUrl' | 'simulatorProfile'>): string =>
  config.targetBaseUrl ?? `the embedded simulator (profile ${config.simulatorProfile ?? 'default'})`;

type ShapesRecord = RequestShapes & { target?: string };

export function writeRequestShapes(reportsDir: string, shapes: RequestShapes, target: string): void {
  mkdirSync(join(reportsDir, 'run'), { recursive: true });
  const record: ShapesRecord = { target, send: shapes.send, command: shapes.command };
  writeFileSync(file(reportsDir), `${JSON.stringify(record, null, 2)}\n`);
}

/** The shapes the last contract run settled, when it ran against `target`; where it recorded them. */
export function recordedShapes(reportsDir: string, target: string): { shapes: RequestShapes; file: string } | undefined {
  if (!existsSync(file(reportsDir))) return undefined;
  const found = JSON.parse(readFileSync(file(reportsDir), 'utf8')) as ShapesRecord;
  return found.target === target ? { shapes: { send: found.send, command: found.command }, file: file(reportsDir) } : undefined;
}

const notDiscovered = (variable: string): ShapeFinding => ({
  template: null,
  verifiedBy: null,
  how: `not discovered in this run (its global setup did not run): run the suite through playwright.config.ts, or set ${variable}`,
  tried: [],
});

/**
 * The run's shapes as its setup settled them, a configured template included (verified there: one the vendor refuses
 * is no shape, and its tests are skipped with why); without a setup, the configured template as it is.
 */
export function readRequestShapes(reportsDir: string, config: SuiteConfig): RequestShapes {
  const found = existsSync(file(reportsDir)) ? (JSON.parse(readFileSync(file(reportsDir), 'utf8')) as RequestShapes) : undefined;
  return {
    send: found?.send ?? (config.sendBody ? configuredShape(config.sendBody, 'SEND_BODY') : notDiscovered('SEND_BODY')),
    command: found?.command ?? (config.commandBody ? configuredShape(config.commandBody, 'COMMAND_BODY') : notDiscovered('COMMAND_BODY')),
  };
}
