// CLI: npm run simulator -- [--port N] [--profile NAME] [--callback-port N] ... (npm run simulator -- --help).
// Prints "simulator listening on URL (...)" and the settings a suite needs when ready; exit 0 on SIGINT/SIGTERM/SIGHUP
// or when the process that started it is gone;
// exit 2 with one line on stderr for a bad flag, a bad .env line, a bad config or a port in use.
import { fileURLToPath } from 'node:url';
import { loadDotenvFile } from '../config/dotenv-file.ts';
import { ConfigError } from '../config/suite-config.ts';
import { runCli, UsageError } from './cli.ts';

// Taken before anything is awaited: a parent that dies while this process starts (it prints "listening" and may
// then wait for a core on a busy machine) would otherwise be taken for init, and this process never see it go.
const parent = process.ppid;

// .env as the suite reads it: SIMULATOR_PORT and CALLBACK_PORT there hold for both.
const start = async () => {
  loadDotenvFile(fileURLToPath(new URL('../.env', import.meta.url)));
  return runCli(process.argv.slice(2), process.env, (line) => console.log(line));
};

const started = start();

// From the start: a stop asked for while the simulator still starts (a launcher that read its listening line and is
// done at once) closes it once it has started, where the signal's default would kill it before it could.
const stop = () => {
  started.then((sim) => sim?.close()).finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
process.once('SIGHUP', stop);

started.then(
  (sim) => {
    // Started by a run that was killed (no signal reaches us then): a simulator never outlives the process that
    // started it, so no run leaves a port held behind it.
    if (sim) setInterval(() => process.ppid !== parent && stop(), 1000).unref();
  },
  (err: Error) => {
    process.stderr.write(`simulator: ${err instanceof UsageError || err instanceof ConfigError ? err.message : `cannot start: ${err.stack ?? err}`}\n`);
    process.exit(2);
  },
);
