// Whether a run is the whole suite. The run-end checks (every "not shown" item observed, every documented pair
// exercised) only mean something then; a run narrowed on the command line skips them and says why.

/** Options of `playwright test` that take a value; the others are switches. */
const WITH_VALUE = new Set([
  '-c',
  '--config',
  '-g',
  '--grep',
  '--grep-invert',
  '--project',
  '--reporter',
  '-j',
  '--workers',
  '-x',
  '--max-failures',
  '--retries',
  '--repeat-each',
  '--shard',
  '--timeout',
  '--output',
  '--global-timeout',
  '--trace',
  '--tsconfig',
  '--ui-host',
  '--ui-port',
  '--test-list',
  '--test-list-invert',
]);
const NARROWING = new Set([
  '-g',
  '--grep',
  '--grep-invert',
  '--project',
  '--shard',
  '--last-failed',
  '--only-changed',
  '--test-list',
  '--test-list-invert',
  '-x',
  '--max-failures',
]);

/** Why the command line runs only part of the suite (a filter, a project, files), or undefined for the whole. */
export function partialRunReason(argv: readonly string[]): string | undefined {
  const start = argv.indexOf('test');
  if (start < 0) return undefined;
  const narrowed: string[] = [];
  for (let i = start + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const flag = arg.split('=')[0]!;
    if (NARROWING.has(flag)) narrowed.push(flag);
    else if (!arg.startsWith('-')) narrowed.push(`file filter ${arg}`);
    if (WITH_VALUE.has(arg)) i++;
  }
  return narrowed.length === 0 ? undefined : `a partial run (${[...new Set(narrowed)].join(', ')}): only a run of the whole suite is checked for this`;
}
