import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cell, fenced, inline } from './markdown.ts';

test('a fence outlasts every run of backticks in the text it holds', () => {
  const text = 'body:\n```\n# not a heading\n````x';
  const out = fenced(text);
  const fence = out.split('\n')[0]!.replace('text', '');
  assert.equal(fence, '`````');
  assert.ok(out.endsWith(`\n${fence}`));
  assert.equal(fenced('plain'), '```text\nplain\n```');
});

test('vendor text stays text: no column break, no link, no image', () => {
  assert.equal(cell('a|b\nc'), 'a\\|b c');
  assert.equal(inline('![x](http://t.example/p.png) [y](z) *b* `c`'), '\\!\\[x\\](http://t.example/p.png) \\[y\\](z) \\*b\\* \\`c\\`');
});
