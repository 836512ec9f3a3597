// One input, several documented places or operations (spec §4.1, §4.2): `variables` "passed into the dialog" in the
// query of the GET creates and in the query or the JSON body of POST create; `response` true or false in the query or
// the body. Where the places disagree, which one won (not stated: observed); whether variables show in a dialog's data
// at all is the check's own reading (checks/effects.ts variablesShown). Pure.

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
