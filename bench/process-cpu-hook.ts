// Loaded into every Node process of a measured run of the main command (NODE_OPTIONS=--import, by bench/contract.ts):
// at its exit each appends its CPU time (user + system) and what it was to the file BENCH_PROCESS_CPU names. A
// process killed outright writes none; a run's processes all end on their own or on SIGTERM.
import { appendFileSync } from 'node:fs';
import { processRole, type ProcessCpu } from './process-cpu.ts';

const file = process.env.BENCH_PROCESS_CPU;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    appendFileSync(file, `${JSON.stringify({ role: processRole(process.argv), cpu: (user + system) / 1e6 } satisfies ProcessCpu)}\n`);
  });
}
