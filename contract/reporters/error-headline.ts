// The line of a Playwright error a person reads first: no terminal colours, no "Error: " prefix, no blank lines.
// Shared by the run reporter (a failure without recorded data) and the scripts that read Playwright's JSON report.
import { stripVTControlCharacters } from 'node:util';

export const errorHeadline = (message: string | undefined): string | undefined =>
  stripVTControlCharacters(message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean)
    ?.replace(/^Error:\s*/, '');
