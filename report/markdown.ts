// Vendor text inside Markdown (the drift report, the job summary, tickets): it may hold any characters, and must
// render as the text it is, never as a link, an image, a table column or the end of a code block.

/** A table cell: no column break, no line break. */
export const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Inline text (a link label, a list item): cell-safe, with Markdown's inline syntax escaped. */
export const inline = (text: string) => cell(text.replace(/[\\`*_[\]<>!]/g, '\\$&'));

/** A code fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenced(text: string, language = 'text'): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}
