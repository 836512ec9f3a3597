import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JournalledDialog } from '../core/journal.ts';
import { leftOver } from './leftover-dialogs.ts';

const made = (uuid: string): JournalledDialog => ({ uuid, botId: 1, via: 'v2-post', test: 't' });

test('left over: journalled dialogs whose stop no one made or the target did not answer, each once', () => {
  const journal = [made('a'), made('b'), made('c'), made('d'), made('a')];
  const cleaned = [
    { uuid: 'a', cleanupStatus: 204 },
    { uuid: 'b', cleanupStatus: 0 },
    { uuid: 'c', cleanupStatus: 502 },
    { uuid: 'x', cleanupStatus: 204 },
  ];
  assert.deepEqual(
    leftOver(journal, cleaned).map((d) => d.uuid),
    ['b', 'c', 'd'],
  );
  assert.deepEqual(
    leftOver(journal, [{ uuid: 'd', cleanupStatus: 409 }]).map((d) => d.uuid),
    ['a', 'b', 'c'],
    'a 4xx is an answer: the dialog was dealt with',
  );
});
