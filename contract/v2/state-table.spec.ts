// Spec §3 walked: each trigger of the API from each state a run can bring a dialog into (a completed one is the
// errors spec's, from the bot's history), through contract/api/state-walk.ts. Which states allow a trigger is not shown
// ("any (condition not shown)"): each pair's answer is recorded. What a documented success leads to is asserted.
import { eachRunApart, test } from '../fixtures/api-test.ts';
import { shapeOf } from '../api/requests.ts';
import { created, isSuccess, reach, step } from '../api/state-walk.ts';
import { judgeSoft } from '../judging/matchers.ts';
import { expectDialogVersionsAgree } from '../api/versions.ts';
import { dialogVariables } from '../../fixtures/builders.ts';
import { DOCUMENTED_EFFECT, pairKey, STATE_WORDS, transitionId, TRIGGERS, type Trigger, type WriteOperation } from '../core/state-table.ts';
import { afterId } from '../../report/variants.ts';

const WALKED_FROM = ['created', 'started', 'in-process', 'operator'] as const;
/** The write each state is reached by here (state-walk.ts reach): a trigger from it is tried right after that write. */
const REACHED_BY = {
  created: 'getV1DialogCreate',
  started: 'postV2DialogCreate',
  'in-process': TRIGGERS.start,
  operator: TRIGGERS.stop,
} as const satisfies Record<(typeof WALKED_FROM)[number], WriteOperation>;

eachRunApart(() => {
  test('GET create leaves a dialog created, not started, in either version alike; POST create starts it; each is a dialog of its own', async ({
    walk: w,
    fake,
  }) => {
    // Each dialog gets variables of its own (§1.4): what one was given never shows in another's data (§2.2).
    const given = () => dialogVariables(fake);
    const [v1, v2, post] = [await created(w, 'v1-get', given()), await created(w, 'v2-get', given()), await created(w, 'v2-post', given())];
    // One state, one status (§3 gives both GET creates the same next state); "started" is another state.
    const notStarted = v1.read.record?.status;
    // Soft: each create is judged on its own, and the operator's status below may name the one that drifted.
    judgeSoft(
      v2.response,
      'effect_of_create.same_in_both_versions',
      { v1Create: notStarted, v2Create: v2.read.record?.status },
      { against: v1.response, shownBy: [v1.read.response, v2.read.response] },
    );
    judgeSoft(
      post.response,
      'effect_of_create.post_starts',
      { notStarted, started: post.read.record?.status },
      { shownBy: [post.read.response, v1.read.response] },
    );
    const made = [v1, v2, post];
    // "dialog number" (§2.1): three dialogs, three numbers, whatever sequence the vendor numbers them by.
    judgeSoft(
      post.read.response,
      'name_conformance.own_number',
      { names: made.map((m) => m.read.record?.name ?? null) },
      { shownBy: made.map((m) => m.read.response) },
    );
    // "Data collected in the dialog" (§2.2): another dialog's variables are no data of this one.
    for (const [i, m] of made.entries()) {
      const own = Object.values(m.variables);
      const othersGiven = made.filter((_, j) => j !== i).flatMap((o) => Object.values(o.variables).filter((v) => !own.includes(v)));
      const answers = (m.read.record?.data ?? []).map((item) => item.answer);
      judgeSoft(m.read.response, 'meaning_conformance.data', { dialog: m.dialog.uuid, answers, othersGiven });
    }
    // The operator state is neither of the create's states: a stop shows its status (§3).
    const stopped = await step(w, v2.dialog, 'created', 'stop', v2.read);
    if (!isSuccess('stop', stopped.res.status)) return;
    const operator = stopped.after.record?.status;
    for (const m of [v1, post]) {
      const created = m.read.record?.status;
      judgeSoft(
        m.response,
        'effect_of_create.not_operator',
        { created, operator, started: m === post },
        { shownBy: [m.read.response, stopped.after.response] },
      );
    }
  });

  for (const from of WALKED_FROM) {
    for (const trigger of Object.keys(TRIGGERS) as Trigger[]) {
      test(`${trigger} on a dialog ${STATE_WORDS[from]}: its answer is recorded; a success leads where §3 says (${DOCUMENTED_EFFECT[trigger]})`, async ({
        walk: w,
        bodies,
        observe,
      }) => {
        const id = transitionId(trigger, from);
        const covers = { transitions: [pairKey(from, trigger)], observations: [id], variants: [afterId(TRIGGERS[trigger], REACHED_BY[from])] };
        const shape = shapeOf(TRIGGERS[trigger]);
        if (shape) w.precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
        const { dialog, read } = await reach(w, from, covers);
        // The test's own step: where it led is recorded below whether or not it is where §3 says.
        const { res, after } = await step(w, dialog, from, trigger, read, true);
        // One dialog, two views (§1.6, §2.2): V1 reads it as V2 does after the step too.
        await expectDialogVersionsAgree(w.api, w.dialogs, dialog, after);
        observe(res.operation, {
          id,
          section: '3',
          item: `${trigger} on a dialog ${STATE_WORDS[from]}: whether it is allowed (condition not shown) and the status afterwards`,
          observed: { status: res.status, after: after.record?.status ?? null },
          evidence: res.evidence(),
        });
      });
    }
  }
});
