// The .env file, read by dotenv (values already in the environment win) after a check of its lines: dotenv skips a
// line it cannot read ("BOT_ID 101") without a word, and the run then says "BOT_ID is missing". Here such a line is
// a ConfigError naming the file and line, without echoing the rest of it (it may hold a password).
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parse } from 'dotenv';
import { ConfigError } from './suite-config.ts';

// dotenv's forms: NAME=value, NAME: value, with an optional "export "; a comment; nothing.
const ASSIGNMENT = /^\s*(?:export\s+)?[\w.-]+\s*(?:=|:\s|:$)\s*(.*)$/;
const IGNORED = /^\s*(?:#.*)?$/;

/** The first line that is neither an assignment, a comment nor blank, as "FILE:LINE: …"; undefined when all are. */
export function badDotenvLine(text: string, file: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (IGNORED.test(line)) continue;
    const assignment = ASSIGNMENT.exec(line);
    if (assignment) {
      // A quoted value may span lines: skip to the line that closes it.
      const value = assignment[1]!;
      const quote = /^["'`]/.exec(value)?.[0];
      if (quote && value.indexOf(quote, 1) < 0) {
        const close = lines.findIndex((l, j) => j > i && l.includes(quote));
        if (close < 0) return `${file}:${i + 1}: the value opened with ${quote} is never closed: close the quote`;
        i = close;
      }
      continue;
    }
    // Never the rest of the line: it may be "API_PASSWORD hunter2".
    const name = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)/.exec(line)?.[1];
    return `${file}:${i + 1}: not a NAME=value line${name ? ` (it starts with ${name}); write it as ${name}=value` : '; fix or remove it'}`;
  }
  return undefined;
}

/** Loads `path` into `env` where a variable is unset; a line dotenv would skip is a ConfigError. No file: nothing. */
export function loadDotenvFile(path: string, env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8');
  const shown = relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);
  const bad = badDotenvLine(text, shown);
  if (bad) throw new ConfigError(bad);
  for (const [name, value] of Object.entries(parse(text))) if (env[name] === undefined) env[name] = value;
}
