// A command's environment as its --help lists it (config/command-line.ts renders it): rows of [names, meaning], a row
// naming one variable or several joined by ", " ("API_LOGIN, API_PASSWORD"). The configuration parser takes the same
// rows to know which of the target's variables the command requires (config/suite-config.ts), so what a command asks
// for and what its help names are one table. Pure: the parser runs in k6 too.

export type EnvironmentRows = ReadonlyArray<readonly [names: string, meaning: string]>;

/** "A, B" → "A" | "B". */
type Split<S extends string> = S extends `${infer First}, ${infer Rest}` ? First | Split<Rest> : S;

/** The names the rows list, as a type: a command's table declared `as const` keeps them literal. */
export type NamedIn<E extends EnvironmentRows> = Split<E[number][0]>;

/** The names the rows list. */
export const namesIn = (rows: EnvironmentRows): string[] => rows.flatMap(([names]) => names.split(', '));
