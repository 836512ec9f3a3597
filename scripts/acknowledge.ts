// `npm run acknowledge -- ID --ticket URL --until YYYY-MM-DD --reason "…" [--by NAME]`: records a known drift in
// baselines/acknowledged.yaml (commit it). The drift is then reported as "acknowledged" with its ticket and does not
// fail the run until the day after --until. Bad input: one line, exit 2.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { join, relative } from 'node:path';
import { withAcknowledgement, utcDay } from '../report/acknowledged.ts';
import { acknowledgedFile, AcknowledgementsError, readAcknowledgements, writeAcknowledgements } from '../contract/acknowledgements.ts';
import { REPORTS_DIR } from '../contract/env.ts';
import { readRunJson } from '../contract/run-records.ts';

const usage = 'usage: npm run acknowledge -- ID --ticket URL --until YYYY-MM-DD --reason "why" [--by NAME]';

function fail(message: string): never {
  console.error(`acknowledge: ${message}`);
  process.exit(2);
}

/** Who acknowledges: --by, else git's user.name, else the login name. */
function who(given: string | undefined): string {
  if (given) return given;
  try {
    return execFileSync('git', ['config', 'user.name'], { encoding: 'utf8' }).trim() || (process.env.USER ?? 'unknown');
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

let parsed;
try {
  parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { ticket: { type: 'string' }, until: { type: 'string' }, reason: { type: 'string' }, by: { type: 'string' } } });
} catch (err) {
  fail(`${(err as Error).message}; ${usage}`);
}
const [id, ...extra] = parsed.positionals;
const { ticket, until, reason, by } = parsed.values;
if (!id || extra.length > 0) fail(`give exactly one drift id (as the drift report shows it); ${usage}`);
if (!ticket || !until || !reason) fail(`--ticket, --until and --reason are all needed; ${usage}`);
if (!/^https?:\/\//.test(ticket) || !URL.canParse(ticket)) fail(`--ticket ${ticket} is not an http(s) URL: give the vendor ticket's address`);
if (!/^\d{4}-\d{2}-\d{2}$/.test(until) || Number.isNaN(Date.parse(until)) || new Date(until).toISOString().slice(0, 10) !== until) fail(`--until ${until} is not a date: give YYYY-MM-DD`);
if (until < utcDay(Date.now())) fail(`--until ${until} is in the past: give the last day the acknowledgement should hold`);

// A drift the last run did not report is probably a typo: say so, but let it through (it may be acknowledged ahead).
const drift = join(REPORTS_DIR, 'drift.json');
if (existsSync(drift)) {
  try {
    if (!readRunJson<{ entries: Array<{ id: string }> }>(drift).entries.some((e) => e.id === id)) console.error(`acknowledge: note: the last run's drift report (reports/drift.json) has no item "${id}"`);
  } catch (err) {
    console.error(`acknowledge: note: ${(err as Error).message}`);
  }
}
try {
  const entries = readAcknowledgements();
  const replaced = entries.some((e) => e.id === id);
  writeAcknowledgements(withAcknowledgement(entries, { id, reason, ticket, acknowledgedBy: who(by), until }));
  console.log(`acknowledge: ${replaced ? 'updated' : 'added'} "${id}" until ${until} (${ticket}) in ${relative(process.cwd(), acknowledgedFile())}: commit it`);
} catch (err) {
  if (!(err instanceof AcknowledgementsError)) throw err;
  fail(err.message);
}
