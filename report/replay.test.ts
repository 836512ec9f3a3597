import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basicAuthorization } from '../config/suite-config.ts';
import { runFailures, testPasses } from '../checks/run.ts';
import { compareReplay, curlCommand, findFailure, replayRequest } from './replay.ts';

const failed = (test: string) => runFailures(testPasses, { test, error: 'y' }, test)[0]!;
const failures = [failed('a'), failed('b'), failed('a')];

test('finds a failure by its id, a part only one id has, or its number', () => {
  assert.equal(findFailure(failures, failures[1]!.id), failures[1]);
  assert.equal(findFailure(failures, '- b'), failures[1]);
  assert.equal(findFailure(failures, '2'), failures[1]);
  assert.equal(findFailure(failures, ' - - a'), failures[0], 'one id recorded twice: the first');
});

test('says why in one line when none or several match', () => {
  assert.match(findFailure(failures, 'nothing') as string, /^no failure of the last run has "nothing" in its id/);
  assert.match(findFailure(failures, 'test_passes') as string, /^"test_passes" is in 2 failures' ids/);
  assert.match(findFailure(failures, '9') as string, /^there is no failure 9: the last run recorded 3 \(1 to 3\)$/);
  assert.equal(findFailure([], 'x'), 'the last run recorded no contract failure');
});

test('a request as curl: the target, credentials and token as shell variables, everything else quoted as sent', () => {
  const send = {
    method: 'POST',
    path: '/api/vertex/v1/dialog/send_message',
    credentials: 'none' as const,
    contentType: 'application/json',
    body: '{"token":"[redacted]","text":"it\'s $HOME"}',
  };
  assert.equal(
    curlCommand(send),
    `curl -sS -i -X POST "$API_BASE_URL"'/api/vertex/v1/dialog/send_message' -H 'Content-Type: application/json' --data-raw '{"token":"'"$VERTEX_TOKEN"'","text":"it'\\''s $HOME"}'`,
  );
  assert.equal(
    curlCommand({ method: 'GET', path: '/api/v2/conversations?BotID=101&PageCount=5', credentials: 'configured' }),
    `curl -sS -i -X GET "$API_BASE_URL"'/api/v2/conversations?BotID=101&PageCount=5' -u "$API_LOGIN:$API_PASSWORD"`,
  );
  assert.match(curlCommand({ method: 'GET', path: '/api/v1/conversations', credentials: 'wrong password' }), / -u "\$API_LOGIN:\$API_PASSWORD-wrong"$/);
});

test('a replay sends what the curl command shows: the same credentials, the token in its place', () => {
  const vars = { API_BASE_URL: 'https://staging.example.com', API_LOGIN: 'qa', API_PASSWORD: 'pw', VERTEX_TOKEN: 'tok-1' };
  const send = replayRequest(
    { method: 'POST', path: '/api/vertex/v1/complete', credentials: 'none', contentType: 'application/json', body: '{"token":"[redacted]"}' },
    vars,
  );
  assert.deepEqual(send, {
    url: 'https://staging.example.com/api/vertex/v1/complete',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"token":"tok-1"}',
  });
  assert.equal(
    replayRequest({ method: 'GET', path: '/api/v1/conversations', credentials: 'wrong password' }, vars).headers.authorization,
    basicAuthorization('qa', 'pw-wrong'),
  );
  assert.equal(
    replayRequest({ method: 'GET', path: '/api/v1/conversations', credentials: 'configured' }, vars).headers.authorization,
    basicAuthorization('qa', 'pw'),
  );
});

test('a replay compares what the failure is about: the status, and the field at its place, and says which', () => {
  const recorded = { status: 200, contentType: 'application/json', body: '{"id":"a","ip":"x"}', bodyLength: 19 };
  const source = { pointer: '/source', check: 'response_schema_conformance' };
  assert.equal(
    compareReplay(source, recorded, { status: 200, contentType: 'application/json', body: '{"id":"b"}' }, ['/source']).line,
    'compared the status (200, as recorded) and the field at /source (response_schema_conformance fails there, as recorded): the request reproduces what the failure is about',
  );
  const fixed = compareReplay(source, recorded, { status: 200, contentType: 'application/json', body: '{"id":"b","source":"web"}' }, []);
  assert.equal(fixed.same, false, 'the same status with the field back is no reproduction');
  assert.match(
    fixed.line,
    /the field at \/source \(recorded response_schema_conformance fails there, now response_schema_conformance holds there\): the target answers otherwise now$/,
  );
  // Another check at a JSON pointer: the kinds found there, list positions included.
  const list = { status: 200, contentType: 'application/json', body: '{"0":{"ip":"a"},"1":{"ip":"b"},"meta":{}}', bodyLength: 41 };
  assert.match(
    compareReplay({ pointer: '/*/ip', check: 'meaning_conformance' }, list, { ...list, body: '{"0":{"ip":7}}' }).line,
    /the field at \/\*\/ip \(recorded string, now integer\)/,
  );
  assert.match(
    compareReplay({ pointer: 'status of the dialog afterwards', check: 'effect_of_start' }, recorded, recorded).line,
    /compared the status \(200, as recorded\); not "status of the dialog afterwards": one request does not show it/,
  );
});
