import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuByRole, processRole } from './process-cpu.ts';

test("a process of the run is named by its command line: the main command, Playwright's runner, its workers, the simulator", () => {
  const node = '/usr/bin/node';
  assert.equal(processRole([node, '/repo/scripts/contract.ts']), 'the main command');
  assert.equal(processRole([node, '/repo/node_modules/@playwright/test/cli.js', 'test']), "Playwright's runner");
  assert.equal(processRole([node, '/repo/node_modules/playwright/lib/worker/workerProcessEntry.js']), 'a worker');
  assert.equal(processRole([node, '/repo/simulator/main.ts', '--port', '4010']), 'the simulator');
  assert.equal(processRole([node, 'C:\\repo\\simulator\\main.ts']), 'the simulator');
  assert.equal(processRole([node, '/repo/scripts/profiles.ts']), 'other');
  assert.equal(processRole([node]), 'other');
});

test('the CPU of the processes of each role adds up, in the order of the roles, those not met left out', () => {
  assert.deepEqual(
    cpuByRole([
      { role: 'a worker', cpu: 1.5 },
      { role: "Playwright's runner", cpu: 2.25 },
      { role: 'a worker', cpu: 1.25 },
      { role: 'the main command', cpu: 0.5 },
    ]),
    [
      { role: 'the main command', processes: 1, cpu: 0.5 },
      { role: "Playwright's runner", processes: 1, cpu: 2.25 },
      { role: 'a worker', processes: 2, cpu: 2.75 },
    ],
  );
  assert.deepEqual(cpuByRole([]), []);
});
