import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationKind, ipKind, locationKind, mayBeWithin, ownData, updatedKind } from './meanings.ts';

test('ip: an address of either family, or a placeholder where the dialog has none; the city, a number or a time is no address', () => {
  for (const ip of ['203.0.113.7', '::1', '2001:db8::5', '[2001:db8::5]:443', '10.0.0.1:5060']) assert.equal(ipKind(ip), 'an IP address', ip);
  for (const ip of ['', '-', 'unknown', 'N/A', 'null', 'api', 'internal']) assert.equal(ipKind(ip, 'Berlin'), 'empty or a placeholder', ip);
  for (const ip of ['Berlin', 'berlin ']) assert.equal(ipKind(ip, 'Berlin'), 'not an IP address', `${ip} beside location Berlin`);
  for (const ip of ['300.1.1.1', '2026-11-25', '12345', '178.105.224.209, 10.0.0.1', 'cafe:12']) assert.equal(ipKind(ip), 'not an IP address', ip);
});

test('location: a place name has letters and is no address, number or time', () => {
  // Districts with numbers are places: Date.parse reads "Praha 4" as a date, this does not.
  for (const city of ['Berlin', 'São Paulo', 'Sankt-Peterburg', 'Москва', '東京', 'Dublin 2', 'Praha 4', 'Tomsk-7', 'Wien 10']) {
    assert.equal(locationKind(city), 'a place name', city);
  }
  assert.equal(locationKind(''), 'empty or a placeholder');
  assert.equal(locationKind('203.0.113.7'), 'an IP address');
  assert.equal(locationKind('12345'), 'a number or a time');
  assert.equal(locationKind('2026-11-25T10:00:00Z'), 'a number or a time');
});

test('duration: never negative; for a dialog the run made, no longer than it has existed (a second for rounding)', () => {
  assert.equal(durationKind(0), 'not negative');
  assert.equal(durationKind(-1), 'negative');
  assert.equal(durationKind(2, 1500), "within the dialog's age");
  assert.equal(durationKind(3, 1500), "within the dialog's age");
  assert.equal(durationKind(1500, 1500), 'longer than the dialog has existed');
});

const created = Date.parse('2026-11-25T10:00:00Z');
const window = { createdMs: created - 2000, readMs: created + 10_000 };

test('updated of a dialog the run made: between its creation and the read, a zone-less time in any zone of the world', () => {
  assert.equal(updatedKind('', window), 'empty');
  assert.equal(updatedKind('0001-01-01T00:00:00', window), 'a placeholder time');
  assert.equal(updatedKind('soon', window), 'not a time');
  assert.equal(updatedKind('2026-11-25T10:00:05Z', window), 'between the creation and the read');
  assert.equal(updatedKind('2026-11-25T15:30:05+05:30', window), 'between the creation and the read');
  assert.equal(updatedKind('2026-11-25T09:00:05Z', window), 'before the dialog was created');
  assert.equal(updatedKind('2026-11-25T11:00:05Z', window), 'after the read');
  // Zone-less: the wall-clock time of some zone; an hour off is another zone, a minute off in no zone is no fit.
  assert.equal(updatedKind('2026-11-25 13:00:05', window), 'between the creation and the read');
  assert.equal(mayBeWithin('2026-11-25T13:07:05', window.createdMs, window.readMs), false);
});

test('updated never moves back between two reads of one dialog', () => {
  assert.equal(updatedKind('2026-11-25T10:00:03Z', window, '2026-11-25T10:00:05Z'), 'earlier than it read before');
  assert.equal(updatedKind('2026-11-25T10:00:05Z', window, '2026-11-25T10:00:03Z'), 'between the creation and the read');
  // Two renderings of one instant agree; a zoned and a zone-less time are not compared.
  assert.equal(updatedKind('2026-11-25T15:30:05+05:30', window, '2026-11-25T10:00:05Z'), 'between the creation and the read');
  assert.equal(updatedKind('2026-11-25T10:00:05Z', window, '2026-11-25 13:00:09'), 'between the creation and the read');
});

test("data: another dialog's value shows in any form a store may keep it; its own value trimmed is still its own", () => {
  const foreign = (answers: string[], othersGiven: string[]) => ownData.judge({ dialog: 'd1', answers, othersGiven }).some((f) => !f.holds);
  assert.equal(foreign(['K-420001'], ['K-420001']), true);
  assert.equal(foreign(['K-420001'], [' K-420001\r\n']), true);
  assert.equal(foreign(['K-420002'], ['K-420001']), false);
});
