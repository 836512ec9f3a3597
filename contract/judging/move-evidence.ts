// What a goto's evidence proves (spec §4.2 "move the dialog to another bot"; §3: a moved dialog still "exists and is
// accessible"), told apart from what the run merely could not find. A read by the dialog's own identifier needs no
// lookup: a moved dialog that no longer reads is lost, whatever the lists say. A list search is a lookup: a dialog
// found in no list after the move, and in none before it either, says nothing of the move (the list may trail the run
// by more than LIST_SETTLE_S, the window may miss it), so that part is not judged; one the list showed before and
// shows nowhere after is lost from it. V1 lists the dialog by an integer id the run finds by its twin: with no twin
// found before or after the move, V1's part is not judged. Pure.

/** The move's evidence, gathered after a goto that answered success. */
export interface MoveEvidence {
  /** The status of the dialog's V2 read by its UUID right after the move. */
  read: number;
  /** The V2 list filtered by the target bot (read until it shows there), by the source bot, and by the source before the move. */
  v2: { underTarget: boolean; underSource: boolean; listedBefore: boolean };
  /** The V1 list filtered by the target bot, by the dialog's V1 id; or why no V1 id could be found. */
  v1: { underTarget: boolean } | { noTwin: string };
}

/** The judged parts, observed and as the spec asks them, and each part the run could not judge with why. */
export interface MoveVerdict {
  observed: Record<string, boolean>;
  equals: Record<string, boolean>;
  unjudged: string[];
}

export function judgeMove(e: MoveEvidence): MoveVerdict {
  const verdict: MoveVerdict = { observed: { readable: e.read === 200 }, equals: { readable: true }, unjudged: [] };
  const judge = (part: string, seen: boolean, asked: boolean) => {
    verdict.observed[part] = seen;
    verdict.equals[part] = asked;
  };
  const { underTarget, underSource, listedBefore } = e.v2;
  if (underTarget || underSource || listedBefore) {
    judge('underTarget', underTarget, true);
    judge('underSource', underSource, false);
  } else verdict.unjudged.push('the V2 list showed the dialog under neither bot, before the move or after it: no list the run could read shows where it is');
  if ('noTwin' in e.v1) verdict.unjudged.push(`no V1 id for the dialog, before the move or after it: ${e.v1.noTwin}`);
  else judge('v1UnderTarget', e.v1.underTarget, true);
  return verdict;
}

/** A trigger's answer: its status, and whether that is the trigger's documented success. */
export interface TriggerAnswer {
  status: number;
  success: boolean;
}

/**
 * A trigger on a moved dialog against the same trigger on a dialog in the same state that was not moved. A moved
 * dialog still exists and is accessible (§3's condition of start and stop; §4.2 send), so what the vendor takes on one
 * it takes on the other; what it refuses on both is its own choice of states (§3: condition not shown), recorded only.
 */
export function judgeAfterMove(notMoved: TriggerAnswer, moved: TriggerAnswer): { expected: string; observed: string; holds: boolean } {
  const observed = moved.success ? 'taken' : 'refused';
  return notMoved.success
    ? { expected: 'taken, as on a dialog in the same state that was not moved (it still exists and is accessible)', observed, holds: moved.success }
    : { expected: 'any answer: on a dialog in the same state not moved it was refused (which states allow it is not shown)', observed, holds: true };
}
