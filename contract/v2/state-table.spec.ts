// Spec §3 walked: each trigger of the API from each state a run can bring a dialog into (a completed one is the
// errors spec's, from the bot's history), through contract/state-walk.ts. Which states allow a trigger is not shown
// ("any (condition not shown)"): each pair's answer is recorded. What a documented success leads to is asserted.
import { eachRun, test, expect } from '../api-test.ts';
import { shapeOf } from '../requests.ts';
import { AFTERWARDS, created, reach, step } from '../state-walk.ts';
import { DOCUMENTED_EFFECT, pairKey, STATE_WORDS, transitionId, TRIGGERS, type Trigger } from '../state-table.ts';

const WALKED_FROM = ['created', 'started', 'in-process', 'operator'] as const;

eachRun(() => {
  test('GET create leaves a dialog created, not started, in either version alike; POST create starts it', async ({ walk: w }) => {
    const [v1, v2] = [await created(w, 'v1-get'), await created(w, 'v2-get')];
    const post = await created(w, 'v2-post');
    // One state, one status (§3 gives both GET creates the same next state); "started" is another state.
    const notStarted = v1.read.record?.status;
    expect(v2.response).toHold({
      check: 'effect_of_create',
      at: AFTERWARDS,
      section: '3',
      expected: 'the status a V1 GET create leaves: the same state, created, not started',
      observed: v2.read.record?.status === notStarted ? 'the same status' : 'another status',
      equals: 'the same status',
      details: { v1Create: notStarted ?? null, v2Create: v2.read.record?.status ?? null },
      against: v1.response,
      shownBy: [v1.read.response, v2.read.response],
    });
    expect(post.response).toHold({
      check: 'effect_of_create',
      at: AFTERWARDS,
      section: '3',
      expected: 'started: a status other than that of a dialog created, not started',
      observed: post.read.record?.status === notStarted ? 'the status of a dialog not started' : 'another status',
      equals: 'another status',
      details: { notStarted: notStarted ?? null, started: post.read.record?.status ?? null },
      shownBy: [post.read.response, v1.read.response],
    });
  });

  for (const from of WALKED_FROM) {
    for (const trigger of Object.keys(TRIGGERS) as Trigger[]) {
      test(`${trigger} on a dialog ${STATE_WORDS[from]}: its answer is recorded; a success leads where §3 says (${DOCUMENTED_EFFECT[trigger]})`, async ({
        walk: w,
        bodies,
        observe,
      }) => {
        const id = transitionId(trigger, from);
        const covers = { transitions: [pairKey(from, trigger)], observations: [id] };
        const shape = shapeOf(TRIGGERS[trigger]);
        if (shape) w.precondition(!bodies.missing(shape), bodies.missing(shape) ?? '', covers);
        const { dialog, read } = await reach(w, from, covers);
        const { res, after } = await step(w, dialog, from, trigger, read);
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
