// Send and command bodies built from what a vendor's refusals say (http/refusal-fields.ts), for the discovery to try
// when every candidate of its fixed list was refused (spec §4.2: the field names and types are not shown). Each
// refusal is a lesson: the fields it names, their nesting, the type or the value ("goto") it asks for. The bodies
// are tried, best first, and verified by their effect like any candidate; each says which refusals taught it. Pure.
import { mergeMentions, refusalFields, type FieldMention } from './refusal-fields.ts';

/** A body the vendor refused, and what it answered. */
export interface Refusal {
  template: string;
  status: number;
  body: string;
}

/** What a refusal was read to say of one field, and the words it was read from. */
export interface Reading {
  /** The field's path, dotted. */
  field: string;
  /** What goes there, as read: a type, or the value ("goto"). */
  wants?: string;
  words: string;
}

/** A body built from refusals: the refusals it was built from, and what was read in them to build it. */
export interface LearnedCandidate {
  template: string;
  taughtBy: Refusal[];
  readings: Reading[];
}

/** The command a goto body carries (§4.2): a value, never a field's name. */
const GOTO = 'goto';

/** What each field the refusals name was said to be, first by the refusal that named it first. */
type Lesson = FieldMention & { from: Refusal };

/** The fields `refusals` name, merged across them, strongest reading first, then in the order they were said. */
const lessons = (refusals: readonly Refusal[], values: readonly string[]): Lesson[] =>
  mergeMentions(refusals.flatMap((from) => refusalFields(from.body, values).map((m) => ({ ...m, from }))));

// Stand-ins for the placeholders while a body is an object: strings no vendor field holds.
const MARKS = { text: '\u0001text', number: '\u0001botId-number', string: '\u0001botId-string' } as const;
const PLACEHOLDERS: Record<string, string> = {
  [JSON.stringify(MARKS.text)]: '"{{text}}"',
  [JSON.stringify(MARKS.number)]: '{{botId}}',
  [JSON.stringify(MARKS.string)]: '"{{botId}}"',
};

/** The template of a body holding each value at its path; undefined when two paths collide (one inside the other). */
function templateOf(fields: ReadonlyArray<readonly [readonly string[], string]>): string | undefined {
  const body: Record<string, unknown> = {};
  for (const [path, value] of fields) {
    let node = body;
    for (const key of path.slice(0, -1)) {
      const next = node[key] ?? (node[key] = {});
      if (typeof next !== 'object') return undefined;
      node = next as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    if (last in node) return undefined;
    node[last] = value;
  }
  let text = JSON.stringify(body);
  for (const [mark, placeholder] of Object.entries(PLACEHOLDERS)) text = text.split(mark).join(placeholder);
  return text;
}

/** The refusals `lessons` came from, and what was read in each. */
function taught(...from: Array<Lesson | undefined>): Pick<LearnedCandidate, 'taughtBy' | 'readings'> {
  const lessons = from.filter((l): l is Lesson => l !== undefined);
  return {
    taughtBy: [...new Set(lessons.map((l) => l.from))],
    readings: lessons.map((l) => ({
      field: l.path.join('.'),
      ...(l.value !== undefined ? { wants: JSON.stringify(l.value) } : l.type ? { wants: `a ${l.type}` } : {}),
      words: l.words ?? '',
    })),
  };
}

/** Send bodies: the message text at each field the refusals name, those said to want a number last. */
export function learnedSendCandidates(refusals: readonly Refusal[]): LearnedCandidate[] {
  const fields = lessons(refusals, []);
  return [...fields.filter((f) => f.type !== 'number'), ...fields.filter((f) => f.type === 'number')].flatMap((f) => {
    const template = templateOf([[f.path, MARKS.text]]);
    return template ? [{ template, ...taught(f) }] : [];
  });
}

/**
 * Command bodies: "goto" at each field said to want it, the bot id at each other field named, as the type said first
 * (else a number first), the other type after every body of a type said or a number: a type is read, and a reading
 * may be wrong. Where no field was said to want "goto", at `command`, or nowhere when the bot's field sits under a
 * `goto` object ({"goto":{"bot_id":…}}). Where no field was named for the bot, at `bot_id` beside the command: its
 * refusal then names the vendor's.
 */
export function learnedCommandCandidates(refusals: readonly Refusal[]): LearnedCandidate[] {
  const fields = lessons(refusals, [GOTO]);
  const commands: Array<{ path: string[]; lesson?: Lesson }> = fields.filter((f) => f.value === GOTO).map((lesson) => ({ path: lesson.path, lesson }));
  const bots: Array<{ path: string[]; type?: FieldMention['type']; lesson?: Lesson; guess?: true }> = fields
    .filter((f) => f.value === undefined)
    .map((lesson) => ({ path: lesson.path, type: lesson.type, lesson }));
  // A guess whose refusal names the vendor's field: one body is enough.
  if (bots.length === 0) for (const c of commands) bots.push({ path: [...c.path.slice(0, -1), 'bot_id'], guess: true });
  const out: Array<LearnedCandidate & { rank: number }> = [];
  bots.forEach((bot, b) => {
    const places: Array<{ path: string[]; lesson?: Lesson } | undefined> =
      commands.length > 0 ? commands : [bot.path[0]?.toLowerCase() === GOTO ? undefined : { path: ['command'] }];
    const types = bot.guess ? (['number'] as const) : bot.type === 'string' ? (['string', 'number'] as const) : (['number', 'string'] as const);
    types.forEach((type, t) => {
      places.forEach((place, c) => {
        const template = templateOf([...(place ? [[place.path, GOTO] as const] : []), [bot.path, MARKS[type]]]);
        // The second type of a bot comes after the first of every bot.
        if (template) out.push({ template, ...taught(bot.lesson, place?.lesson), rank: (t * bots.length + b) * places.length + c });
      });
    });
  });
  return out.sort((x, y) => x.rank - y.rank).map(({ rank: _, ...candidate }) => candidate);
}
