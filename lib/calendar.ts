// The Gregorian calendar's days, the one rule for which dates exist: the generated inputs (fixtures/) make days a
// month has and days it does not, the simulator (simulator/params.ts) refuses the second kind, and its drift that
// rolls them over (simulator/drifts/inputs.ts) finds them the same way.

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** The days of a month (1-12) of a year. */
export const daysInMonth = (year: number, month: number): number => (month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1]!);

/** Whether year-month-day names a day the calendar has (month 1-12, day 1 to its month's last). */
export const isCalendarDate = (year: number, month: number, day: number): boolean =>
  Number.isInteger(month) && month >= 1 && month <= 12 && Number.isInteger(day) && day >= 1 && day <= daysInMonth(year, month);
