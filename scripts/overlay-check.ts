// `npm run overlay:check [-- REPORTS_DIR]`: the learned document of a run is checked, not just written. Its overlay
// (reports/observed.overlay.yaml) must apply to openapi/dialog-bot.openapi.yaml with every action used, the result
// must pass Redocly's recommended rules (redocly.yaml), and every answer the run recorded (its HAR,
// reports/exchanges.har) must satisfy it: an answer the project's document accepts and the learned one refuses means
// the overlay claims more than was seen.
import { responseFailures } from '../checks/response.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { commandLineOrExit, exitWithUsage, helpPointer, REPORTS_DIR_ENV } from '../config/command-line.ts';
import { REPORTS_DIR } from '../contract/core/env.ts';
import { OBSERVED_DOCUMENT, OBSERVED_OVERLAY } from '../contract/core/run-report-files.ts';
import { EXCHANGES_HAR } from '../contract/core/run-report-files.ts';
import { readRunJson } from '../contract/core/run-records.ts';
import { harAnswers, type Har } from '../report/har.ts';
import type { Overlay } from '../report/overlay.ts';
import { applyOverlay } from '../report/learned-document.ts';
import { renderHeadline } from '../lib/failure.ts';
import { ContractValidators, contractValidators } from '../openapi/validators.ts';
import { loadDocument, type Document } from '../openapi/document.ts';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

export interface ObservedCheck {
  actions: number;
  /** Answers the run recorded, and those the learned document refuses while the project's accepts them. */
  answers: number;
  violations: string[];
  /** Everything wrong, one line each. */
  problems: string[];
  /** The overlay the run wrote, when it could be read. */
  overlay?: Overlay;
}

/** The three checks of one run's reports directory. */
export async function checkObserved(reportsDir: string): Promise<ObservedCheck> {
  const file = join(reportsDir, OBSERVED_OVERLAY);
  if (!existsSync(file))
    return { actions: 0, answers: 0, violations: [], problems: [`${relative(process.cwd(), file)} is missing: run npm run contract first`] };
  const documentFile = join(reportsDir, OBSERVED_DOCUMENT);
  const yamlOf = (path: string): unknown => {
    try {
      return parse(readFileSync(path, 'utf8'));
    } catch (err) {
      return new Error(`${relative(process.cwd(), path)} cannot be read as YAML (${(err as Error).message.split('\n')[0]}): run npm run contract again`);
    }
  };
  const overlay = yamlOf(file);
  const written = yamlOf(documentFile);
  const unreadable = [overlay, written].filter((v): v is Error => v instanceof Error);
  if (unreadable.length) return { actions: 0, answers: 0, violations: [], problems: unreadable.map((e) => e.message) };
  // Applied again only to find actions that match nothing; the answers are checked against the written document.
  const applied = await applyOverlay(overlay as Overlay, loadDocument());
  const problems = applied.unused.map((a) => `overlay action on ${a.target} matches nothing in the document`);

  // The document the run wrote beside its overlay is the one QA hands on: that file is linted and validates.
  const lint = spawnSync(process.execPath, [REDOCLY, 'lint', documentFile, '--config', 'redocly.yaml', '--format', 'codeframe'], { encoding: 'utf8' });
  // Clean means no warning either: Redocly exits 0 on warnings.
  if (lint.status !== 0 || /You have \d+ warnings?/.test(lint.stdout + lint.stderr))
    problems.push(`redocly lint of the learned document: ${`${lint.stdout}${lint.stderr}`.trim().split('\n').filter(Boolean).slice(0, 12).join(' | ')}`);

  const harFile = join(reportsDir, EXCHANGES_HAR);
  if (!existsSync(harFile)) problems.push(`${relative(process.cwd(), harFile)} is missing: run npm run contract first`);
  // A throttled answer was waited out, not judged: neither document is held to it (the learned one describes the
  // throttle answer's headers only, from the run's rate-limit observation).
  const exchanges = existsSync(harFile) ? harAnswers(readRunJson<Har>(harFile)).filter((a) => !a.throttled) : [];
  const base = contractValidators();
  const learned = new ContractValidators(written as Document);
  const violations = new Set<string>();
  for (const e of exchanges) {
    const answer = { status: e.status, contentType: e.contentType, contentLength: e.contentLength ?? undefined, body: e.body };
    const known = new Set(responseFailures(base, e.operationId, answer).map(renderHeadline));
    for (const headline of responseFailures(learned, e.operationId, answer).map(renderHeadline)) if (!known.has(headline)) violations.add(headline);
  }
  problems.push(...[...violations].map((v) => `the learned document refuses a recorded answer: ${v}`));
  return { actions: (overlay as Overlay).actions.length, answers: exchanges.length, violations: [...violations], problems, overlay: overlay as Overlay };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const COMMAND = {
    script: 'overlay:check',
    usage: ['[REPORTS_DIR]'],
    summary:
      'Checks the learned document of a run (npm run contract writes it): its overlay (observed.overlay.yaml) applies to\n' +
      "openapi/dialog-bot.openapi.yaml with every action used, the result (observed.openapi.yaml) passes Redocly's\n" +
      "recommended rules with no warning, and every answer the run recorded (exchanges.har) that the project's document\n" +
      'accepts, the learned one accepts too.',
    positionals: [['REPORTS_DIR', "the run's reports folder"]],
    options: {},
    environment: [REPORTS_DIR_ENV],
    exit: '0 all three hold; 1 a problem (one line each) or no reports yet; 2 bad input.',
    examples: ['npm run contract && npm run overlay:check', 'npm run overlay:check -- reports/profiles/bearer-ids'],
  } as const;
  const { positionals } = commandLineOrExit(COMMAND);
  if (positionals.length > 1) exitWithUsage(COMMAND, `give at most one reports folder; ${helpPointer(COMMAND)}`);
  const dir = positionals[0] ?? REPORTS_DIR;
  const result = await checkObserved(dir);
  for (const p of result.problems) console.error(`overlay: ${p}`);
  if (result.actions === 0 && result.answers === 0 && result.problems.length) process.exit(1);
  console.log(
    `overlay: ${result.actions} actions applied to the document, lint ${result.problems.some((p) => p.startsWith('redocly')) ? 'FAILED' : 'clean'}, ${result.answers} recorded answers, ${result.violations.length} refused by the learned document; ${relative(process.cwd(), join(dir, OBSERVED_DOCUMENT))}`,
  );
  process.exit(result.problems.length ? 1 : 0);
}
