import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exitCode, judged, verdictJunit, verdictLine, verdictMarkdown, type RunVerdict } from './verdict.ts';

test('each end of a run has its own exit code, and only pass and drift judged the contract', () => {
  const ends: Array<[RunVerdict, number, boolean]> = [
    [{ kind: 'pass' }, 0, true],
    [{ kind: 'drift' }, 1, true],
    [{ kind: 'config', reason: 'contract: BOT_ID is not a number' }, 2, false],
    [{ kind: 'no-verdict', reason: 'credentials rejected' }, 3, false],
    [{ kind: 'cancelled', signal: 'SIGINT' }, 130, false],
    [{ kind: 'cancelled', signal: 'SIGTERM' }, 143, false],
  ];
  for (const [verdict, code, isJudged] of ends) {
    assert.equal(exitCode(verdict), code, verdict.kind);
    assert.equal(judged(verdict), isJudged, verdict.kind);
  }
});

test('a JUnit of a run that could not judge: one error with the reason (escaped), the tests not run as skipped', () => {
  const xml = verdictJunit({ kind: 'no-verdict', reason: 'GET https://x/api?a=1&b=<2> answered 404 "text/html"' }, ['[api] lists › A & B']);
  assert.match(xml, /<testsuites name="dialog-contract" tests="2" failures="0" errors="1" skipped="1">/);
  assert.match(
    xml,
    /<error message="dialog-contract: no verdict: GET https:\/\/x\/api\?a=1&amp;b=&lt;2&gt; answered 404 &quot;text\/html&quot;" type="no-verdict">/,
  );
  assert.match(
    xml,
    /<testcase classname="dialog-contract" name="\[api\] lists › A &amp; B">\n\s+<skipped message="not run: the run could not judge the contract"\/>/,
  );
});

test('the Markdown head says the verdict, what CI should do and what did not run', () => {
  const md = verdictMarkdown({ kind: 'cancelled', signal: 'SIGTERM' }, ['[api] a']);
  assert.match(md, /^## Cancelled\n\n> cancelled \(SIGTERM\): no verdict, no tickets/);
  assert.match(md, /the run was cancelled: its created dialogs were stopped; no tickets\./);
  assert.match(md, /Not run \(1\):\n\n- \[api\] a/);
  assert.equal(verdictLine({ kind: 'config', reason: 'contract: x' }), 'contract: x');
});

test('the Markdown of a run that could not judge lists each test and check that could not, with why', () => {
  const md = verdictMarkdown(
    { kind: 'no-verdict', reason: '2 checks could not judge' },
    [],
    ['[api] a: effect_of_goto at x: why', '[api] b: versions_agree at y: why'],
  );
  assert.match(md, /Not judged \(2\):\n\n- \[api\] a: effect_of_goto at x: why\n- \[api\] b: versions_agree at y: why\n/);
  assert.doesNotMatch(md, /Not run/);
});
