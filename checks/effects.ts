// What §3 and §4.2 say a write does, judged from the dialog read after it: a GET create leaves it created, not
// started (the same state in V1 and V2), a POST create starts it, start leads to in process, stop to the operator
// state, command goto to the target bot. The status strings but in-process are not shown: the operator state and the
// not-started one are told by being no other state's. And the effect a --contract-from baseline saw of a write whose
// effect the spec leaves open (effect_of_send): held as learned. Pure.
import { showValue } from '../lib/failure.ts';
import type { Json } from '../lib/json.ts';
import { defineCheck } from './check.ts';

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

export const gotoMoves = defineCheck({
  name: 'effect_of_goto',
  sections: ['4.2', '1.6'],
  severity: 'high',
  statement: 'a command goto answered 2XX moves the dialog: listed under the target bot, by V2 and V1, and no longer under the source',
  evidence: 'write',
  places: ['bot of the dialog afterwards'],
  judge: (seen: { underTarget: boolean; underSource: boolean; v1UnderTarget: boolean }) => {
    const wanted = { underTarget: true, underSource: false, v1UnderTarget: true };
    return [
      {
        at: 'bot of the dialog afterwards',
        holds: showValue(seen) === showValue(wanted),
        expected: showValue(wanted),
        observed: showValue({ underTarget: seen.underTarget, underSource: seen.underSource, v1UnderTarget: seen.v1UnderTarget }),
      },
    ];
  },
});

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
