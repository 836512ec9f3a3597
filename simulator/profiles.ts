// Vendor profiles: profiles/NAME.json is a partial config (deep-merged like --config) playing one vendor that
// honours every documented item and decides every "not shown" one its own way. A top-level "description" says
// which vendor it plays. The suite must pass against each of them.
import { readdirSync, readFileSync } from 'node:fs';
import { ConfigError, resolveConfig, type SimulatorConfig } from './config.ts';

const DIR = new URL('./profiles/', import.meta.url);

export class UnknownProfileError extends Error {
  override name = 'UnknownProfileError';
}

export interface Profile {
  name: string;
  description: string;
  /** The settings, to merge over DEFAULT_CONFIG. */
  patch: Record<string, unknown>;
}

/** Names of the committed profiles, sorted ("default" is DEFAULT_CONFIG itself). */
export function listProfiles(): string[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** A profile by name, checked; an unknown name throws UnknownProfileError listing the known ones. */
export function loadProfile(name: string): Profile {
  const known = listProfiles();
  if (!known.includes(name)) throw new UnknownProfileError(`unknown profile "${name}"; known: ${known.join(', ')} (--list-profiles)`);
  const file = `profiles/${name}.json`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${file}: must hold a JSON object`);
  const { description, ...patch } = parsed as Record<string, unknown>;
  if (typeof description !== 'string') throw new ConfigError(`${file}: "description" must be a string saying which vendor it plays`);
  try {
    resolveConfig(patch);
  } catch (err) {
    throw err instanceof ConfigError ? new ConfigError(`${file}: ${err.message}`) : err;
  }
  return { name, description, patch };
}

/** The configuration a profile runs with: DEFAULT_CONFIG with the profile merged in, checked. */
export function profileConfig(name: string): SimulatorConfig {
  return resolveConfig(loadProfile(name).patch);
}
