// `npm run baseline -- NAME`: saves this run's reports/fingerprint.json as baselines/NAME.json, to compare later
// runs with (`npm run contract -- --baseline NAME`). One line and exit 2 for a bad name or no fingerprint yet.
import { commandLineOrExit, exitWithUsage, helpPointer, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { BaselineError, saveBaseline } from '../contract/core/baselines.ts';

const COMMAND = {
  script: 'baseline',
  usage: ['NAME'],
  summary:
    "Saves the last run's fingerprint (reports/fingerprint.json, written by npm run contract) as baselines/NAME.json, with its\n" +
    'date, target host and vendor version. Commit it; later runs compare with it (npm run contract -- --baseline NAME).\n' +
    'An existing baseline of that name is replaced.',
  positionals: [['NAME', 'letters, digits, dot, dash and underscore, e.g. staging or vendor-4.2']],
  options: {},
  environment: [REPORTS_DIR_ENV],
  exit: '0 saved; 2 a bad or missing name, or no fingerprint yet (run npm run contract first).',
  examples: ['npm run contract && npm run baseline -- vendor-4.2'],
} as const;

const { positionals } = commandLineOrExit(COMMAND);
const [name, ...extra] = positionals;
if (!name || extra.length > 0) exitWithUsage(COMMAND, `give one baseline NAME; ${helpPointer(COMMAND)}`);
try {
  const saved = saveBaseline(name);
  console.log(`baseline: ${saved.replaced ? 'replaced' : 'saved'} ${saved.path} (${saved.items} items from reports/fingerprint.json)`);
} catch (err) {
  if (!(err instanceof BaselineError)) throw err;
  exitWithUsage(COMMAND, err.message);
}
