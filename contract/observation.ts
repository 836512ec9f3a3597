// What the suite records about items the spec leaves "not shown": observed, never asserted.

import type { Operation } from '../openapi/document.ts';

export const OBSERVATION = 'observation';

export interface Observation {
  /** Stable id ("status.operator", "limit.maxPageCount"): the key baselines compare on. */
  id: string;
  /** Section of the vendor specification the item comes from. */
  section: string;
  /** Operation label ("POST /v2/conversation/{uuid}/stop") when the item belongs to one. */
  operation?: string;
  /** What the item is, in the spec's words. */
  item: string;
  /** What the target did: JSON, without timestamps or ids that change from run to run. */
  observed: unknown;
  /** Request and response that show it (secrets redacted). */
  evidence?: string;
}

/** An observation of an operation: its label comes from the document, its section defaults to the operation's. */
export type OperationObservation = Omit<Observation, 'operation' | 'section'> & { section?: string };

/**
 * Records an item the spec leaves unsaid. Given an operation (its operationId, or the `operation` of a response),
 * the label and the default section are the document's, so a call names the operation once.
 */
export interface Observe {
  (observation: Observation): void;
  (operation: string | Operation, observation: OperationObservation): void;
}
