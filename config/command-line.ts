// The command line of every entry point (npm run contract, simulator, drift, load, ...): one table per command of
// its options, each with its meaning and default, the environment variables it reads and an example. Node's
// util.parseArgs reads the arguments from that table and --help / -h prints it, so an option cannot be accepted
// without being documented. A bad argument is one line naming it and pointing at --help (exit 2).
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { EnvironmentRows } from './environment.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** What it does, one line. */
  description: string;
  /** The value's placeholder in the help: NAME, N, URL. */
  value?: string;
  /** Shown as "(default: …)". */
  default?: string;
  /** The variable that sets it too: "(or BASELINE)"; the option wins. */
  env?: string;
  /** Repeatable: every occurrence is kept. */
  multiple?: boolean;
  /** One-letter alias, without the dash. */
  short?: string;
}

export type OptionTable = Record<string, OptionSpec>;

export interface CommandSpec<O extends OptionTable = OptionTable> {
  /** The npm script: "drift" prints as `npm run drift -- …`. */
  script: string;
  /** What follows `npm run SCRIPT --`, one form per line. */
  usage: readonly string[];
  /** What the command does: a few sentences. */
  summary: string;
  /** Positional arguments, in the help: [name, meaning]. */
  positionals?: ReadonlyArray<readonly [string, string]>;
  options: O;
  /**
   * Variables read from the environment or .env: [names, meaning]. Of the target's variables, the command requires
   * those named here and no other (config/suite-config.ts parseSuiteConfig takes this table).
   */
  environment: EnvironmentRows;
  /** What each exit code means. */
  exit: string;
  examples: readonly string[];
  /** Further paragraphs (where other options go, what else to read). */
  notes?: readonly string[];
}

/** The parsed values of a table: a string (or strings), true, or nothing. */
export type OptionValues<O extends OptionTable> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? (O[K]['multiple'] extends true ? boolean[] : boolean) : O[K]['multiple'] extends true ? string[] : string;
};

export interface ParsedCommandLine<O extends OptionTable> {
  values: OptionValues<O>;
  positionals: string[];
}

/** A bad argument: one line saying which and what to do (the command exits 2). */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

/** The reports folder, which every command that reads or writes reports takes from the environment. */
export const REPORTS_DIR_ENV = ['REPORTS_DIR', 'the reports folder (default: reports/; the environment only, not .env)'] as const;

const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'this text' };
const WIDTH = 26;
const LINE = 118;

/** Words of a text in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** "  --name VALUE   meaning" rows, the meaning aligned and wrapped (on the next line when the left side is long). */
function rows(entries: ReadonlyArray<readonly [string, string]>): string[] {
  const indent = ''.padEnd(WIDTH);
  return entries.map(([left, right]) => {
    const [first, ...rest] = wrap(right, LINE - WIDTH).map((l, i) => (i === 0 ? l : `${indent}${l}`));
    return [left.length + 4 <= WIDTH ? `  ${left.padEnd(WIDTH - 2)}${first}` : `  ${left}\n${indent}${first}`, ...rest].join('\n');
  });
}

function optionRow([name, spec]: [string, OptionSpec]): readonly [string, string] {
  const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
  const extras = [spec.multiple ? 'repeatable' : '', spec.env ? `or ${spec.env}` : '', spec.default !== undefined ? `default: ${spec.default}` : ''].filter(
    Boolean,
  );
  return [flag, `${spec.description}${extras.length ? ` (${extras.join('; ')})` : ''}`];
}

/** The --help text: usage, what it does, arguments, options, environment, exit codes, examples. */
export function helpText(spec: CommandSpec): string {
  const lines = spec.usage.map((u, i) => `${i === 0 ? 'usage: ' : '       '}npm run ${spec.script}${u ? ` -- ${u}` : ''}`);
  lines.push('', spec.summary);
  if (spec.positionals?.length) lines.push('', 'Arguments:', ...rows(spec.positionals));
  lines.push('', 'Options:', ...rows([...Object.entries(spec.options), ['help', HELP] as [string, OptionSpec]].map(optionRow)));
  lines.push('', 'Environment (set in the environment or in .env; .env.example describes every variable):');
  lines.push(...(spec.environment.length ? rows(spec.environment) : ['  none']));
  lines.push('', `Exit: ${spec.exit}`);
  for (const note of spec.notes ?? []) lines.push('', note);
  lines.push('', spec.examples.length > 1 ? 'Examples:' : 'Example:', ...spec.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}

/** Whether the arguments ask for help (before `--`, which hands the rest on unchanged). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** node's parse error in one line of ours: which argument, what is wrong with it. */
function oneLine(err: Error & { code?: string }, spec: CommandSpec): string {
  const named = /'(?:-\w, )?(--?[\w-]+)/.exec(err.message)?.[1];
  const option = named ? Object.entries(spec.options).find(([name, o]) => named === `--${name}` || named === `-${o.short}`) : undefined;
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${named ?? err.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      if (!option) return err.message.replace(/\s*\n\s*/g, ' ');
      const [name, o] = option;
      if (o.type === 'boolean') return `--${name} takes no value`;
      // "--live -1": node cannot tell a negative value from another option.
      if (/ambiguous/.test(err.message)) return `--${name} takes a value that starts with "-" only as --${name}=${o.value ?? 'VALUE'}`;
      return `--${name} needs a value (${o.value ?? 'VALUE'})`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(err.message)?.[1] ?? ''}`.trimEnd();
    default:
      return err.message.replace(/\s*\n\s*/g, ' ');
  }
}

/**
 * The arguments read against the table: `help` when they ask for it, else the values and positionals. A bad
 * argument is a CommandLineError with one line ending in a pointer to --help.
 */
export function readCommandLine<O extends OptionTable>(spec: CommandSpec<O>, argv: readonly string[]): ParsedCommandLine<O> | 'help' {
  if (asksForHelp(argv)) return 'help';
  const options = Object.fromEntries(
    Object.entries(spec.options).map(([name, o]) => [
      name,
      { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
    ]),
  );
  try {
    const parsed = parseArgs({ args: [...argv], options, allowPositionals: spec.positionals !== undefined, strict: true });
    return { values: { ...parsed.values } as OptionValues<O>, positionals: parsed.positionals };
  } catch (err) {
    if (!(err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw err;
    throw new CommandLineError(`${oneLine(err as Error, spec)}; ${helpPointer(spec)}`);
  }
}

/** "see npm run NAME -- --help": how every one-line error of a command ends. */
export const helpPointer = (spec: Pick<CommandSpec, 'script'>) => `see npm run ${spec.script} -- --help`;

/** `script: message` on stderr and exit 2: bad input, nothing run. */
export function exitWithUsage(spec: Pick<CommandSpec, 'script'>, message: string): never {
  console.error(`${spec.script}: ${message}`);
  process.exit(2);
}

/** For entry points: the parsed arguments; --help prints the help and exits 0, a bad argument is one line and exit 2. */
export function commandLineOrExit<O extends OptionTable>(spec: CommandSpec<O>, argv: readonly string[] = process.argv.slice(2)): ParsedCommandLine<O> {
  let parsed: ParsedCommandLine<O> | 'help';
  try {
    parsed = readCommandLine(spec, argv);
  } catch (err) {
    if (!(err instanceof CommandLineError)) throw err;
    exitWithUsage(spec, err.message);
  }
  if (parsed === 'help') {
    // Synchronously: exit must not cut a help text still queued for a pipe. A reader that stopped early (| head)
    // is no error.
    try {
      writeSync(1, helpText(spec));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPIPE') throw err;
    }
    process.exit(0);
  }
  return parsed;
}
