import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJunit } from './junit.ts';

test("a contract failure is a <failure> with its ticket's headline, a crash an <error>, a skip or a test not judged <skipped>; a suite per spec file", () => {
  const xml = runJunit('dialog-contract', [
    { file: 'v2/create.spec.ts', name: 'creates', project: 'api', seconds: 0.5, outcome: { kind: 'passed' } },
    {
      file: 'v2/create.spec.ts',
      name: 'reads <it>',
      project: 'api',
      seconds: 1,
      outcome: {
        kind: 'failure',
        message: '[Dialog Bot Service] GET /v2/conversation/{uuid}: source: expected required property',
        text: 'the failure',
        ids: ['contract.x a 200 /source'],
      },
    },
    { file: 'v1/lists.spec.ts', name: 'pages', project: 'api', seconds: 0, outcome: { kind: 'error', message: "TypeError: cannot read 'x'", text: 'stack' } },
    { file: 'v1/lists.spec.ts', name: 'waits', project: 'api', seconds: 0, outcome: { kind: 'skipped', message: 'not judged: an answer was lost' } },
  ]);
  assert.match(xml, /^<testsuites name="dialog-contract" tests="4" failures="1" errors="1" skipped="1" time="1\.500">/m);
  assert.match(xml, /<testsuite name="v2\/create\.spec\.ts" tests="2" failures="1" errors="0" skipped="0"/);
  assert.match(xml, /<testcase name="reads &lt;it&gt;" classname="\[api\] v2\/create\.spec\.ts" time="1\.000">/);
  assert.match(xml, /<property name="contract-failure" value="contract\.x a 200 \/source"\/>/);
  assert.match(
    xml,
    /<failure message="\[Dialog Bot Service\] GET \/v2\/conversation\/\{uuid\}: source: expected required property" type="contract">the failure<\/failure>/,
  );
  assert.match(xml, /<error message="TypeError: cannot read 'x'" type="crash">stack<\/error>/);
  assert.match(xml, /<skipped message="not judged: an answer was lost"\/>/);
  assert.equal((xml.match(/<error/g) ?? []).length, 1, 'a contract failure is never an <error>');
});
