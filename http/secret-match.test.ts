import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardSecret, secretWritten, suiteText, weakSecretWarning, writtenForms } from './secret-match.ts';

test("a random secret is matched anywhere; one that is short, a number, words or the suite's own text only as a value", () => {
  const how = (value: string, vocabulary = '') => {
    const g = guardSecret('S', value, suiteText(vocabulary));
    return [g.match, g.weakness ?? ''];
  };
  assert.deepEqual(how('sim-secret-7f3a9c'), ['anywhere', '']);
  assert.deepEqual(how('tok-123456'), ['anywhere', '']);
  assert.deepEqual(how('cWEtY29udHJhY3Q6cGFzc3dvcmQ='), ['anywhere', '']);
  assert.deepEqual(how('aBcDeFgHiJ'), ['anywhere', '']);
  assert.deepEqual(how('password'), ['value', 'it reads as ordinary words']);
  assert.deepEqual(how('wrong-password'), ['value', 'it reads as ordinary words']);
  assert.deepEqual(how('Correct Horse Battery'), ['value', 'it reads as ordinary words']);
  assert.deepEqual(how('20240131'), ['value', 'it is a number or a date']);
  assert.deepEqual(how('qa-pw1'), ['value', 'it has 6 characters']);
  assert.deepEqual(how('abc'), ['none', 'it has 3 characters']);
  // Not words, but written by the suite itself: a field name of the document, a slug of a title.
  assert.deepEqual(how('dialogUUID', 'properties:\n  dialogUUID: {type: string}'), [
    'value',
    "the suite's own text uses it (test titles, the OpenAPI document)",
  ]);
  assert.deepEqual(how('v1-auth-401', 'v1 › auth › 401'), ['value', "the suite's own text uses it (test titles, the OpenAPI document)"]);
});

test('the warning names the secret and the fix, never the value', () => {
  assert.equal(weakSecretWarning(guardSecret('API_PASSWORD', 'sim-secret-7f3a9c')), undefined);
  const weak = weakSecretWarning(guardSecret('API_PASSWORD', 'password'))!;
  assert.match(
    weak,
    /^API_PASSWORD is too short or too common to be guarded reliably \(it reads as ordinary words\): it is looked for only where a value is written .*; use a random value of 12 or more characters$/,
  );
  assert.ok(!weak.replace('API_PASSWORD', '').includes('password is'), 'the value is not in the warning');
  assert.match(
    weakSecretWarning(guardSecret('VERTEX_TOKEN', 'ab1'))!,
    /^VERTEX_TOKEN is too short to be guarded \(it has 3 characters\): no report or log is checked for it/,
  );
});

test('a secret is looked for in every form a value is written in', () => {
  assert.deepEqual(writtenForms('p@ss "wörd"&'), [
    'p@ss "wörd"&',
    'p@ss \\"wörd\\"&',
    'p@ss \\"w\\u00f6rd\\"&',
    'p%40ss%20%22w%C3%B6rd%22%26',
    'p%40ss+%22w%C3%B6rd%22%26',
    'p@ss &quot;wörd&quot;&amp;',
  ]);
  const strong = guardSecret('S', 'x7"Qz/9k&p');
  for (const text of ['{"token":"x7\\"Qz/9k&p"}', 'GET /send?token=x7%22Qz%2F9k%26p', '<td>x7&quot;Qz/9k&amp;p</td>', 'echoed x7"Qz/9k&p in prose'])
    assert.equal(secretWritten(text, strong), true, text);
});

// Where values are written: each a leak for a secret that reads as words. (An answer's body as a ticket renders it,
// "response: 200 text/plain password", reads as prose; failures.json and the HAR hold the same body as a value.)
const AS_VALUES = [
  '{"token":"password"}',
  '{\\"token\\":\\"password\\"}',
  '{"name":"x-api-key","value":"password"}',
  'X-Api-Key: password\n',
  'Authorization: Bearer password',
  'POST /api/v2/conversation/password/send',
  'GET /send?token=password&x=1',
  'token=password',
  'qa-contract:password',
  '{"status":200,"contentType":"text/plain","body":"password"}',
  '| body.send.accepted | password |',
  '<failure message="&quot;password&quot;">',
  '<td>password</td>',
  "'password'",
  'password',
];
// Where the suite and the vendor write words: none is a leak.
const NOT_VALUES = [
  'GET /v1/conversations rejects a missing or a wrong password with 401',
  '"_credentials":"wrong password"',
  '{"detail":"missing or wrong login or password (HTTP Basic)"}',
  '"Basic [redacted] (a wrong password)"',
  'how login, password and integration tokens are issued',
  '{"password":"********"}',
  'password: ********',
  'password=[redacted]',
  'test-results/v1-auth-GET-v1-conversatio-06bc9-r-a-wrong-password-with-401-api/error-context.md',
  'wrong-password-403',
  '<password>x</password>',
  'constructor({password:e,rawPassword:t}){e.password=null;pt=`Invalid password`}',
];

test('a secret that reads as words is a leak where a value is written, not where prose or a name is', () => {
  const weak = guardSecret('API_PASSWORD', 'password');
  assert.equal(weak.match, 'value');
  assert.deepEqual(
    AS_VALUES.filter((text) => !secretWritten(text, weak)),
    [],
    'missed as a value',
  );
  assert.deepEqual(
    NOT_VALUES.filter((text) => secretWritten(text, weak)),
    [],
    'taken for a value',
  );
  // The other false alarm: a hyphenated secret inside a test title's slug.
  const slug = guardSecret('API_PASSWORD', 'wrong-password');
  assert.equal(secretWritten('[[ATTACHMENT|test-results/v1-auth-GET-v1-conversatio-06bc9-r-a-wrong-password-with-401-api/error-context.md]]', slug), false);
  assert.equal(secretWritten('{"value":"wrong-password"}', slug), true);
  // A random secret: everywhere, prose included (a vendor echoing it in a message).
  const strong = guardSecret('API_PASSWORD', 'sim-secret-7f3a9c');
  assert.equal(secretWritten('{"detail":"wrong password sim-secret-7f3a9c for qa"}', strong), true);
  assert.equal(secretWritten('nothing here', strong), false);
  assert.equal(secretWritten('abc', guardSecret('S', 'abc')), false, 'too short to look for');
});

test("inside a passage of the suite's own text (the document it quotes) a value-like occurrence is the suite's, not a leak", () => {
  const own = suiteText('      description: "Authorization: Basic BASE64(login:password) on every V1 and V2 endpoint (spec §5.1)."');
  const weak = guardSecret('API_PASSWORD', 'password', own);
  // observed.openapi.yaml re-wraps the description: the passage still reads the same.
  assert.equal(
    secretWritten('      description: "Authorization: Basic BASE64(login:password) on every V1 and V2\n        endpoint (spec §5.1)."', weak),
    false,
  );
  assert.equal(secretWritten('request: GET /api/v1/conversations (login:password)', weak), true, 'the same form elsewhere is a value');
  assert.equal(secretWritten('{"value":"password"}', weak), true);
});
