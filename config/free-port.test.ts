import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './free-port.ts';

test('ports lie below the ephemeral range, differ from one call to the next, and can be bound', async () => {
  const ephemeral = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  const ports = [await freePort(), await freePort(), await freePort()];
  assert.equal(new Set(ports).size, 3);
  for (const port of ports) {
    assert.ok(port >= 10_000 && port < ephemeral, `${port} outside [10000, ${ephemeral})`);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a port something holds is passed over', async () => {
  const held = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(held, '127.0.0.1', resolve));
  try {
    for (let i = 0; i < 50; i++) assert.notEqual(await freePort(), held);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
