// Two reads of one dialog compared without calling a race a drift: the fields activity moves are read again before
// a difference is called, and times compare as the instants they name.

/** Fields of a dialog that activity moves: the last message's time, the duration, the status (spec §2.1, §3). */
const MOVING = new Set(['updated', 'duration', 'status']);

/**
 * Two reads of one dialog (V1 and V2, or a list item and its record) compared field by field. A field that activity
 * moves may differ only because the dialog moved between the reads: those are read again, up to `tries` times,
 * before a difference is called. Returns the fields that still differ, with the last reads.
 */
export async function settledDifferences<T extends Record<string, unknown>>(
  read: () => Promise<[T | undefined, T | undefined]>,
  fields: readonly string[],
  agree: (field: string, a: unknown, b: unknown) => boolean,
  tries = 3,
): Promise<{ differing: string[]; a: T | undefined; b: T | undefined }> {
  let [a, b] = await read();
  const differing = () => fields.filter((f) => !agree(f, a?.[f], b?.[f]));
  for (let n = 1; n < tries && differing().some((f) => MOVING.has(f)) && differing().every((f) => MOVING.has(f)); n++) [a, b] = await read();
  return { differing: differing(), a, b };
}
