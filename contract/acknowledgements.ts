// baselines/acknowledged.yaml, read and checked against its JSON Schema (baselines/acknowledged.schema.json), and
// written back by npm run acknowledge. A problem with the file is an AcknowledgementsError with one line.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Acknowledgement } from '../report/acknowledged.ts';
import { loadDotenvOnce } from './env.ts';

/** The committed file, or where ACKNOWLEDGED_FILE (environment or .env) points: another team's list, a test's. */
export function acknowledgedFile(): string {
  loadDotenvOnce();
  return process.env.ACKNOWLEDGED_FILE || fileURLToPath(new URL('../baselines/acknowledged.yaml', import.meta.url));
}

/** How messages name a file: relative to the working directory when it lies below it. */
const shown = (file: string) => (relative(process.cwd(), file).startsWith('..') ? file : relative(process.cwd(), file));
const SCHEMA_FILE = fileURLToPath(new URL('../baselines/acknowledged.schema.json', import.meta.url));

// ajv-formats ships CommonJS; depending on the loader its default export arrives wrapped or not.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule.default;

export class AcknowledgementsError extends Error {
  override name = 'AcknowledgementsError';
}

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** The schema, compiled once. */
function validator() {
  if (!validate) {
    const ajv = new Ajv2020({ strict: true, allErrors: false });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);
  }
  return validate;
}

/** The comment lines at the top of the committed file, kept when it is written back. */
function readHeader(file: string): string {
  if (!existsSync(file)) return '';
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines
    .slice(
      0,
      lines.findIndex((l) => !l.startsWith('#')),
    )
    .map((l) => `${l}\n`)
    .join('');
}

/** Checks entries against the schema; the message names the entry and the field. */
export function checkAcknowledgements(value: unknown, file = 'baselines/acknowledged.yaml'): Acknowledgement[] {
  const check = validator();
  if (check(value)) return value as Acknowledgement[];
  const error = check.errors![0]!;
  const [index, field] = error.instancePath.split('/').slice(1);
  const entry =
    index === undefined
      ? ''
      : ` entry ${Number(index) + 1}${typeof (value as Acknowledgement[])[Number(index)]?.id === 'string' ? ` ("${(value as Acknowledgement[])[Number(index)]!.id}")` : ''}`;
  const what = field ?? (error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : '');
  throw new AcknowledgementsError(
    `${file}:${entry}${what ? ` ${what}` : ''} ${error.message ?? 'is not valid'}: fix the file (see baselines/acknowledged.schema.json)`,
  );
}

// Required when a file is read or written, not imported: a Playwright worker reads the file only once a test has
// recorded a contract failure, and loading the YAML library cost each worker a twentieth of a second of CPU.
const yaml = () => createRequire(import.meta.url)('yaml') as typeof import('yaml');

export function readAcknowledgements(file = acknowledgedFile()): Acknowledgement[] {
  if (!existsSync(file)) return [];
  let value: unknown;
  try {
    value = yaml().parse(readFileSync(file, 'utf8')) ?? [];
  } catch (err) {
    throw new AcknowledgementsError(`${shown(file)} is not YAML (${(err as Error).message.split('\n')[0]}): fix the file`);
  }
  // No entries (the usual file) need no schema: compiling it cost every worker and reporter 50 ms.
  if (Array.isArray(value) && value.length === 0) return [];
  return checkAcknowledgements(value, shown(file));
}

export function writeAcknowledgements(entries: readonly Acknowledgement[], file = acknowledgedFile()): void {
  checkAcknowledgements(entries, shown(file));
  writeFileSync(file, `${readHeader(file)}${entries.length === 0 ? '[]\n' : yaml().stringify(entries, { lineWidth: 0 })}`);
}
