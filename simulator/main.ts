// CLI: npm run simulator -- --port 4010 [--host H] [--seed N] [--dialogs N] [--profile NAME] [--config FILE]
//      [--callback-url URL] [--drift NAME]... [--live RATE] [--list-drifts [--json]] [--list-profiles [--json]]
// Prints one line "simulator listening on URL (...)" when ready; exit 0 on SIGINT/SIGTERM; exit 2 with one line
// on stderr for a bad flag, a bad config or a port in use.
import { runCli, UsageError } from './cli.ts';

runCli(process.argv.slice(2), process.env, (line) => console.log(line)).then(
  (sim) => {
    if (!sim) return;
    const stop = () => {
      sim.close().finally(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (err: Error) => {
    process.stderr.write(`simulator: ${err instanceof UsageError ? err.message : `cannot start: ${err.stack ?? err}`}\n`);
    process.exit(2);
  },
);
