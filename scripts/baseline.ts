// `npm run baseline -- NAME`: saves this run's reports/fingerprint.json as baselines/NAME.json, to compare later
// runs with (`npm run contract -- --baseline NAME`). One line and exit 2 for a bad name, no fingerprint yet, or a partial
// run's fingerprint unless --partial asks for it (then it is marked so); one line names the items the old one had more.
import { commandLineOrExit, exitWithUsage, helpPointer, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { BaselineError, saveBaseline } from '../contract/core/baselines.ts';

const COMMAND = {
  script: 'baseline',
  usage: ['NAME [--partial]'],
  summary:
    "Saves the last run's fingerprint (reports/fingerprint.json, written by npm run contract) as baselines/NAME.json, with its\n" +
    'date, target host, vendor version, scope and which test observed each item. Commit it; later runs compare with it\n' +
    '(npm run contract -- --baseline NAME). An existing baseline of that name is replaced; the items of it the new one\n' +
    'lacks are named in one line. The fingerprint of a partial run (a filter, a project or files named, checks left\n' +
    'out, catalogued items it observed nowhere) is refused: a baseline from it would call all it left out changed.',
  positionals: [['NAME', 'letters, digits, dot, dash and underscore, e.g. staging or vendor-4.2']],
  options: {
    partial: { type: 'boolean', description: "save a partial run's fingerprint all the same, marked partial with why" },
  },
  environment: [REPORTS_DIR_ENV],
  exit: '0 saved; 2 a bad or missing name, no fingerprint yet (run npm run contract first), or a partial run without --partial.',
  examples: ['npm run contract && npm run baseline -- vendor-4.2', 'npm run contract -- contract/v2 && npm run baseline -- v2-only --partial'],
} as const;

const { positionals, values } = commandLineOrExit(COMMAND);
const [name, ...extra] = positionals;
if (!name || extra.length > 0) exitWithUsage(COMMAND, `give one baseline NAME; ${helpPointer(COMMAND)}`);
try {
  const saved = saveBaseline(name, { partial: values.partial === true });
  console.log(
    `baseline: ${saved.replaced ? 'replaced' : 'saved'} ${saved.path} (${saved.items} items from reports/fingerprint.json${saved.partial ? `; marked partial: ${saved.partial}` : ''})`,
  );
  if (saved.missing.length > 0)
    console.error(`baseline: warning: ${saved.path} now holds ${saved.missing.length} items fewer than the one it replaced: ${saved.missing.join(', ')}`);
} catch (err) {
  if (!(err instanceof BaselineError)) throw err;
  exitWithUsage(COMMAND, `${err.message}; ${helpPointer(COMMAND)}`);
}
