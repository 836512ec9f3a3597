// Global setup's reading of the vendor's application clock (contract/clock/vendor-clock.ts): the Date header's hint and the
// `updated` the body-shape discovery saw move after its message cost no request of their own; only when they do not
// settle it (no stamp read, or the Date header is not the application's, as behind a gateway that writes its own) is
// the Created filter's boundary bisected around the discovery's dialog (created-filter-clock.ts), a few list reads.
import type { DiscoveryStamps } from '../../http/body-discovery.ts';
import type { ApiClient } from '../target/client.ts';
import { bisectCreatedFrom, bisectionStart } from '../clock/created-filter-clock.ts';
import { isoUtc, searchList } from '../api/lists.ts';
import { combineReadings, readingOf, readingOfClock, zonedInstant, type ClockReading, type CombinedClock, type VendorClock } from '../clock/vendor-clock.ts';

export interface ApplicationClock extends CombinedClock {
  /** Every reading taken, the Date header's among them. */
  readings: ClockReading[];
  /** List reads the Created filter's bisection took (0 when the cheaper sources settled the clock). */
  bisectionReads: number;
}

/** The readings that cost nothing: the Date header's hint, and `updated` after the discovery's message. */
function freeReadings(hint: VendorClock, stamps: DiscoveryStamps | undefined): ClockReading[] {
  const readings = hint.source === 'unknown' ? [] : [readingOfClock(hint, 'Date header')];
  const message = stamps?.message;
  const updated = zonedInstant(message?.updated);
  if (message && updated !== undefined) readings.push(readingOf('updated after a message', updated, message.sentAt, message.answeredAt));
  return readings;
}

/** The application's clock from the discovery's stamps, the Created filter bisected when they leave it open. */
export async function applicationClock(api: ApiClient, hint: VendorClock, stamps: DiscoveryStamps | undefined): Promise<ApplicationClock> {
  const readings = freeReadings(hint, stamps);
  const cheap = combineReadings(readings);
  const start = bisectionStart(readings, cheap);
  if (!stamps || !start) return { ...cheap, readings, bisectionReads: 0 };
  const { dialog } = stamps;
  const plan = bisectCreatedFrom(dialog, start.guess, start.reachMs);
  // Under the bot whose list showed it last: near its stamp, the window holds only what was created since.
  const bot = dialog.listedUnder === undefined ? {} : { BotID: dialog.listedUnder };
  let reads = 0;
  let step = plan.next();
  try {
    while (!step.done) {
      reads++;
      const { item } = await searchList(api, 'v2', { ...bot, CreatedFrom: isoUtc(step.value) }, dialog.uuid);
      step = plan.next(item !== undefined);
    }
  } catch {
    // A list that could not be read (its test names that): the clock rests on the cheaper sources.
    return { ...cheap, readings, bisectionReads: reads };
  }
  const all = step.value ? [...readings, step.value] : readings;
  return { ...combineReadings(all), readings: all, bisectionReads: reads };
}

/** Each reading as the evidence of clock.offset lists it: "updated after a message: -90.4 to -88.9 s". */
export const readingsText = (clock: ApplicationClock): string =>
  [
    ...clock.readings.map(
      (r) => `${r.source}: ${(r.low / 1000).toFixed(1)} to ${(r.high / 1000).toFixed(1)} s${clock.disagreeing.includes(r) ? ' (disagrees)' : ''}`,
    ),
    `Created filter bisection: ${clock.bisectionReads} list reads`,
  ].join('\n');
