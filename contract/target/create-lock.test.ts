// The run's create lock: holders never overlap (two windows of one worker neither), a hold inside a hold goes through,
// and a holder that died does not hold up the others. Two instances on one file stand for two worker processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CreateLock } from './create-lock.ts';

const lockFile = () => join(mkdtempSync(join(tmpdir(), 'create-lock-')), 'run', 'create.lock');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('two workers never hold it at once; each gets it in turn', async () => {
  const file = lockFile();
  const [a, b] = [new CreateLock(file), new CreateLock(file)];
  const events: string[] = [];
  const window = (name: string) => async () => {
    events.push(`${name} in`);
    await pause(30);
    events.push(`${name} out`);
  };
  await Promise.all([a.hold(window('a1')), b.hold(window('b1')), a.hold(window('a2')), b.hold(window('b2'))]);
  for (let i = 0; i < events.length; i += 2) assert.equal(events[i]!.replace(' in', ' out'), events[i + 1], `overlap in ${events.join(', ')}`);
  assert.equal(events.length, 8);
  assert.ok(!existsSync(file), 'given back');
});

test("a create inside the holder's own window goes through", async () => {
  const lock = new CreateLock(lockFile(), 1_000);
  const made = await lock.hold(() => lock.hold(async () => 'made'));
  assert.equal(made, 'made');
});

test('a window that throws gives the lock back', async () => {
  const file = lockFile();
  await assert.rejects(
    new CreateLock(file).hold(() => Promise.reject(new Error('lost'))),
    /lost/,
  );
  assert.ok(!existsSync(file));
});

test('a holder that died is taken over; a live one is waited for', async () => {
  const file = lockFile();
  mkdirSync(dirname(file), { recursive: true });
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  writeFileSync(file, dead);
  assert.equal(await new CreateLock(file).hold(async () => 'taken over'), 'taken over');

  writeFileSync(file, String(process.pid));
  const waiting = new CreateLock(file).hold(async () => 'after the holder');
  const first = await Promise.race([waiting, pause(100).then(() => 'still waiting')]);
  assert.equal(first, 'still waiting');
  writeFileSync(file, dead);
  assert.equal(await waiting, 'after the holder');
});
