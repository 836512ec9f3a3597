// Runs a question-asking generator to its end: each yielded question goes to `answer`, whose reply is sent back in.
// The searches are written once as generators; these drivers let k6 (synchronous http) and Node or Playwright
// (promises) ask the questions.

export function drive<Q, R, A>(questions: Generator<Q, R, A>, answer: (question: Q) => A): R {
  let next = questions.next();
  while (!next.done) next = questions.next(answer(next.value));
  return next.value;
}

export async function driveAsync<Q, R, A>(questions: Generator<Q, R, A>, answer: (question: Q) => Promise<A>): Promise<R> {
  let next = questions.next();
  while (!next.done) next = questions.next(await answer(next.value));
  return next.value;
}
