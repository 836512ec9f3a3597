// What each process of a measured run of the main command spent: bench/process-cpu-hook.ts writes a line per process
// at its exit, and bench/contract.ts adds them up by what the process was. The main command runs on two cores, so what
// it costs is its processes' CPU: this says which process spent it. Pure, and nothing but erasable syntax: the hook
// that imports it loads before any loader, with Node's own type stripping.

/** The processes of a run of the main command, as the benchmark names them. */
export const PROCESS_ROLES = ['the main command', "Playwright's runner", 'a worker', 'the simulator', 'other'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

/** What a process of the run was, by its command line (`process.argv`). */
export function processRole(argv: readonly string[]): ProcessRole {
  const script = (argv[1] ?? '').replaceAll('\\', '/');
  if (script.endsWith('/scripts/contract.ts')) return 'the main command';
  if (script.endsWith('/playwright/lib/worker/workerProcessEntry.js')) return 'a worker';
  if (script.endsWith('/simulator/main.ts')) return 'the simulator';
  if (script.endsWith('/@playwright/test/cli.js') || script.endsWith('/playwright/cli.js')) return "Playwright's runner";
  return 'other';
}

/** One process's line: its role and its CPU seconds. */
export interface ProcessCpu {
  role: ProcessRole;
  cpu: number;
}

/** Each role's CPU seconds and how many processes spent them, in the order of PROCESS_ROLES (roles not met left out). */
export function cpuByRole(lines: readonly ProcessCpu[]): Array<{ role: ProcessRole; processes: number; cpu: number }> {
  return PROCESS_ROLES.flatMap((role) => {
    const of = lines.filter((l) => l.role === role);
    return of.length ? [{ role, processes: of.length, cpu: of.reduce((sum, l) => sum + l.cpu, 0) }] : [];
  });
}
