// Baselines are fingerprints saved under a name (baselines/NAME.json, committed) to compare later runs with.
// Every problem is a BaselineError whose message is one line: the scripts print it and exit 2.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFingerprintFile, type FingerprintFile } from '../../lib/fingerprint.ts';
import type { Baseline } from '../../report/drift-report.ts';
import type { NamedFingerprint } from '../../report/history.ts';
import { REPORTS_DIR } from './env.ts';

export const BASELINES_DIR = fileURLToPath(new URL('../../baselines', import.meta.url));
/** The fingerprint of the run this process works for. */
export const fingerprintFile = (): string => join(REPORTS_DIR, 'fingerprint.json');

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class BaselineError extends Error {
  override name = 'BaselineError';
}

/** Inside the project: relative, as the user typed it; elsewhere: absolute. */
function shown(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith('..') ? inside : path;
}

/** NAME → baselines/NAME.json; a path ending in .json (a fingerprint kept from another run) is taken as it is. */
export function baselinePath(nameOrFile: string): string {
  if (nameOrFile.endsWith('.json')) return resolve(nameOrFile);
  if (!NAME.test(nameOrFile)) {
    throw new BaselineError(`baseline name "${nameOrFile}" is not valid: use letters, digits, ".", "_" and "-" (it is saved as baselines/NAME.json)`);
  }
  return join(BASELINES_DIR, `${nameOrFile}.json`);
}

function readFile(path: string, what: string): FingerprintFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BaselineError(`${what} ${shown(path)} cannot be read as JSON (${(err as Error).message.split('\n')[0]})`);
  }
  const file = readFingerprintFile(value);
  if (!file) throw new BaselineError(`${what} ${shown(path)} is not a fingerprint (its items, each with an id, and its run)`);
  return file;
}

export function readBaseline(nameOrFile: string): Baseline & NamedFingerprint {
  const path = baselinePath(nameOrFile);
  if (!existsSync(path)) {
    throw new BaselineError(`baseline "${nameOrFile}" not found: no file ${shown(path)} (save one after a run with npm run baseline -- ${nameOrFile})`);
  }
  return { name: nameOrFile, ...readFile(path, 'baseline') };
}

/** Every committed baseline (baselines/*.json but the acknowledged-drifts schema), for the history of items. */
export function readAllBaselines(): Array<Baseline & NamedFingerprint> {
  if (!existsSync(BASELINES_DIR)) return [];
  return readdirSync(BASELINES_DIR)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
    .map((f) => readBaseline(f.slice(0, -'.json'.length)));
}

/** Copies this run's fingerprint to baselines/NAME.json; returns the path and how many items it holds. */
export function saveBaseline(name: string, fingerprint = fingerprintFile()): { path: string; items: number; replaced: boolean } {
  if (name.endsWith('.json')) throw new BaselineError(`baseline name "${name}" is not valid: give a name, not a file (it is saved as baselines/NAME.json)`);
  const path = baselinePath(name);
  if (!existsSync(fingerprint)) throw new BaselineError(`no fingerprint yet: ${shown(fingerprint)} is written by a run of npm run contract`);
  const items = readFile(fingerprint, 'fingerprint').items.length;
  const replaced = existsSync(path);
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(fingerprint, path);
  return { path: shown(path), items, replaced };
}
