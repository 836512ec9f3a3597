// One input, several documented places or operations, one meaning (spec §4.1, §4.2): `variables` "passed into the
// dialog" in the query of the GET creates and in the query or the JSON body of POST create; `response` true or false in
// the query or the body. Where a place's effect shows, it shows the same through every other place; when the places
// disagree, which one wins is not stated: observed. Pure.

/** The data items of a dialog record, as far as these checks read them. */
type Data = ReadonlyArray<{ answer: string }>;

/** Whether the values of variables passed at a create show among its dialog's data (§2.2: data collected in the dialog). */
export const variablesShown = (data: Data, variables: Record<string, string>): boolean =>
  Object.values(variables).every((value) => data.some((item) => item.answer === value));

/** Each place judged: its variables show where another place's do. */
export interface PlaceVerdict {
  place: string;
  expected: string;
  observed: 'shown' | 'not shown';
  holds: boolean;
}

/**
 * Variables passed through each place, and whether they showed in the dialog made through it. Shown through none: how
 * a dialog carries them is not stated (§1.4 "can be passed"; observed as variables.in-record), every place holds.
 * Shown through some: each other place must show them too, one meaning in every place.
 */
export function judgePlaces(shown: Readonly<Record<string, boolean>>): PlaceVerdict[] {
  const showing = Object.keys(shown).filter((place) => shown[place]);
  return Object.entries(shown).map(([place, seen]) => ({
    place,
    expected: showing.length
      ? `shown in the dialog's data, as variables passed ${showing.filter((p) => p !== place).join(' and ') || place} are (one meaning in every place: passed into the dialog)`
      : 'any: variables passed in no place showed in the dialog (how a dialog carries them is not stated)',
    observed: seen ? 'shown' : 'not shown',
    holds: seen || showing.length === 0,
  }));
}

/** Which of two values given in two places took effect, from whether each one's effect showed. */
export function whichWins(queryTookEffect: boolean, bodyTookEffect: boolean): string {
  if (queryTookEffect && bodyTookEffect) return 'both';
  if (queryTookEffect) return "the query's";
  return bodyTookEffect ? "the JSON body's" : 'neither';
}

/**
 * Which `response` wins when the query and the body disagree, from the two disagreements: whether the identifiers came
 * back with true in the query (false in the body), and with true in the body (false in the query).
 */
export function responseWins(idsWhenQueryTrue: boolean, idsWhenBodyTrue: boolean): string {
  if (idsWhenQueryTrue === idsWhenBodyTrue) return idsWhenQueryTrue ? 'true, in either place' : 'false, in either place';
  return idsWhenQueryTrue ? "the query's" : "the JSON body's";
}
