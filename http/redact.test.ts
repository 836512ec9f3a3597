import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactBody, redactHeaders, redactText } from './redact.ts';

test('redacts secrets, Basic and Bearer credentials, and credential headers', () => {
  const secrets = ['sim-secret-7f3a9c', 'tok-1234567', undefined];
  assert.equal(
    redactText('Authorization: Basic cWEtY29udHJhY3Q6c2lt body {"token":"tok-1234567","p":"sim-secret-7f3a9c"} then Bearer eyJhbGciOi.x', secrets),
    'Authorization: Basic [redacted] body {"token":"[redacted]","p":"[redacted]"} then Bearer [redacted]',
  );
  assert.equal(redactText('{"authorization":"basic abcdefgh"}', []), '{"authorization":"basic [redacted]"}');
  assert.deepEqual(redactHeaders({ Authorization: 'x', 'Set-Cookie': 'y', 'Retry-After': '1' }, secrets), {
    Authorization: '[redacted]',
    'Set-Cookie': '[redacted]',
    'Retry-After': '1',
  });
});

test('prose that names a credential kind stays readable', () => {
  const prose = 'Basic credentials carry no expiry; the token travels as a Bearer credential';
  assert.equal(redactText(prose, []), prose);
});

test('secret-looking fields of a JSON body are redacted at any depth; other text is left alone', () => {
  assert.equal(redactBody('{"block":{"token":"t-1","n":1},"password":"p"}'), '{"block":{"token":"[redacted]","n":1},"password":"[redacted]"}');
  assert.equal(redactBody('token=t-1'), 'token=t-1');
});
