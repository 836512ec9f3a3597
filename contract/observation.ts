// What the suite records about items the spec leaves "not shown": observed, never asserted.

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
