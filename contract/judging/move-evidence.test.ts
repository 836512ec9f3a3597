import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeAfterMove, judgeMove, type MoveEvidence } from './move-evidence.ts';

const moved: MoveEvidence = { read: 200, v2: { underTarget: true, underSource: false, listedBefore: true }, v1: { underTarget: true } };
const holds = (e: MoveEvidence) => {
  const { observed, equals } = judgeMove(e);
  return JSON.stringify(observed) === JSON.stringify(equals);
};

test('a move every list and the read show holds, with every part judged', () => {
  assert.deepEqual(judgeMove(moved), {
    observed: { readable: true, underTarget: true, underSource: false, v1UnderTarget: true },
    equals: { readable: true, underTarget: true, underSource: false, v1UnderTarget: true },
    unjudged: [],
  });
});

test('a dialog lost by the move is judged: it no longer reads, or the lists that showed it before show it nowhere', () => {
  assert.equal(holds({ ...moved, read: 404 }), false);
  assert.equal(holds({ ...moved, v2: { underTarget: false, underSource: false, listedBefore: true } }), false);
  // Even when no list ever showed it: the read by its own UUID needs no lookup.
  const vanished = judgeMove({ read: 404, v2: { underTarget: false, underSource: false, listedBefore: false }, v1: { noTwin: 'none' } });
  assert.deepEqual(vanished.observed, { readable: false });
  assert.equal(vanished.unjudged.length, 2);
});

test('a dialog left on its bot fails in V2 or in V1, each by its own list', () => {
  assert.equal(holds({ ...moved, v2: { underTarget: false, underSource: true, listedBefore: true } }), false);
  assert.equal(holds({ ...moved, v1: { underTarget: false } }), false);
});

test('what no lookup found is not judged, with why, and the rest is judged', () => {
  const { observed, unjudged } = judgeMove({
    ...moved,
    v2: { underTarget: false, underSource: false, listedBefore: false },
    v1: { noTwin: 'no V1 item like it' },
  });
  assert.deepEqual(observed, { readable: true });
  assert.match(unjudged[0]!, /^the V2 list showed the dialog under neither bot/);
  assert.equal(unjudged[1], 'no V1 id for the dialog, before the move or after it: no V1 item like it');
  assert.equal(holds({ ...moved, v1: { noTwin: 'x' } }), true);
});

test("a trigger on a moved dialog is taken where it is taken on one not moved; refused on both, it is the vendor's choice", () => {
  const taken = { status: 204, success: true };
  const refused = { status: 404, success: false };
  assert.equal(judgeAfterMove(taken, taken).holds, true);
  assert.deepEqual(judgeAfterMove(taken, refused), {
    expected: 'taken, as on a dialog in the same state that was not moved (it still exists and is accessible)',
    observed: 'refused',
    holds: false,
  });
  assert.equal(judgeAfterMove(refused, refused).holds, true);
  assert.equal(judgeAfterMove({ status: 403, success: false }, taken).holds, true);
});
