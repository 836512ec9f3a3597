// `npm run respect [-- --workflow NAME]... [--verbose]`: the lifecycle and the documented error flows as an Arazzo
// workflow (workflows/dialog-lifecycle.arazzo.yaml), run by Redocly Respect against API_BASE_URL or, without one, a
// simulator started in this process (SIMULATOR_PROFILE). The send and command bodies the spec does not show come from
// SEND_BODY / COMMAND_BODY, else from the last contract run against the same target, else from a discovery run here;
// they reach Respect as inputs, the credentials through its environment only. Respect's output passes through the
// redaction of the configured secrets, and its reports (reports/respect/) are scanned for them.
// Exit 0: green; 1: the target drifted (each failed step on one line) or a secret leaked; 2: could not judge.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { commandLineOrExit, exitWithUsage, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { namedSecretsOf, type CommandConfig } from '../config/suite-config.ts';
import { suiteVersion } from '../config/suite-version.ts';
import { configOrExit, PROJECT_ROOT, REPORTS_DIR } from '../contract/core/env.ts';
import { recordedShapes, shapesTarget } from '../contract/core/request-shapes.ts';
import { clearJournal, readJournal } from '../contract/core/journal.ts';
import { discoverRunShapes } from '../contract/run/run-setup.ts';
import { findSecrets, leakLine } from '../contract/reporters/secret-scan.ts';
import { targetProblem } from '../contract/target/target-check.ts';
import { configuredShape, type RequestShapes } from '../http/body-discovery.ts';
import { redactText } from '../http/redact.ts';
import { guardSecret, secretWritten, suiteText, weakSecretWarning, type GuardedSecret } from '../http/secret-match.ts';
import { DOCUMENT_PATH } from '../openapi/document.ts';
import { harOf } from '../report/har.ts';
import { withSimulatorDefaults } from '../simulator/suite-env.ts';
import { failureLines, respectVerdict, stepDescriptions, workflowInputs, type RespectResult } from '../workflows/respect.ts';
import { startRunSimulator } from './suite-run.ts';
import { inVendorClock, vendorClockOf, type VendorClock } from '../contract/clock/vendor-clock.ts';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const WORKFLOW = join(PROJECT_ROOT, 'workflows', 'dialog-lifecycle.arazzo.yaml');
const SOURCE = 'dialogBot';
/** Respect's runtime limits: one request as the suite's client waits for one, the whole run as a CI step would. */
const FETCH_TIMEOUT_MS = 12_000;
const RUN_TIMEOUT_MS = 5 * 60_000;

const DOCUMENT = parse(readFileSync(WORKFLOW, 'utf8')) as { workflows: Array<{ workflowId: string; steps: Array<{ stepId: string; description?: string }> }> };
const WORKFLOWS = DOCUMENT.workflows.map((w) => w.workflowId);

const COMMAND = {
  script: 'respect',
  usage: ['[--workflow NAME]... [--verbose]'],
  summary:
    'Runs workflows/dialog-lifecycle.arazzo.yaml (Arazzo 1.0.1) with Redocly Respect: the lifecycle create → start → stop\n' +
    '→ send → command goto, and the documented error flows (unknown dialog 404, wrong or missing credentials 401), each\n' +
    "step's success criteria taken from the specification. Reports in reports/respect/ (respect.json, respect.har).",
  options: {
    workflow: { type: 'string', value: 'NAME', multiple: true, description: `run only this workflow: ${WORKFLOWS.join(', ')}`, default: 'all' },
    verbose: { type: 'boolean', description: 'Respect prints every request and response (secrets masked)' },
  },
  environment: [
    ['API_BASE_URL', 'the target without /api; unset: a simulator started here'],
    ['SIMULATOR_PROFILE', 'the vendor profile of that simulator (default: default); only without API_BASE_URL'],
    ['API_LOGIN, API_PASSWORD', 'Basic credentials, handed to Respect through its environment only'],
    ['BOT_ID, GOTO_BOT_ID', 'the bot the dialog is created on, and the goto target'],
    ['SEND_BODY, COMMAND_BODY', "the body shapes (§4.2: not shown); unset: the last contract run's for this target, else discovered"],
    REPORTS_DIR_ENV,
  ],
  exit: "0 green; 1 a step failed (one line each) or a secret reached Respect's output; 2 bad input; 3 no verdict (the target cannot be judged: the line says why).",
  examples: ['API_BASE_URL=https://staging.example.com npm run respect -- --workflow lifecycle'],
} as const;

function fail(message: string): never {
  console.error(`respect: ${message}`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): { workflows: string[]; verbose: boolean } {
  const { values } = commandLineOrExit(COMMAND, argv);
  const workflows = values.workflow ?? [];
  const unknown = workflows.find((w) => !WORKFLOWS.includes(w));
  if (unknown !== undefined) exitWithUsage(COMMAND, `--workflow takes one of ${WORKFLOWS.join(', ')}; got ${unknown}`);
  return { workflows, verbose: values.verbose === true };
}

/** What respect reads: the variables its help names, the target's among them required, no other. */
type RespectConfig = CommandConfig<typeof COMMAND.environment>;

/** The body shapes: configured, else the last contract run's for this target, else discovered now. */
async function shapesFor(config: RespectConfig, dir: string): Promise<{ shapes: RequestShapes; from: string; clock?: VendorClock }> {
  const recorded = recordedShapes(REPORTS_DIR, shapesTarget(config));
  // A configured template always wins over what a run found, as in the contract run (contract/core/request-shapes.ts).
  const pick = (kind: keyof RequestShapes, template: string | undefined, variable: string) =>
    template ? configuredShape(template, variable) : recorded?.shapes[kind];
  const send = pick('send', config.sendBody, 'SEND_BODY');
  const command = pick('command', config.commandBody, 'COMMAND_BODY');
  if (send?.template && command?.template)
    return { shapes: { send, command }, from: recorded ? `the contract run's ${relative(PROJECT_ROOT, recorded.file)}` : 'the configuration' };
  console.log(`respect: no body shapes recorded for ${shapesTarget(config)}: discovering them as the contract run's setup does`);
  const found = await discoverRunShapes(config, dir, '[respect] settles the send and command body shapes the target takes');
  // The discovery's own exchanges, as a HAR beside Respect's.
  const har = harOf(readJournal(dir, 'exchange'), config.baseUrl, { name: 'dialog-contract', version: suiteVersion() }, 'respect: body shape discovery');
  writeFileSync(join(dir, 'discovery.har'), `${JSON.stringify(har)}\n`);
  clearJournal(dir, 'exchange');
  // The application's clock as the discovery read it from its stamps, as the contract run's setup does.
  return { shapes: found, from: `a discovery here (${relative(PROJECT_ROOT, join(dir, 'discovery.har'))})`, clock: found.clock.clock };
}

/** Respect's output, passed through line by line with the secrets redacted; says whether one was there. */
function relay(stream: NodeJS.ReadableStream, to: NodeJS.WritableStream, secrets: GuardedSecret[], leaked: { found: boolean }): Promise<void> {
  let pending = '';
  const write = (text: string) => {
    if (secrets.some((s) => secretWritten(text, s))) leaked.found = true;
    to.write(
      redactText(
        text,
        secrets.filter((s) => s.match !== 'none').map((s) => s.value),
      ),
    );
  };
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    write(pending.slice(0, end + 1));
    pending = pending.slice(end + 1);
  });
  return new Promise((resolve) =>
    stream.on('end', () => {
      write(pending);
      resolve();
    }),
  );
}

const args = parseArgs(process.argv.slice(2));
const loaded = configOrExit('respect', COMMAND.environment, withSimulatorDefaults);
const dir = join(REPORTS_DIR, 'respect');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const local = loaded.usesSimulator ? await startRunSimulator({ profile: loaded.simulatorProfile }) : undefined;
// Against the simulator started here: its address (a free port), with the credentials and bots its profile gave.
const config: RespectConfig = local ? { ...loaded, baseUrl: local.sim.url } : loaded;
let exitCode = 2;
try {
  const unreachable = local ? undefined : await targetProblem(config);
  if (unreachable) {
    console.error(`respect: no verdict: ${unreachable}`);
    process.exit(3);
  }
  const { shapes, from, clock: discovered } = await shapesFor(config, dir);
  for (const kind of ['send', 'command'] as const) {
    const variable = kind === 'send' ? 'SEND_BODY' : 'COMMAND_BODY';
    if (!shapes[kind].template) fail(`no ${kind} body shape for ${shapesTarget(config)} (${shapes[kind].how}): set ${variable} (see .env.example)`);
  }
  // The list window in the application's clock when a discovery here read it; else around the Date header's,
  // unverified: a quarter of an hour either way, as the contract suite sends it (contract/clock/vendor-clock.ts).
  const clock = discovered ?? (await vendorClockOf(config));
  const now = Date.now();
  const inputs = workflowInputs({
    botId: config.botId,
    gotoBotId: config.gotoBotId,
    sendTemplate: shapes.send.template!,
    commandTemplate: shapes.command.template!,
    now,
    createdFrom: inVendorClock(clock, now, 'early'),
    unknownUuid: randomUUID(),
  });
  console.log(
    `respect: ${local ? `${shapesTarget(config)} at ${config.baseUrl}` : config.baseUrl}; body shapes from ${from}: send ${shapes.send.how}; command ${shapes.command.how}`,
  );

  const jsonFile = join(dir, 'respect.json');
  const respectArgs = [
    REDOCLY,
    'respect',
    relative(PROJECT_ROOT, WORKFLOW),
    '--server',
    JSON.stringify({ [SOURCE]: `${config.baseUrl}/api` }),
    // Respect matches a status only to the exact keys of the document, not to command's "2XX" (§4.2: success not
    // shown): its status code check is off; every step states the statuses the specification lists in successCriteria.
    '--severity',
    JSON.stringify({ STATUS_CODE_CHECK: 'off' }),
    '--json-output',
    relative(PROJECT_ROOT, jsonFile),
    '--har-output',
    relative(PROJECT_ROOT, join(dir, 'respect.har')),
    '--max-fetch-timeout',
    String(FETCH_TIMEOUT_MS),
    '--execution-timeout',
    String(RUN_TIMEOUT_MS),
    ...args.workflows.flatMap((w) => ['--workflow', w]),
    ...(args.verbose ? ['--verbose'] : []),
  ];
  // What Respect writes itself: the workflow's step names and descriptions, and the document they quote.
  const own = suiteText(readFileSync(WORKFLOW, 'utf8'), readFileSync(DOCUMENT_PATH, 'utf8'));
  const secrets = namedSecretsOf(config).map((s) => guardSecret(s.name, s.value, own));
  for (const secret of secrets) {
    const warning = weakSecretWarning(secret);
    if (warning) console.error(`secret-guard: ${warning}`);
  }
  const started = Date.now();
  const child = spawn(process.execPath, respectArgs, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // Read by the workflow as inputs.env (Respect takes it from its environment): never on a command line or in a file.
      API_LOGIN: config.login,
      API_PASSWORD: config.password,
      REDOCLY_CLI_RESPECT_INPUT: JSON.stringify(inputs),
      REDOCLY_TELEMETRY: 'off',
      ...(process.stdout.isTTY ? {} : { NO_COLOR: '1' }),
    },
  });
  const leaked = { found: false };
  const relayed = Promise.all([relay(child.stdout, process.stdout, secrets, leaked), relay(child.stderr, process.stderr, secrets, leaked)]);
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  await relayed;
  const seconds = (Date.now() - started) / 1000;

  const leaks = findSecrets([dir], secrets);
  for (const leak of leaks) console.error(`secret-guard: ${leakLine(leak, PROJECT_ROOT)}`);
  if (leaked.found) console.error('secret-guard: Respect printed a configured secret (redacted above): report it to Redocly and keep its output out of logs');
  if (!existsSync(jsonFile)) fail(`Redocly Respect wrote no result (exit ${status}): see its output above`);

  const verdict = respectVerdict(JSON.parse(readFileSync(jsonFile, 'utf8')) as RespectResult, stepDescriptions(DOCUMENT));
  const created = verdict.created
    ? `; dialog ${verdict.created.uuid} created, handed to an operator at the end (stop → ${verdict.created.cleanupStatus ?? 'not reached'})`
    : '';
  console.log(`respect: ${verdict.workflows} workflows, ${verdict.steps} steps, ${verdict.requests} requests in ${seconds.toFixed(1)} s${created}`);
  for (const line of failureLines(verdict)) console.error(`respect: FAILED ${line}`);
  if (verdict.unjudged.length > 0 && verdict.failures.length === 0) {
    // Nothing drifted, but the run could not be judged: one line saying why, no failure to file.
    console.error(`respect: could not judge the target: ${verdict.unjudged.join(' | ')}`);
    exitCode = 2;
  } else exitCode = verdict.failures.length > 0 || leaks.length > 0 || leaked.found ? 1 : status === 0 ? 0 : 2;
  if (exitCode === 0) console.log(`respect: green; reports in ${relative(PROJECT_ROOT, dir)}/`);
} finally {
  await local?.sim.close();
}
process.exit(exitCode);
