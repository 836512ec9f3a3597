// Ports for listeners a run's child process binds later (the callback inbox, Prism). A port taken from listen(0)
// and released lies in the kernel's ephemeral range, where any outgoing connection may take it before the child
// binds it (one CI mutation run failed so). Ports below that range are never handed out by the kernel, so only
// our own allocations compete: a per-process cursor from a random start keeps concurrent processes apart.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (32768 where it cannot be read, Linux's default). */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > LOWEST + 1000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

const highest = ephemeralStart() - 1;
let cursor = LOWEST + Math.floor(Math.random() * (highest - LOWEST));

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port on `host` that nothing holds now and that the kernel will not hand to anyone else. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = cursor;
    cursor = cursor >= highest ? LOWEST : cursor + 1;
    if (await canBind(port, host)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${highest} on ${host} after 200 tries: stop what holds them`);
}
