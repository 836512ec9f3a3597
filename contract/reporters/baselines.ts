// Baselines are fingerprints saved under a name (baselines/NAME.json, committed) to compare later runs with.
// Every problem is a BaselineError whose message is one line: the scripts print it and exit 2.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FingerprintItem } from '../../lib/fingerprint.ts';
import type { Baseline } from '../../lib/drift-report.ts';
import { REPORTS_DIR } from '../env.ts';

export const BASELINES_DIR = fileURLToPath(new URL('../../baselines', import.meta.url));
export const FINGERPRINT_FILE = join(REPORTS_DIR, 'fingerprint.json');

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

function readItems(path: string, what: string): FingerprintItem[] {
  let items: unknown;
  try {
    items = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BaselineError(`${what} ${shown(path)} cannot be read as JSON (${(err as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(items) || !items.every((i) => i && typeof i === 'object' && typeof (i as FingerprintItem).id === 'string')) {
    throw new BaselineError(`${what} ${shown(path)} is not a fingerprint (a JSON array of items with an id)`);
  }
  return items as FingerprintItem[];
}

export function readBaseline(nameOrFile: string): Baseline {
  const path = baselinePath(nameOrFile);
  if (!existsSync(path)) {
    throw new BaselineError(`baseline "${nameOrFile}" not found: no file ${shown(path)} (save one after a run with npm run baseline -- ${nameOrFile})`);
  }
  return { name: nameOrFile, items: readItems(path, 'baseline') };
}

/** A fingerprint file another tool wrote (the k6 runner), or nothing when it is absent. */
export function readFingerprintIfPresent(path: string): FingerprintItem[] {
  return existsSync(path) ? readItems(path, 'fingerprint') : [];
}

/** Copies this run's fingerprint to baselines/NAME.json; returns the path and how many items it holds. */
export function saveBaseline(name: string, fingerprint = FINGERPRINT_FILE): { path: string; items: number; replaced: boolean } {
  if (name.endsWith('.json')) throw new BaselineError(`baseline name "${name}" is not valid: give a name, not a file (it is saved as baselines/NAME.json)`);
  const path = baselinePath(name);
  if (!existsSync(fingerprint)) throw new BaselineError(`no fingerprint yet: ${shown(fingerprint)} is written by a run of npm run contract`);
  const items = readItems(fingerprint, 'fingerprint').length;
  const replaced = existsSync(path);
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(fingerprint, path);
  return { path: shown(path), items, replaced };
}
