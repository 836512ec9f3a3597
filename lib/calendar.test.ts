import { test } from 'node:test';
import assert from 'node:assert/strict';
import { daysInMonth, isCalendarDate, isLeapYear } from './calendar.ts';

test('leap years every fourth, but not centuries unless the fourth', () => {
  assert.deepEqual([2024, 2023, 1900, 2000, 2100].map(isLeapYear), [true, false, false, true, false]);
  assert.deepEqual([daysInMonth(2024, 2), daysInMonth(2023, 2), daysInMonth(2023, 4), daysInMonth(2023, 12)], [29, 28, 30, 31]);
});

test('a date names a day its month has', () => {
  assert.ok(isCalendarDate(2024, 2, 29));
  assert.ok(!isCalendarDate(2023, 2, 29));
  assert.ok(!isCalendarDate(2023, 4, 31));
  assert.ok(!isCalendarDate(2023, 13, 1));
  assert.ok(!isCalendarDate(2023, 1, 0));
});
