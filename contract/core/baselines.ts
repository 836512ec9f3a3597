// Baselines are fingerprints saved under a name (baselines/NAME.json, committed) to compare later runs with.
// Every problem is a BaselineError whose message is one line: the scripts print it and exit 2.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprintJson, readFingerprintFile, type FingerprintFile } from '../../lib/fingerprint.ts';
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
export function baselinePath(nameOrFile: string, dir = BASELINES_DIR): string {
  if (nameOrFile.endsWith('.json')) return resolve(nameOrFile);
  if (!NAME.test(nameOrFile)) {
    throw new BaselineError(`baseline name "${nameOrFile}" is not valid: use letters, digits, ".", "_" and "-" (it is saved as baselines/NAME.json)`);
  }
  return join(dir, `${nameOrFile}.json`);
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

/** What saving a baseline did: where, how many items, whether it replaced one, and the items of that one it lacks. */
export interface SavedBaseline {
  path: string;
  items: number;
  replaced: boolean;
  /** Items of the baseline it replaced that the new one does not hold. */
  missing: string[];
  /** Why the fingerprint is partial, when it was saved as such (--partial). */
  partial?: string;
}

/**
 * Saves this run's fingerprint as baselines/NAME.json. A fingerprint of a partial run (a filter, checks left out,
 * catalogued items it observed nowhere: its scope says why) is refused unless `partial` asks for it by name; then it is
 * saved marked partial, with why.
 */
export function saveBaseline(name: string, options: { fingerprint?: string; partial?: boolean; dir?: string } = {}): SavedBaseline {
  const fingerprint = options.fingerprint ?? fingerprintFile();
  if (name.endsWith('.json')) throw new BaselineError(`baseline name "${name}" is not valid: give a name, not a file (it is saved as baselines/NAME.json)`);
  const path = baselinePath(name, options.dir);
  if (!existsSync(fingerprint)) throw new BaselineError(`no fingerprint yet: ${shown(fingerprint)} is written by a run of npm run contract`);
  const file = readFile(fingerprint, 'fingerprint');
  const why = file.run?.scope?.partial.join('; ') || (file.partial ?? '');
  if (why && !options.partial) {
    throw new BaselineError(
      `${shown(fingerprint)} is of a partial run (${why}): a baseline from it would call everything it left out changed; run the whole suite, or save it marked partial with --partial`,
    );
  }
  const previous = existsSync(path) ? readFile(path, 'baseline') : undefined;
  const kept = new Set(file.items.map((i) => i.id));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, why ? fingerprintJson(file.items, file.run, file.observedBy, why) : readFileSync(fingerprint, 'utf8'));
  return {
    path: shown(path),
    items: file.items.length,
    replaced: previous !== undefined,
    missing: previous?.items.filter((i) => !kept.has(i.id)).map((i) => i.id) ?? [],
    ...(why ? { partial: why } : {}),
  };
}
