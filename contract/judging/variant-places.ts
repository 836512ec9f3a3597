// One input, several documented places or operations (spec §4.1, §4.2): `variables` "passed into the dialog" in the
// query of the GET creates and in the query or the JSON body of POST create; `response` true or false in the query or
// the body. What a test reads of each place's effect: whether variables show in a dialog's data (held to one meaning
// in every place by effect_of_create.variables, checks/effects.ts) and, where the places disagree, which one won (not
// stated: observed). Pure.

/** The data items of a dialog record, as far as these checks read them. */
type Data = ReadonlyArray<{ answer: string }>;

/** Whether the values of variables passed at a create show among its dialog's data (§2.2: data collected in the dialog). */
export const variablesShown = (data: Data, variables: Record<string, string>): boolean =>
  Object.values(variables).every((value) => data.some((item) => item.answer === value));

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
