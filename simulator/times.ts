// Times as the vendor writes them: ISO 8601 with a zone designator, read (filters) and written (records).

/** Minutes east of UTC of a zone designator: "Z", "+05:30", "-0500". */
export function offsetMinutes(zone: string): number {
  // "+05" (hours alone), "+0530" and "+05:30" are ISO 8601 offsets all.
  return zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + (zone.length > 3 ? Number(zone.slice(-2)) : 0));
}

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * "2026-11-20T10:00:00+00:00": ISO 8601 with whole seconds, like the vendor's examples, written as the local time
 * of `zone` ("Z" or "+HH:MM" / "-HH:MM"), so "13:00:00+03:00" for 10:00:00Z.
 */
export function isoSeconds(ms: number, zone: string): string {
  const d = new Date(ms + offsetMinutes(zone) * 60_000);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${zone}`
  );
}
