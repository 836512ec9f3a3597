// The ports a simulator run listens on, checked before anything starts: a port held by another process (even one
// that never answers) is one line naming the setting to change, not a run that waits on it for minutes.
import { connect, createServer } from 'node:net';

/** Why `port` on `host` cannot be listened on, or undefined when it can (it is released again at once). */
export function portProblem(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'EADDRINUSE' ? 'is in use by another process' : `cannot be listened on (${err.code ?? err.message})`),
    );
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}

/** The first of the run's local ports that cannot be used, as one line with the fix; undefined when all can. */
export async function localPortsProblem(ports: readonly { setting: string; port: number; host: string }[]): Promise<string | undefined> {
  for (const { setting, port, host } of ports) {
    if (port === 0) continue;
    const problem = await portProblem(port, host);
    if (problem) return `${setting} ${port} on ${host} ${problem}: stop that process, or set ${setting} to a free port (in .env or the environment)`;
  }
  return undefined;
}

/**
 * Whether something accepts connections on `port` of `host` within `timeoutMs` (tried every 20 ms): the embedded
 * simulator the main command started beside Playwright, listening by the time global setup asks, or soon after.
 */
export async function listensWithin(port: number, host: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, host);
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
    if (accepted) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
