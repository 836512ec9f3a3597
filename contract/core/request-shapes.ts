// The send and command body shapes of a run (spec §4.2: field names and types not shown): configured
// (SEND_BODY, COMMAND_BODY), or discovered once in the run's global setup (contract/api/shape-discovery.ts) and read by
// every worker from the run's file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteConfig } from '../../config/suite-config.ts';
import { configuredShape, type RequestShapes, type ShapeFinding } from '../../http/body-discovery.ts';
import { redactKnownIn } from '../../http/redact.ts';

/** Where a run records its shapes. */
export const requestShapesFile = (reportsDir: string) => join(reportsDir, 'run', 'request-shapes.json');
const file = requestShapesFile;

/** What names a target in the record of its shapes: its URL, or the embedded simulator's profile (whose port varies). */
export const shapesTarget = (config: Pick<SuiteConfig, 'targetBaseUrl' | 'simulatorProfile'>): string =>
  config.targetBaseUrl ?? `the embedded simulator (profile ${config.simulatorProfile ?? 'default'})`;

type ShapesRecord = RequestShapes & { target?: string };

export function writeRequestShapes(reportsDir: string, shapes: RequestShapes, target: string): void {
  mkdirSync(join(reportsDir, 'run'), { recursive: true });
  // Redacted: a shape learned from the vendor's refusals quotes them, and every test's skip reason quotes this.
  const record: ShapesRecord = redactKnownIn({ target, send: shapes.send, command: shapes.command });
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
