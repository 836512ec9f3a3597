// The send and command body shapes of a run (spec §4.2: field names and types not shown): configured
// (SEND_BODY, COMMAND_BODY), or discovered once in the run's global setup and read by every worker from the run's file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteConfig } from '../config/suite-config.ts';
import { configuredShape, discoverRequestShapes, type DiscoveryResult, type RequestShapes, type ShapeFinding } from '../http/body-discovery.ts';
import { driveAsync } from '../discovery/drive.ts';
import type { ApiClient } from './client.ts';

const file = (reportsDir: string) => join(reportsDir, 'run', 'request-shapes.json');

/** Discovers (or takes from the configuration) both shapes through the suite's client. */
export function discoverShapes(api: ApiClient, config: SuiteConfig): Promise<DiscoveryResult> {
  const steps = discoverRequestShapes({ botId: config.botId, gotoBotId: config.gotoBotId, sendBody: config.sendBody, commandBody: config.commandBody, now: Date.now });
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

export function writeRequestShapes(reportsDir: string, shapes: RequestShapes): void {
  mkdirSync(join(reportsDir, 'run'), { recursive: true });
  writeFileSync(file(reportsDir), `${JSON.stringify(shapes, null, 2)}\n`);
}

const notDiscovered = (variable: string): ShapeFinding => ({
  template: null,
  verifiedBy: null,
  how: `not discovered in this run (its global setup did not run): run the suite through playwright.config.ts, or set ${variable}`,
  tried: [],
});

/** The run's shapes; a configured template always wins over what the file says. */
export function readRequestShapes(reportsDir: string, config: SuiteConfig): RequestShapes {
  const found = existsSync(file(reportsDir)) ? (JSON.parse(readFileSync(file(reportsDir), 'utf8')) as RequestShapes) : undefined;
  return {
    send: config.sendBody ? configuredShape(config.sendBody, 'SEND_BODY') : (found?.send ?? notDiscovered('SEND_BODY')),
    command: config.commandBody ? configuredShape(config.commandBody, 'COMMAND_BODY') : (found?.command ?? notDiscovered('COMMAND_BODY')),
  };
}
