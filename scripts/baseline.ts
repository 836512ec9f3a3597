// `npm run baseline -- NAME`: saves this run's reports/fingerprint.json as baselines/NAME.json, to compare later
// runs with (`npm run contract -- --baseline NAME`). One line and exit 2 for a bad name or no fingerprint yet.
import { BaselineError, saveBaseline } from '../contract/reporters/baselines.ts';

const usage = 'usage: npm run baseline -- NAME   (saves reports/fingerprint.json as baselines/NAME.json)';
const [name, ...extra] = process.argv.slice(2);
if (!name || extra.length > 0) {
  console.error(`baseline: ${usage}`);
  process.exit(2);
}
try {
  const saved = saveBaseline(name);
  console.log(`baseline: ${saved.replaced ? 'replaced' : 'saved'} ${saved.path} (${saved.items} items from reports/fingerprint.json)`);
} catch (err) {
  if (!(err instanceof BaselineError)) throw err;
  console.error(`baseline: ${err.message}`);
  process.exit(2);
}
