// What a goto's evidence leaves not judged, and why: the holding and breaking cases are checks/examples.ts's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveParts, variablesShown, type MoveEvidence } from './effects.ts';

test('variables show when every value passed is among the answers of the data', () => {
  const data = [{ answer: 'Ada' }, { answer: 'K-42' }];
  assert.equal(variablesShown(data, { name: 'Ada', contract: 'K-42' }), true);
  assert.equal(variablesShown(data, { name: 'Ada', contract: 'K-43' }), false);
  // In any form a store may keep a text (trimmed, NFC): still shown; a character lost is not.
  assert.equal(variablesShown([{ answer: 'Ada' }, { answer: 'Jos\u00e9' }], { name: ' Ada ', city: 'Jose\u0301' }), true);
  assert.equal(variablesShown([{ answer: 'Ada' }, { answer: 'Jose' }], { name: 'Ada', city: 'Jos\u00e9' }), false);
});

const moved: MoveEvidence = { read: 200, v2: { underTarget: true, underSource: false, listedBefore: true }, v1: { underTarget: true } };

test('a move every list and the read show is judged in every part', () => {
  assert.deepEqual(moveParts(moved), {
    seen: { readable: true, underTarget: true, underSource: false, v1UnderTarget: true },
    wanted: { readable: true, underTarget: true, underSource: false, v1UnderTarget: true },
    unjudged: [],
  });
});

test('what no lookup found is not judged, with why; the read by its own UUID always is', () => {
  const { seen, unjudged } = moveParts({
    read: 404,
    v2: { underTarget: false, underSource: false, listedBefore: false },
    v1: { noTwin: 'no V1 item like it' },
  });
  assert.deepEqual(seen, { readable: false });
  assert.match(unjudged[0]!, /^the V2 list showed the dialog under neither bot, before the move or after it/);
  assert.equal(unjudged[1], 'no V1 id for the dialog, before the move or after it: no V1 item like it');
});

test('a dialog the list showed before the move is judged by the lists after it, even where no V1 twin was found', () => {
  const { seen, unjudged } = moveParts({ ...moved, v2: { underTarget: false, underSource: false, listedBefore: true }, v1: { noTwin: 'x' } });
  assert.deepEqual(seen, { readable: true, underTarget: false, underSource: false });
  assert.equal(unjudged.length, 1);
});
