// Whether a run is the whole suite. The run-end checks (every "not shown" item observed, every documented pair
// exercised) only mean something then; a run narrowed on the command line skips them and says why.

/** Options of `playwright test` that take a value; the others are switches. */
const WITH_VALUE = new Set([
  '-c',
  '--config',
  '-g',
  '--grep',
  '--grep-invert',
  '-G',
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
  '-G',
  '--project',
  '--shard',
  '--last-failed',
  '--only-changed',
  '--test-list',
  '--test-list-invert',
  '-x',
  '--max-failures',
]);

/** What on the command line runs only part of the suite (a filter, a project, files): nothing for the whole. */
export function narrowedBy(argv: readonly string[]): string[] {
  const start = argv.indexOf('test');
  if (start < 0) return [];
  const narrowed: string[] = [];
  for (let i = start + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const flag = arg.split('=')[0]!;
    if (NARROWING.has(flag)) narrowed.push(flag);
    else if (!arg.startsWith('-')) narrowed.push(`file filter ${arg}`);
    if (WITH_VALUE.has(arg)) i++;
  }
  return [...new Set(narrowed)];
}

/** Why the command line runs only part of the suite, or undefined for the whole. */
export function partialRunReason(argv: readonly string[]): string | undefined {
  const narrowed = narrowedBy(argv);
  return narrowed.length === 0 ? undefined : `a partial run (${narrowed.join(', ')}): only a run of the whole suite is checked for this`;
}

/** Playwright's JSON report of `playwright test --list`: the suites of files, their specs and tests. */
export interface ListedSuite {
  title: string;
  specs?: Array<{ title: string; file: string; tests: Array<{ projectName: string }> }>;
  suites?: ListedSuite[];
}
export interface ListReport {
  suites?: ListedSuite[];
  errors?: Array<{ message?: string }>;
}

/** A test as the run's scope names it in every run: its file and title path, without the project or run it ran in. */
export const testKey = (file: string, titles: readonly string[]): string => [file, ...titles].join(' › ');

/** The tests a `--list` report holds: each test key once per project it runs in, with the projects and files. */
export function listedTests(report: ListReport): { tests: string[]; specs: string[]; projects: string[] } {
  const tests: string[] = [];
  const specs = new Set<string>();
  const projects = new Set<string>();
  const walk = (suite: ListedSuite, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        tests.push(testKey(spec.file, [...path, spec.title]));
        projects.add(t.projectName);
      }
      specs.add(spec.file);
    }
    for (const inner of suite.suites ?? []) walk(inner, [...path, inner.title]);
  };
  for (const file of report.suites ?? []) walk(file, []);
  return { tests, specs: [...specs].sort(), projects: [...projects].sort() };
}

/**
 * Why Playwright refused the command line (an option it does not know, a project or a file filter that names
 * nothing, a selection that matches no test), as one line from what its list pass printed; undefined when it took it.
 */
export function selectionProblem(exitCode: number | null, report: ListReport | undefined, stderr: string): string | undefined {
  const lines = [...(report?.errors ?? []).map((e) => e.message ?? ''), stderr]
    .join('\n')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const said = lines.find((l) => /^(error|Error):/.test(l)) ?? (exitCode === 0 ? undefined : lines[0]);
  if (exitCode === 0 && !said && (report?.suites?.length ?? 0) > 0) return undefined;
  const what = (said ?? `playwright test --list ended with code ${exitCode} and said nothing`).replace(/^(error|Error): /, '');
  if (/^No tests found/.test(what)) return 'the selection matches no test (-g, --grep-invert, --project, file filters): nothing to run';
  if (/^unknown option/.test(what)) return `${what}: neither this command nor playwright test has it`;
  return `${what.replace(/\.$/, '')} (Playwright's words)`;
}
