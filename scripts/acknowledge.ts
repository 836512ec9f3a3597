// `npm run acknowledge -- ID --ticket URL --until YYYY-MM-DD --reason "…" [--by NAME]`: records a known drift in
// baselines/acknowledged.yaml (commit it). The drift is then reported as "acknowledged" with its ticket and does not
// fail the run until the day after --until. Bad input, an id no report knows included: one line, exit 2.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { commandLineOrExit, exitWithUsage, helpPointer, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { ConfigError } from '../config/suite-config.ts';
import { isFailureId, withAcknowledgement, utcDay } from '../report/acknowledged.ts';
import { acknowledgedFile, AcknowledgementsError, readAcknowledgements, writeAcknowledgements } from '../contract/fixtures/acknowledgements.ts';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { readAllBaselines } from '../contract/core/baselines.ts';
import { readRunJson } from '../contract/core/run-records.ts';

const COMMAND = {
  script: 'acknowledge',
  usage: ['ID --ticket URL --until YYYY-MM-DD --reason "why" [--by NAME]'],
  summary:
    'Records a drift the vendor has a ticket for in baselines/acknowledged.yaml (commit it). Its test still fails and\n' +
    'shows as failed, the drift report lists it as "acknowledged" with the ticket, and the run passes if every failure\n' +
    'is acknowledged, until the day after --until. The same ID again updates its entry.',
  positionals: [['ID', "the drift's id as the drift report shows it (reports/drift.md, drift.html), in quotes"]],
  options: {
    ticket: { type: 'string', value: 'URL', description: "the vendor ticket's http(s) address (required)" },
    until: { type: 'string', value: 'YYYY-MM-DD', description: 'the last day (UTC) the acknowledgement holds; not in the past (required)' },
    reason: { type: 'string', value: 'TEXT', description: 'why it is acknowledged, as the report shows it (required)' },
    by: { type: 'string', value: 'NAME', description: 'who acknowledges it', default: "git's user.name, else the login name" },
    unseen: {
      type: 'boolean',
      description:
        "acknowledge an id that neither the last run nor a saved baseline holds (a drift CI saw on staging); it must still be a contract failure's id",
    },
  },
  environment: [['ACKNOWLEDGED_FILE', 'the file to write (default: baselines/acknowledged.yaml)'], REPORTS_DIR_ENV],
  exit:
    "0 recorded; 2 bad input: a missing or malformed option, or an ID that neither the last run's drift report nor a saved\n" +
    'baseline has (without --unseen; with it, one that is not a contract failure id: contract.CHECK OPERATION STATUS PLACE).',
  notes: [
    'An id must name an item of the last run (reports/drift.json) or of a saved baseline: a mistyped id is refused. A\n' +
      'contract failure CI saw on staging before any local run did is acknowledged with --unseen; it must still have a\n' +
      "contract failure's form.",
  ],
  examples: [
    'npm run acknowledge -- "contract.response_schema_conformance getV2Conversation 200 /source" \\\n    --ticket https://vendor.example/tickets/1234 --until 2027-01-31 --reason "source missing since 4.3, fix promised for 4.4"',
  ],
} as const;

function fail(message: string): never {
  return exitWithUsage(COMMAND, message);
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

/** The ids the last run's drift report and the saved baselines hold; unreadable ones add nothing. */
function knownIds(): { fromReport: Set<string> | undefined; fromBaselines: Set<string> } {
  const drift = join(REPORTS_DIR, 'drift.json');
  let fromReport: Set<string> | undefined;
  if (existsSync(drift)) {
    try {
      fromReport = new Set(readRunJson<{ entries: Array<{ id: string }> }>(drift).entries.map((e) => e.id));
    } catch (err) {
      console.error(`acknowledge: note: ${(err as Error).message}`);
    }
  }
  let baselines: ReturnType<typeof readAllBaselines> = [];
  try {
    baselines = readAllBaselines();
  } catch (err) {
    console.error(`acknowledge: note: ${(err as Error).message}`);
  }
  return { fromReport, fromBaselines: new Set(baselines.flatMap((b) => b.items.map((i) => i.id))) };
}

const { values, positionals } = commandLineOrExit(COMMAND);
const [id, ...extra] = positionals;
const { ticket, until, reason, by, unseen } = values;
if (!id || extra.length > 0) fail(`give exactly one drift id (as the drift report shows it, in quotes); ${helpPointer(COMMAND)}`);
if (!ticket || !until || !reason) fail(`--ticket, --until and --reason are all needed; ${helpPointer(COMMAND)}`);
if (!/^https?:\/\//.test(ticket) || !URL.canParse(ticket)) fail(`--ticket ${ticket} is not an http(s) URL: give the vendor ticket's address`);
if (!/^\d{4}-\d{2}-\d{2}$/.test(until) || Number.isNaN(Date.parse(until)) || new Date(until).toISOString().slice(0, 10) !== until)
  fail(`--until ${until} is not a date: give YYYY-MM-DD`);
if (until < utcDay(Date.now())) fail(`--until ${until} is in the past: give the last day the acknowledgement should hold`);

// An id no report knows is a typo, unless told it names a contract failure CI saw first.
const { fromReport, fromBaselines } = knownIds();
if (!fromReport?.has(id) && !fromBaselines.has(id)) {
  const where = `neither the last run's drift report (${fromReport ? 'reports/drift.json' : 'none yet'}) nor a saved baseline has it`;
  if (!unseen) fail(`no drift "${id}": ${where}; copy the id from the drift report, or give --unseen for a failure CI saw on staging`);
  if (!isFailureId(id)) fail(`no drift "${id}": ${where}, and it is not a contract failure id (contract.CHECK OPERATION STATUS PLACE)`);
  console.error(`acknowledge: note: ${where}: acknowledged ahead of a run that sees it (--unseen)`);
}
try {
  const entries = readAcknowledgements();
  const replaced = entries.some((e) => e.id === id);
  writeAcknowledgements(withAcknowledgement(entries, { id, reason, ticket, acknowledgedBy: who(by), until }));
  console.log(`acknowledge: ${replaced ? 'updated' : 'added'} "${id}" until ${until} (${ticket}) in ${relative(process.cwd(), acknowledgedFile())}: commit it`);
} catch (err) {
  if (!(err instanceof AcknowledgementsError || err instanceof ConfigError)) throw err;
  fail(err.message);
}
