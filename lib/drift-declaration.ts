// What a drift mode declares about itself: its kind, the clause it touches, and where the suite must name it.
// In lib/ because three layers share it: the simulator declares its drifts, power/ scores the suite against the
// declarations, scripts/ hands them from one to the other (simulator/main.ts --list-drifts --json).

import type { OperationId } from '../openapi/operations.generated.ts';

export type DriftKind = 'breaking' | 'additive' | 'undocumented';

/**
 * Where a breaking drift breaks the contract, as the suite's failures name a place: the operations (of a comparison
 * of two, the first: V1 held against V2) and the places (a JSON pointer with list positions as "*", "status",
 * "content-type", "body", or the name of a semantic check). The mutation run counts a drift as detected only there.
 */
export interface DriftLocation {
  operations: readonly OperationId[];
  at: readonly string[];
}

export interface DriftDeclaration {
  name: string;
  /** breaking: violates a documented clause; additive: adds without breaking; undocumented: changes a "not shown" item. */
  kind: DriftKind;
  /** The spec section and clause it breaks or touches, e.g. "§2.1 source is a string in V2 list items". */
  clause: string;
  description: string;
  /** Breaking drifts: where the contract breaks. */
  breaks?: readonly DriftLocation[];
  /** Additive and undocumented drifts: the ids of the drift report items that show them. */
  reports?: readonly string[];
}
