import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsText, sameName, sameText, storedForm } from './stored-text.ts';

const SENT = ' e\u0301 <b> & "q"\r\nx ';

test('a text stored whole in any form a store may keep it is the text sent; one with a character lost or replaced is not', () => {
  for (const shown of [SENT, SENT.trim(), SENT.normalize('NFC'), SENT.replace('\r\n', '\n'), '\u00e9 &lt;b&gt; &amp; &quot;q&quot;\nx'])
    assert.ok(sameText(SENT, shown), JSON.stringify(shown));
  for (const shown of ['e <b> & "q"\nx', '\u00e9 <b> & "q"\r\n', '\u00e9 <b> & ?q?\nx', 'Ã© <b> & "q"\nx', '\ufffd <b> & "q"\nx'])
    assert.ok(!sameText(SENT, shown), JSON.stringify(shown));
  // A literal escape sent stays itself on a store that escapes nothing, and is read back on one that escapes.
  assert.ok(sameText('a &lt; b', 'a &lt; b') && sameText('a &lt; b', 'a &amp;lt; b'));
  assert.ok(holdsText('[operator] \u00e9 ok', 'e\u0301 ok') && !holdsText('[operator] e ok', '\u00e9 ok'));
  assert.ok(sameName('Имя', 'имя') && !sameName('имя', 'Ð¸Ð¼Ñ') && !sameName('имя', null));
});

test('how a store kept a text: as sent, the fewest forms that explain it, changed otherwise, or not shown', () => {
  assert.deepEqual(storedForm(SENT, SENT), ['as sent']);
  assert.deepEqual(storedForm(SENT, SENT.trim()), ['trimmed']);
  assert.deepEqual(storedForm(SENT, SENT.normalize('NFC').trim()), ['NFC-normalized', 'trimmed']);
  assert.deepEqual(storedForm(SENT, SENT.replace('\r\n', '\n')), ['line breaks CRLF as LF']);
  assert.deepEqual(storedForm(SENT, ' e\u0301 &lt;b&gt; &amp; &quot;q&quot;\r\nx '), ['HTML-escaped']);
  assert.deepEqual(storedForm(SENT, 'e <b>'), ['changed otherwise']);
  assert.deepEqual(storedForm(SENT, undefined), ['not shown']);
});
