import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAILURE_NAMES, Pseudonyms, stringsOf } from './personal-data.ts';

const body = JSON.stringify({
  '0': { id: 1125, name: '#1125 New Katelin', ip: '242.2.124.11', location: 'New Katelin' },
  '1': { id: 7, name: '#7 Katelin', ip: '2001:db8::7', location: 'Katelin' },
});

test('IP addresses and cities of the answers become stable pseudonyms, the same value the same name, field names untouched', () => {
  const names = new Pseudonyms().learn([body]);
  const out = names.text(body);
  assert.equal(
    out,
    JSON.stringify({
      '0': { id: 1125, name: '#1125 city-1', ip: 'ip-1', location: 'city-1' },
      '1': { id: 7, name: '#7 city-2', ip: 'ip-2', location: 'city-2' },
    }),
  );
  assert.equal(
    names.text('the V1 read says 242.2.124.11, the V2 read 2001:db8::7'),
    'the V1 read says ip-1, the V2 read ip-2',
    'two reads that differ still differ',
  );
  assert.equal(names.text('242.2.124.110 at 10:30:00, 2026-11-28T08:31:45Z'), '242.2.124.110 at 10:30:00, 2026-11-28T08:31:45Z', 'no other address, no time');
  const link = '{"answer":"http://10.0.0.9:5520/api/v1/file/50"}';
  assert.equal(new Pseudonyms().learn([link]).size, 0, "a server's address in a link is no user's");
});

test('what a value is names it, not the field it stood in: an ip field holding a city reads city-1', () => {
  const swapped = '{"ip":"Berlin","location":"10.1.2.3"}';
  assert.equal(new Pseudonyms().learn([swapped]).text(swapped), '{"ip":"city-1","location":"ip-1"}');
});

test('a failure keeps its id, check, place and expectation; its context and observation lose the values', () => {
  const failure = {
    id: 'contract.meaning_conformance getV2Conversation 200 /location',
    check: 'meaning_conformance.location',
    pointer: '/location',
    expected: 'a city (§2.1)',
    observed: 'an address',
    context: { value: '10.1.2.3', exchanges: [{ response: { body: '{"location":"10.1.2.3"}' } }] },
  };
  const names = new Pseudonyms().learn(stringsOf(failure.context));
  const out = names.value(failure, FAILURE_NAMES);
  assert.equal(out.id, failure.id);
  assert.equal(out.pointer, '/location');
  assert.deepEqual(out.context, { value: 'ip-1', exchanges: [{ response: { body: '{"location":"ip-1"}' } }] });
});
