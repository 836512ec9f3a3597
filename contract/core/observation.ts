// What the suite records about items the spec leaves "not shown": observed, never asserted. Each id and the type of
// what it holds are declared once, in lib/observations.ts.
import type { Operation } from '../../openapi/document.ts';
import type { OperationId } from '../../openapi/operations.generated.ts';
import type { ObservationId, ObservationPayloads } from '../../lib/observations.ts';

export const OBSERVATION = 'observation';

export interface Observation<K extends ObservationId = ObservationId> {
  /** Stable id ("status.operator", "limit.maxPageCount"): the key baselines compare on. */
  id: K;
  /** Section of the vendor specification the item comes from. */
  section: string;
  /** Operation label ("POST /v2/conversation/{uuid}/stop") when the item belongs to one. */
  operation?: string;
  /** What the item is, in the spec's words. */
  item: string;
  /** What the target did: JSON, without timestamps or ids that change from run to run. */
  observed: ObservationPayloads[K];
  /** Request and response that show it (secrets redacted). */
  evidence?: string;
}

/** An observation of an operation: its label comes from the document, its section defaults to the operation's. */
export type OperationObservation<K extends ObservationId = ObservationId> = Omit<Observation<K>, 'operation' | 'section'> & { section?: string };

/**
 * Records an item the spec leaves unsaid. Given an operation (its operationId, or the `operation` of a response),
 * the label and the default section are the document's, so a call names the operation once.
 */
export interface Observe {
  <K extends ObservationId>(observation: Observation<K>): void;
  <K extends ObservationId>(operation: OperationId | Operation, observation: OperationObservation<K>): void;
}
