// Every drift mode, by name. `--list-drifts` prints this table.
import { ADDITIVE_DRIFTS } from './additive.ts';
import { AUTH_DRIFTS } from './auth.ts';
import { EFFECT_DRIFTS } from './effects.ts';
import { FIELD_DRIFTS } from './fields.ts';
import { FILTER_DRIFTS } from './filters.ts';
import { INPUT_DRIFTS } from './inputs.ts';
import { MEANING_DRIFTS } from './meanings.ts';
import { MOVE_DRIFTS } from './moves.ts';
import { PAGINATION_DRIFTS } from './pagination.ts';
import { STATUS_CODE_DRIFTS } from './status-codes.ts';
import { TRANSITION_DRIFTS } from './transitions.ts';
import type { Drift } from './types.ts';
import { UNDOCUMENTED_DRIFTS } from './undocumented.ts';
import { VARIANT_DRIFTS } from './variants.ts';
import { VERSION_DRIFTS } from './versions.ts';

export type { Drift } from './types.ts';

export const DRIFTS: readonly Drift[] = [
  ...FIELD_DRIFTS,
  ...PAGINATION_DRIFTS,
  ...FILTER_DRIFTS,
  ...STATUS_CODE_DRIFTS,
  ...AUTH_DRIFTS,
  ...TRANSITION_DRIFTS,
  ...EFFECT_DRIFTS,
  ...MOVE_DRIFTS,
  ...VARIANT_DRIFTS,
  ...INPUT_DRIFTS,
  ...MEANING_DRIFTS,
  ...VERSION_DRIFTS,
  ...ADDITIVE_DRIFTS,
  ...UNDOCUMENTED_DRIFTS,
];

export class UnknownDriftError extends Error {
  override name = 'UnknownDriftError';
}

/** The drifts named, in the order given; an unknown name throws, naming the way to list the known ones. */
export function resolveDrifts(names: readonly string[]): Drift[] {
  return names.map((name) => {
    const drift = DRIFTS.find((d) => d.name === name);
    if (!drift) throw new UnknownDriftError(`unknown drift "${name}"; run with --list-drifts to see the ${DRIFTS.length} known ones`);
    return drift;
  });
}
