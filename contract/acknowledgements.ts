// baselines/acknowledged.yaml, read and checked against its JSON Schema (baselines/acknowledged.schema.json), and
// written back by npm run acknowledge. A problem with the file is an AcknowledgementsError with one line.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse, stringify } from 'yaml';
import type { Acknowledgement } from '../report/acknowledged.ts';

/** The committed file; ACKNOWLEDGED_FILE points elsewhere (another team's list, a test's). */
export const ACKNOWLEDGED_FILE = process.env.ACKNOWLEDGED_FILE || fileURLToPath(new URL('../baselines/acknowledged.yaml', import.meta.url));
const SCHEMA_FILE = fileURLToPath(new URL('../baselines/acknowledged.schema.json', import.meta.url));
const HEADER = readHeader();

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
function readHeader(): string {
  if (!existsSync(ACKNOWLEDGED_FILE)) return '';
  const lines = readFileSync(ACKNOWLEDGED_FILE, 'utf8').split('\n');
  return lines.slice(0, lines.findIndex((l) => !l.startsWith('#'))).map((l) => `${l}\n`).join('');
}

/** Checks entries against the schema; the message names the entry and the field. */
export function checkAcknowledgements(value: unknown, file = 'baselines/acknowledged.yaml'): Acknowledgement[] {
  const check = validator();
  if (check(value)) return value as Acknowledgement[];
  const error = check.errors![0]!;
  const [index, field] = error.instancePath.split('/').slice(1);
  const entry = index === undefined ? '' : ` entry ${Number(index) + 1}${typeof (value as Acknowledgement[])[Number(index)]?.id === 'string' ? ` ("${(value as Acknowledgement[])[Number(index)]!.id}")` : ''}`;
  const what = field ?? (error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : '');
  throw new AcknowledgementsError(`${file}:${entry}${what ? ` ${what}` : ''} ${error.message ?? 'is not valid'}: fix the file (see baselines/acknowledged.schema.json)`);
}

export function readAcknowledgements(file = ACKNOWLEDGED_FILE): Acknowledgement[] {
  if (!existsSync(file)) return [];
  let value: unknown;
  try {
    value = parse(readFileSync(file, 'utf8')) ?? [];
  } catch (err) {
    throw new AcknowledgementsError(`baselines/acknowledged.yaml is not YAML (${(err as Error).message.split('\n')[0]}): fix the file`);
  }
  return checkAcknowledgements(value);
}

export function writeAcknowledgements(entries: readonly Acknowledgement[], file = ACKNOWLEDGED_FILE): void {
  checkAcknowledgements(entries);
  writeFileSync(file, `${HEADER}${entries.length === 0 ? '[]\n' : stringify(entries, { lineWidth: 0 })}`);
}
