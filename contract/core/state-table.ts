// Spec §3, the state table, as data: the states a dialog can be in, the API's triggers, what each trigger does when
// it answers its documented success, and the (state × trigger) pairs a run walks. Which states allow a trigger is not
// shown ("any (condition not shown)"): the walk records it. What a success leads to is documented: asserted. Pure.
import type { OperationId } from '../../openapi/operations.generated.ts';

/** The states §3 names, by a slug that stays put in ids: the status strings of most are the vendor's (not shown). */
export const DIALOG_STATES = ['created', 'started', 'in-process', 'operator', 'completed'] as const;
export type DialogState = (typeof DIALOG_STATES)[number];

/** Each state in §3's words. */
export const STATE_WORDS: Record<DialogState, string> = {
  created: 'created, not started',
  started: 'started (created and started)',
  'in-process': 'in process',
  operator: 'operator',
  completed: 'completed',
};

/** The API's triggers on an existing dialog (§3, §4.2), by the word tests and ids use. */
export const TRIGGERS = {
  start: 'postV2ConversationStart',
  stop: 'postV2ConversationStop',
  send: 'postV2ConversationSend',
  command: 'postV2ConversationCommand',
} as const satisfies Record<string, OperationId>;
export type Trigger = keyof typeof TRIGGERS;

/** The triggers that make a dialog (§3: from no state), and the state each leaves it in. */
export const CREATES = {
  getV1DialogCreate: 'created',
  getV2DialogCreate: 'created',
  postV2DialogCreate: 'started',
} as const satisfies Partial<Record<OperationId, DialogState>>;
export type CreateTrigger = keyof typeof CREATES;

/** The operations that change a dialog: its creates and the triggers (§3, §4.2). */
export type WriteOperation = CreateTrigger | (typeof TRIGGERS)[Trigger];

/** The one pseudo-state of the table: before a create there is no dialog. */
export const NO_DIALOG = '(none)';

/** A pair of the matrix as reports and skips name it: "operator × start", "(none) × getV1DialogCreate". */
export const pairKey = (state: DialogState | typeof NO_DIALOG, trigger: Trigger | CreateTrigger) => `${state} × ${trigger}`;

/** Every pair of §3 the API can reach: each create from no dialog, each trigger from each state. */
export const STATE_PAIRS: readonly string[] = [
  ...Object.keys(CREATES).map((create) => pairKey(NO_DIALOG, create as CreateTrigger)),
  ...DIALOG_STATES.flatMap((state) => Object.keys(TRIGGERS).map((trigger) => pairKey(state, trigger as Trigger))),
];

/** What a trigger does when it answers its documented success (§3, §4.2), in the spec's words. */
export const DOCUMENTED_EFFECT: Record<Trigger, string> = {
  start: 'in process (status in-process), response 204 (§3; §4.2 "resume a dialog")',
  stop: 'operator: an operator is connected, response 204 (§3; §4.2)',
  send: 'the message is sent, response 204 (§4.2); its state afterwards is not stated',
  command: 'the dialog is moved to the target bot (§4.2 "move the dialog to another bot"); its success status is not shown',
};

/** The id a walked pair's observation has: "transition.start.from-operator". */
export const transitionId = (trigger: Trigger, from: DialogState) => `transition.${trigger}.from-${from}` as const;
