// What §3 and §4.2 say a write does, judged from the dialog read after it: a GET create leaves it created, not
// started (the same state in V1 and V2), a POST create starts it, start leads to in process, stop to the operator
// state, command goto to the target bot, and a moved dialog still takes what one not moved takes; variables passed
// through any documented place show where those of another place show. The status strings but in-process are not
// shown: the operator state and the not-started one are told by being no other state's. And the effect a
// --contract-from baseline saw of a write whose effect the spec leaves open (effect_of_send): held as learned. Pure.
import { showValue } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import { defineCheck, type Finding } from './check.ts';
import { holdsText, sameName, sameText } from './stored-text.ts';

/** Where a state change shows: the dialog's status read right after the action (GET /v2/conversation/{uuid}). */
export const AFTERWARDS = 'status of the dialog afterwards';

const isString = (status: unknown): status is string => typeof status === 'string';

export const createNotStarted = defineCheck({
  name: 'effect_of_create',
  sections: ['3'],
  severity: 'high',
  statement: 'a GET create leaves the dialog created, not started: a status other than "in-process" and "completed"',
  evidence: 'write',
  places: [AFTERWARDS],
  judge: ({ after }: { after: string | undefined }) => [
    {
      at: AFTERWARDS,
      holds: isString(after) && after !== 'in-process' && after !== 'completed',
      expected: 'created, not started: a status other than "in-process" and "completed" (the bot publishes no messages)',
      observed: showValue(after),
    },
  ],
});

export const createsAlike = defineCheck({
  name: 'effect_of_create.same_in_both_versions',
  sections: ['3'],
  severity: 'high',
  statement: 'a V2 GET create leaves the status a V1 GET create leaves: one state, created, not started',
  evidence: 'write',
  places: [AFTERWARDS],
  judge: ({ v1Create, v2Create }: { v1Create: string | undefined; v2Create: string | undefined }) => [
    {
      at: AFTERWARDS,
      holds: v2Create === v1Create,
      expected: 'the status a V1 GET create leaves: the same state, created, not started',
      observed: showValue(v2Create === v1Create ? 'the same status' : 'another status'),
      details: { v1Create: v1Create ?? null, v2Create: v2Create ?? null },
    },
  ],
});

export const postCreateStarts = defineCheck({
  name: 'effect_of_create.post_starts',
  sections: ['3'],
  severity: 'high',
  statement: 'a POST create starts the dialog: a status other than that of a dialog created, not started',
  evidence: 'write',
  places: [AFTERWARDS],
  judge: ({ notStarted, started }: { notStarted: string | undefined; started: string | undefined }) => [
    {
      at: AFTERWARDS,
      holds: started !== notStarted,
      expected: 'started: a status other than that of a dialog created, not started',
      observed: showValue(started === notStarted ? 'the status of a dialog not started' : 'another status'),
      details: { notStarted: notStarted ?? null, started: started ?? null },
    },
  ],
});

export const createNotOperator = defineCheck({
  name: 'effect_of_create.not_operator',
  sections: ['3'],
  severity: 'high',
  statement: 'neither create leaves the dialog in the operator state a stop leads to',
  evidence: 'write',
  places: [AFTERWARDS],
  judge: ({ created, operator, started }: { created: string | undefined; operator: string | undefined; started: boolean }) => [
    {
      at: AFTERWARDS,
      holds: created !== operator,
      expected: `${started ? 'started' : 'created, not started'}: not the operator state a stop leads to`,
      observed: showValue(created === operator ? 'the status of a dialog with an operator' : 'another status'),
      details: { created: created ?? null, operator: operator ?? null },
    },
  ],
});

/** Whether the values of variables passed at a create show among its dialog's data (§2.2: data collected in the dialog). */
export const variablesShown = (data: ReadonlyArray<{ answer?: unknown }>, variables: Readonly<Record<string, unknown>>): boolean =>
  Object.values(variables).every((value) =>
    // A text value in any form a store may keep it (stored-text.ts: NFC, trimmed, CRLF as LF, HTML-escaped).
    data.some((item) => item.answer === value || (typeof value === 'string' && typeof item.answer === 'string' && sameText(value, item.answer))),
  );

/**
 * The documented places of a create's variables (§4.1, §4.2): POST's query alone, its JSON body alone, both with one
 * value; a GET create's query (V1 and V2 alike).
 */
export type VariablesPlace = 'in the query alone' | 'in the JSON body alone' | 'in both, agreeing' | 'in the query';
const VARIABLES_PLACES: readonly VariablesPlace[] = ['in the query alone', 'in the JSON body alone', 'in both, agreeing', 'in the query'];

/** What variables passed through one place did, beside those passed through the others. */
export interface VariablesEvidence {
  place: VariablesPlace;
  /** The create that passed them: its section is the finding's. */
  operation: 'getV1DialogCreate' | 'getV2DialogCreate' | 'postV2DialogCreate';
  /** Whether their values show among the answers of the dialog's data (§2.2: data collected in the dialog). */
  shown: boolean;
  /** The other places, in words, through which variables of their own showed in their dialogs. */
  shownThrough: readonly string[];
}

export const variablesPassed = defineCheck({
  name: 'effect_of_create.variables',
  sections: ['4.2', '4.1', '1.4'],
  severity: 'high',
  statement:
    "variables passed at a create through one documented place show in its dialog's data where those passed through another place show (one meaning: passed into the dialog)",
  evidence: 'write',
  places: VARIABLES_PLACES.map((p) => `variables ${p}`),
  // Shown through no place: how a dialog carries them is not stated (§1.4 "can be passed"; observed as
  // variables.in-record), so every place holds.
  judge: ({ place, operation, shown, shownThrough }: VariablesEvidence): Finding[] => [
    {
      at: `variables ${place}`,
      section: operation === 'getV1DialogCreate' ? '4.1' : '4.2',
      holds: shown || shownThrough.length === 0,
      expected: shownThrough.length
        ? `shown in the dialog's data, as variables passed ${shownThrough.join(' and ')} are (one meaning in every place: passed into the dialog)`
        : 'any: variables passed in no place showed in the dialog (how a dialog carries them is not stated)',
      observed: showValue(shown ? 'shown' : 'not shown'),
    },
  ],
});

export const startResumes = defineCheck({
  name: 'effect_of_start',
  sections: ['3'],
  severity: 'high',
  statement: 'a start answered 204 leaves the dialog "in-process"; one refused with 403 leaves a completed dialog completed',
  evidence: 'write',
  places: [AFTERWARDS],
  judge: ({ answered, after }: { answered: number; after: string | null | undefined }) => {
    const refused = answered === 403;
    return [
      {
        at: AFTERWARDS,
        holds: after === (refused ? 'completed' : 'in-process'),
        expected: refused ? '"completed" still, the start being refused' : '"in-process"',
        observed: showValue(after),
      },
    ];
  },
});

export const stopConnectsOperator = defineCheck({
  name: 'effect_of_stop',
  sections: ['3'],
  severity: 'high',
  statement:
    'a stop answered 204 leaves the dialog in the operator state: a status other than "in-process", "completed" and the one it had (from the operator state, the same)',
  evidence: 'write',
  places: [AFTERWARDS],
  judge: ({ from, before, after }: { from: string; before: string | undefined; after: string | undefined }) => {
    // The operator state's string is not shown; it is no other state's: not in-process, not completed, and, from any
    // state but the operator state itself, not the status the dialog had.
    const stays = from === 'operator';
    return [
      {
        at: AFTERWARDS,
        holds: isString(after) && after !== 'in-process' && after !== 'completed' && (stays ? after === before : after !== before),
        expected: stays
          ? 'the operator state still: the status the dialog had'
          : 'the operator state: a status other than "in-process", "completed", the one the dialog had and that of a dialog not started',
        observed: showValue(after === before ? `"${after}", the status it had` : `"${after}"`),
        details: { before: before ?? null, from },
      },
    ];
  },
});

/** Where a move shows: the bot the lists file the dialog under, and its read by its UUID, right after a goto. */
export const MOVED = 'bot of the dialog afterwards';

/** A goto's evidence, gathered after it answered success. */
export interface MoveEvidence {
  /** The status of the dialog's V2 read by its UUID right after the move. */
  read: number;
  /** The V2 list filtered by the target bot (read until it shows there), by the source bot, and by the source before the move. */
  v2: { underTarget: boolean; underSource: boolean; listedBefore: boolean };
  /** The V1 list filtered by the target bot, by the dialog's V1 id; or why no V1 id could be found. */
  v1: { underTarget: boolean } | { noTwin: string };
}

/**
 * What a goto's evidence proves (§4.2 "move the dialog to another bot"; §3: a moved dialog still "exists and is
 * accessible"), told apart from what the run merely could not find. A read by the dialog's own UUID needs no lookup: a
 * moved dialog that no longer reads is lost, whatever the lists say. A list search is a lookup: a dialog no list showed
 * before the move nor after it says nothing of the move (the list may trail the run by more than LIST_SETTLE_S), so
 * that part is not judged; one the list showed before and shows nowhere after was lost from it. V1 lists the dialog by
 * an integer id the run finds by its twin: with no twin found, V1's part is not judged.
 */
export function moveParts(e: MoveEvidence): { seen: Record<string, boolean>; wanted: Record<string, boolean>; unjudged: string[] } {
  const parts = {
    seen: { readable: e.read === 200 } as Record<string, boolean>,
    wanted: { readable: true } as Record<string, boolean>,
    unjudged: [] as string[],
  };
  const judged = (part: string, seen: boolean, wanted: boolean) => {
    parts.seen[part] = seen;
    parts.wanted[part] = wanted;
  };
  const { underTarget, underSource, listedBefore } = e.v2;
  if (underTarget || underSource || listedBefore) {
    judged('underTarget', underTarget, true);
    judged('underSource', underSource, false);
  } else parts.unjudged.push('the V2 list showed the dialog under neither bot, before the move or after it: no list the run could read shows where it is');
  if ('noTwin' in e.v1) parts.unjudged.push(`no V1 id for the dialog, before the move or after it: ${e.v1.noTwin}`);
  else judged('v1UnderTarget', e.v1.underTarget, true);
  return parts;
}

export const gotoMoves = defineCheck({
  name: 'effect_of_goto',
  sections: ['4.2', '1.6'],
  severity: 'high',
  statement:
    'a command goto answered 2XX moves the dialog: it still reads by its UUID, and is listed under the target bot, by V2 and V1, and no longer under the source (a list that never showed it is not judged)',
  evidence: 'write',
  places: [MOVED],
  judge: (e: MoveEvidence) => {
    const { seen, wanted } = moveParts(e);
    return [{ at: MOVED, holds: showValue(seen) === showValue(wanted), expected: showValue(wanted), observed: showValue(seen) }];
  },
});

/** Where a trigger on a moved dialog is held to the same trigger on a dialog in the same state that was not moved. */
export const AFTER_MOVE = 'answer after a move to another bot';

/**
 * A trigger on a moved dialog against the same trigger on a dialog in the same state that was not moved. A moved dialog
 * still exists and is accessible (§3's condition of start and stop; §4.2 send and command), so what the vendor takes
 * on one it takes on the other; what it refuses on both is its own choice of states (§3: condition not shown).
 */
const afterMove = <const N extends string>(name: N, what: string, section: string, taken: (status: number) => boolean) =>
  defineCheck({
    name,
    sections: [section, '4.2'],
    severity: 'high',
    statement: `${what} on a dialog moved to another bot is taken where it is taken on a dialog in the same state that was not moved`,
    evidence: 'write',
    places: [AFTER_MOVE],
    judge: ({ notMoved, moved }: { notMoved: number; moved: number }): Finding[] => [
      {
        at: AFTER_MOVE,
        holds: taken(moved) || !taken(notMoved),
        expected: taken(notMoved)
          ? 'taken, as on a dialog in the same state that was not moved (it still exists and is accessible)'
          : 'any answer: on a dialog in the same state not moved it was refused (which states allow it is not shown)',
        observed: showValue(taken(moved) ? 'taken' : 'refused'),
        details: { moved, notMoved },
      },
    ],
  });

const is204 = (status: number) => status === 204;
export const startAfterMove = afterMove('effect_of_start.after_move', 'a start', '3', is204);
export const stopAfterMove = afterMove('effect_of_stop.after_move', 'a stop', '3', is204);
export const sendAfterMove = afterMove('effect_of_send.after_move', "an operator's message", '4.2', is204);
export const gotoAfterMove = afterMove('effect_of_goto.after_move', 'a goto', '4.2', (status) => status >= 200 && status < 300);

export const sendAsBaselineSaw = defineCheck({
  name: 'effect_of_send',
  sections: ['2.1'],
  severity: 'medium',
  statement: "with --contract-from, an operator's message does to updated what the baseline saw it do (held as learned: §2.1 leaves it open)",
  evidence: 'write',
  places: ['updated of the dialog afterwards'],
  judge: ({ at, item, observed, before, baseline }: { at: string; item: string; observed: string; before: Json; baseline: string }) => [
    {
      at,
      holds: observed === before,
      expected: `${String(before)}, as baseline ${baseline} observed (${item})`,
      observed: showValue(observed),
      details: { baseline },
    },
  ],
});

/** Where a text a write carried shows again: the dialog's data read after it. */
export const AS_SENT = 'text of the message afterwards';
export const AS_PASSED = 'variables afterwards';

/**
 * An operator's message in any script, read back (§4.2 send "carries the message text to send"; §2.2 data): where the
 * dialog's data shows a plain text the run sent (observed as send.in-record: whether it shows at all is not said),
 * every text shows there with no character lost, replaced or garbled. What a store may do to a text without losing
 * any of it (NFC, trimming, CRLF as LF, HTML-escaping: stored-text.ts) is its own choice, observed as send.stored-text.
 */
export const textAsSent = defineCheck({
  name: 'effect_of_send.text_as_sent',
  sections: ['4.2', '2.2'],
  severity: 'high',
  statement: "a message's text shows in the dialog's data with no character lost or changed, wherever a plain text the run sent shows there",
  evidence: 'write',
  places: [AS_SENT],
  judge: ({ plainShown, text, answers }: { plainShown: boolean; text: string; answers: readonly string[] }): Finding[] => {
    if (!plainShown) return [];
    const shown = answers.some((answer) => holdsText(answer, text));
    return [
      {
        at: AS_SENT,
        holds: shown,
        expected:
          'the text as it was sent (in any form a store keeps a text whole: NFC, trimmed, CRLF as LF, HTML-escaped), in the data where a plain text the run sent shows',
        observed: shown ? 'shown as sent' : 'not shown as sent',
        ...(shown ? {} : { value: answers.at(-1) ?? null, details: { sent: text } }),
      },
    ];
  },
});

/**
 * Variables in any script, read back (§4.1, §4.2 "values passed into the dialog"; §2.2 variable "Name of the variable
 * that holds the answer"): where a plain variable the run passed shows in the data as an answer (with its name as
 * `variable`), each text value passed shows there with no character lost or changed, under its name (in any case)
 * where the plain one's showed. How other JSON values (numbers, objects) show is not said: they are only passed.
 */
export const variablesAsPassed = defineCheck({
  name: 'effect_of_create.variables_as_passed',
  sections: ['4.2', '4.1', '2.2'],
  severity: 'high',
  statement: "variables' text values show in the dialog's data with no character lost or changed, wherever a plain variable the run passed shows there",
  evidence: 'write',
  places: [AS_PASSED],
  judge: ({
    plain,
    variables,
    data,
  }: {
    plain: { shown: boolean; named: boolean };
    variables: Record<string, unknown>;
    data: ReadonlyArray<{ answer: string; variable: string | null }>;
  }): Finding[] => {
    if (!plain.shown) return [];
    const texts = Object.entries(variables).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    const lost = texts.filter(([name, value]) => !data.some((item) => sameText(value, item.answer) && (!plain.named || sameName(name, item.variable))));
    return [
      {
        at: AS_PASSED,
        holds: lost.length === 0,
        expected: `each text value in the data as it was passed (in any form a store keeps a text whole)${plain.named ? ', under its name' : ''}, where a plain variable the run passed shows`,
        observed: lost.length === 0 ? 'shown as passed' : 'not shown as passed',
        ...(lost.length === 0 ? {} : { details: { lost: Object.fromEntries(lost) } }),
      },
    ];
  },
});
