// npm run test:k6 (in test:all, so in CI): every bundle on a real k6 against the simulator with limits the scripts
// are not told (load/run.ts HIDDEN_LIMITS), alone and split as k6-operator splits a TestRun. What the unit tests' k6
// stand-in cannot show is shown here: executors, per-rung submetrics, execution segments, thresholds, k6's own file
// writing, its regular expressions (a send body learned from refusals).
// Sizes must be found exactly, the rate within 15%, by every runner and merged; every report JSON has its HTML page
// beside it, one mark per rung and per value tried, and no file of a run holds a secret. Short rungs, and the runs that
// measure no rate side by side, keep it to about four minutes. Without k6 on PATH it skips, saying so (users install
// k6 themselves; CI puts a stock k6 on PATH).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LadderResult } from '../discovery/ladder-analysis.ts';
import { REPORT_LINE, type LoadReport } from '../discovery/load-summary.ts';
import { operatorSegmentArgs } from '../discovery/execution-segment.ts';
import { readFingerprintFile } from '../lib/fingerprint.ts';
import { freshLoadFindings } from '../report/load-findings.ts';
import { targetOf } from '../report/run-meta.ts';
import type { SizeLimitFinding } from '../discovery/size-limits.ts';
import type { MergedReport } from '../discovery/merge-reports.ts';
import { basicAuthorization } from '../config/suite-config.ts';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { startSimulator } from '../simulator/server.ts';
import { suiteEnvFor } from '../simulator/suite-env.ts';
import { buildBundles } from './build.ts';
import { HIDDEN_LIMITS } from './run.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNNER = join(ROOT, 'load', 'run.ts');
const k6 = (process.env.PATH ?? '').split(delimiter).find((dir) => {
  try {
    accessSync(join(dir, 'k6'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
const skip = k6 ? false : 'no k6 on PATH: the real-k6 check is skipped (install k6: https://grafana.com/docs/k6/latest/set-up/install-k6/)';

/**
 * Short ladders around the hidden 40/s: 30 sustained, 45 the first refused, 68 and 101 drained (they measure the
 * refill). Alone, 4 s rungs count 320 refills. Split, a runner counts only its share of them, about as if each token
 * went to a runner at random, so rungs of 4 s per runner give every runner about 320 (a counting error near 5%: 15%
 * is three of them). Rungs of 8 s split in four gave runners 9 to 11% off in quiet runs.
 */
const LADDER = { LADDER_FROM: '30', LADDER_TO: '110', LADDER_FACTOR: '1.5', LADDER_RUNG_SECONDS: '4', LADDER_PAUSE_SECONDS: '3' };
const splitLadder = (runners: number) => ({ ...LADDER, LADDER_RUNG_SECONDS: String(4 * runners), LADDER_OPERATIONS: 'list' });
const RATE = HIDDEN_LIMITS.rate.perSecond;

interface Run {
  code: number | null;
  output: string;
  dir: string;
}

/** `npm run load -- ARGS` against its own simulator, reports in a fresh directory; the environment names no target. */
function load(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'real-k6-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER, ...args, '--quiet'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', API_BASE_URL: '', LOAD_REPORTS_DIR: dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output: readable(output), dir }));
  });
}

/**
 * `k6 run ARGS BUNDLE` itself, as a k6-operator pod runs it: only the target's settings in its environment, its
 * reports in the working directory `cwd` (no LOAD_REPORTS_DIR). The output as k6 printed it.
 */
function k6Directly(bundle: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('k6', ['run', '--quiet', ...args, bundle], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output, dir: cwd }));
  });
}

/** The output as a failure message: without the runners' one-line JSON reports, which the report files hold. */
const readable = (output: string) =>
  output
    .split('\n')
    .filter((line) => !line.startsWith(REPORT_LINE))
    .join('\n');

const report = <T extends LoadReport = LoadReport>(run: Run, script: string): T => JSON.parse(readFileSync(join(run.dir, `${script}.json`), 'utf8')) as T;

/** Every file under a directory, at any depth. */
const filesIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesIn(join(dir, e.name)) : [join(dir, e.name)]));

/** The simulator's password (every run here uses its default credentials) and the Basic credential made of it. */
const { login, password } = DEFAULT_CONFIG.auth;
const SECRETS = [password, basicAuthorization(login, password).replace(/^Basic /, '')];

/**
 * The pages of a run: beside every report JSON (alone, each runner's, the merge) its HTML, with one mark per rung of
 * each ladder of the JSON (in that ladder's section) and one per value each size search tried; and no secret in any
 * file the run left. Returns the report names, so a test can say which it expected.
 */
function checkPages(run: Run): string[] {
  const files = filesIn(run.dir);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const secret of SECRETS) assert.ok(!text.includes(secret), `${file} holds a secret`);
  }
  const reports = files.filter((f) => f.endsWith('.json') && !f.endsWith('.fingerprint.json'));
  for (const json of reports) {
    const page = json.replace(/\.json$/, '.html');
    assert.ok(existsSync(page), `no ${page} beside ${json}\n${run.output}`);
    const html = readFileSync(page, 'utf8');
    const r = JSON.parse(readFileSync(json, 'utf8')) as LoadReport;
    const ladders = (r.findings as { ladders?: LadderResult[] } | null)?.ladders ?? [];
    const limits = (r.findings as { limits?: SizeLimitFinding[] } | null)?.limits ?? [];
    const part = (opening: string) => html.slice(html.indexOf(opening)).split('</section>')[0]!;
    for (const l of ladders) {
      const marks = part(`<section class="ladder" data-operation="${l.operationId}">`).match(/<g class="rung /g)?.length ?? 0;
      assert.equal(marks, l.stages.length, `${page}: ${l.operation}, one mark per rung`);
    }
    assert.equal(
      html.match(/<g class="rung /g)?.length ?? 0,
      ladders.reduce((n, l) => n + l.stages.length, 0),
      page,
    );
    for (const f of limits.filter((f) => f.result !== null)) {
      assert.equal(part(`<section class="search" data-id="${f.id}">`).match(/<circle class="probe /g)?.length, f.result!.probes.length, `${page}: ${f.id}`);
    }
  }
  return reports.map((f) => f.slice(run.dir.length + 1)).sort();
}
const laddersOf = (r: LoadReport) => (r.findings as { ladders: LadderResult[] }).ladders;
const withinRate = (estimate: number | null) => estimate !== null && Math.abs(estimate - RATE) <= 0.15 * RATE;

// Side by side: each run has its own simulator, ports and reports folder, and none of them measures time, so sharing
// the cores only slows them.
describe('every bundle on a real k6', { concurrency: true }, () => {
  test('size-limits on k6 finds every hidden limit exactly, alone and as the first of two runners', { skip }, async () => {
    const limitsOf = (r: LoadReport) => Object.fromEntries((r.findings as { limits: SizeLimitFinding[] }).limits.map((f) => [f.id, f.result?.limit]));
    const expected = {
      'limit.maxPageCount': HIDDEN_LIMITS.maxPageCount.value,
      'limit.maxTextLength.send': HIDDEN_LIMITS.maxTextLength.value,
      'limit.maxTextLength.sendMessage': HIDDEN_LIMITS.maxTextLength.value,
      'limit.maxVariablesBytes': HIDDEN_LIMITS.maxVariablesBytes.value,
    };
    const alone = await load(['size-limits']);
    assert.equal(alone.code, 0, alone.output);
    assert.deepEqual(limitsOf(report(alone, 'size-limits')), expected, alone.output);
    assert.deepEqual(checkPages(alone), ['size-limits.json']);

    const split = await load(['size-limits', '--split', '2']);
    assert.equal(split.code, 0, split.output);
    const merged = report<MergedReport>(split, 'size-limits');
    assert.deepEqual(limitsOf(merged), expected, split.output);
    assert.deepEqual(merged.disagreements, []);
    const second = JSON.parse(readFileSync(join(split.dir, 'split', 'size-limits', 'size-limits.runner-2-of-2.json'), 'utf8')) as LoadReport;
    assert.deepEqual((second.findings as { limits: unknown[] }).limits, [], 'the second runner does not search');
    assert.match(second.lines.join('\n'), /the size searches ran on the first runner only/);
    assert.deepEqual(checkPages(split), [
      'size-limits.json',
      'split/size-limits/size-limits.runner-1-of-2.json',
      'split/size-limits/size-limits.runner-2-of-2.json',
    ]);
  });

  test('list and send on k6: every check and threshold passes', { skip }, async () => {
    for (const [script, env] of [
      ['list', { LIST_SECONDS: '3' }],
      ['send', { SEND_SECONDS: '3' }],
    ] as const) {
      const run = await load([script], env);
      assert.equal(run.code, 0, run.output);
      const r = report(run, script);
      assert.ok(r.requests.count > 0, run.output);
      assert.deepEqual(
        r.checks.filter((c) => c.fails > 0),
        [],
        run.output,
      );
      assert.deepEqual(
        r.thresholds.filter((t) => !t.ok),
        [],
        run.output,
      );
      assert.deepEqual(checkPages(run), [`${script}.json`]);
    }
  });

  test('a bundle run directly (as a k6-operator pod runs it), with only its settings and no reports folder, leaves its findings and page', {
    skip,
  }, async () => {
    const simulator = await startSimulator({ port: 0, log: () => {} });
    try {
      const bundle = (await buildBundles(mkdtempSync(join(tmpdir(), 'real-k6-dist-')))).list.file;
      const cwd = mkdtempSync(join(tmpdir(), 'real-k6-pod-'));
      const { API_LOGIN, API_PASSWORD } = suiteEnvFor(simulator.config);
      const run = await k6Directly(bundle, [], { API_BASE_URL: simulator.url, API_LOGIN: API_LOGIN!, API_PASSWORD: API_PASSWORD!, LIST_SECONDS: '2' }, cwd);
      const output = run.output;
      run.output = readable(output);
      assert.equal(run.code, 0, run.output);
      assert.ok(existsSync(join(cwd, 'list.json')), run.output);
      assert.ok(report(run, 'list').requests.count > 0);
      assert.match(output, /^dialog-contract-load-report \{/m, 'the report on stdout too, for a pod log');
      assert.ok(!output.includes(API_PASSWORD!));
      assert.equal(API_PASSWORD, password);
      assert.deepEqual(checkPages(run), ['list.json'], 'the page beside it, written by k6 into the working directory');
    } finally {
      await simulator.close();
    }
  });

  test("send on k6 learns a body no candidate has from the vendor's plain-text refusals (k6's regular expressions, not Node's)", { skip }, async () => {
    const simulator = await startSimulator({ port: 0, log: () => {}, config: { send: { textFields: ['reply.body_text'] }, errors: { format: 'text' } } });
    try {
      const bundle = (await buildBundles(mkdtempSync(join(tmpdir(), 'real-k6-dist-')))).send.file;
      const { API_LOGIN, API_PASSWORD, BOT_ID } = suiteEnvFor(simulator.config);
      const env = { API_BASE_URL: simulator.url, API_LOGIN: API_LOGIN!, API_PASSWORD: API_PASSWORD!, BOT_ID: BOT_ID!, SEND_SECONDS: '2' };
      const run = await k6Directly(bundle, [], env, mkdtempSync(join(tmpdir(), 'real-k6-pod-')));
      run.output = readable(run.output);
      assert.equal(run.code, 0, run.output);
      const sent = report(run, 'send');
      const { sendBody } = sent.findings as { sendBody: { template: string; how: string } };
      assert.equal(sendBody.template, '{"reply":{"body_text":"{{text}}"}}', run.output);
      assert.match(sendBody.how, /^learned from its refusals: .*missing required field 'reply\.body_text'/);
      assert.deepEqual(
        sent.checks.filter((c) => c.fails > 0),
        [],
      );
    } finally {
      await simulator.close();
    }
  });

  test('size-limits run directly by k6 as the first of two runners: its findings carry their run, and a contract run about the same target takes them in', {
    skip,
  }, async () => {
    const simulator = await startSimulator({ port: 0, log: () => {}, config: { limits: HIDDEN_LIMITS } });
    try {
      const bundle = (await buildBundles(mkdtempSync(join(tmpdir(), 'real-k6-dist-'))))['size-limits'].file;
      const { API_LOGIN, API_PASSWORD, BOT_ID } = suiteEnvFor(simulator.config);
      const env = { API_BASE_URL: simulator.url, API_LOGIN: API_LOGIN!, API_PASSWORD: API_PASSWORD!, BOT_ID: BOT_ID! };
      const run = await k6Directly(bundle, operatorSegmentArgs(1, 2), env, mkdtempSync(join(tmpdir(), 'real-k6-pod-')));
      run.output = readable(run.output);
      assert.equal(run.code, 0, run.output);
      const name = 'size-limits.runner-1-of-2.fingerprint.json';
      const content = readFingerprintFile(JSON.parse(readFileSync(join(run.dir, name), 'utf8')))!;
      const target = targetOf(simulator.url);
      assert.equal(content.run?.target, target, run.output);
      assert.deepEqual(content.run?.load, { script: 'size-limits', segment: '0:1/2' });
      assert.match(content.run?.runId ?? '', /^k6 size-limits \S+, runner 1\/2 \(segment 0:1\/2\)$/);
      // What the contract run's reporter does with the files of reports/load/ (contract/reporters/run-reports.ts).
      const taken = freshLoadFindings([{ name, content }], target, 1, Date.now());
      assert.deepEqual(taken.skipped, []);
      assert.deepEqual(
        Object.fromEntries(taken.items.map((i) => [i.id, (i.observed as { largestAccepted?: number }).largestAccepted])),
        {
          'limit.maxPageCount': HIDDEN_LIMITS.maxPageCount.value,
          'limit.maxTextLength.send': HIDDEN_LIMITS.maxTextLength.value,
          'limit.maxVariablesBytes': HIDDEN_LIMITS.maxVariablesBytes.value,
        },
        run.output,
      );
    } finally {
      await simulator.close();
    }
  });
});

// One after another, after the runs above, with no other k6 beside them: a rate is measured on the clock, and a runner
// starved of the cores sends its arrivals in bunches that find the bucket empty (a CI run had one runner of four read
// 16% low while eleven k6 processes shared two cores).
describe('rate-limit on a real k6, alone on the machine', () => {
  test('rate-limit on k6 finds the hidden rate within 15% on list and send', { skip }, async (t) => {
    const run = await load(['rate-limit'], LADDER);
    assert.equal(run.code, 0, run.output);
    const ladders = laddersOf(report(run, 'rate-limit'));
    for (const l of ladders) t.diagnostic(`${l.operation}: ≈ ${l.analysis.estimatedLimit}/s (hidden ${RATE}/s)`);
    assert.deepEqual(
      ladders.map((l) => l.operationId),
      ['getV2Conversations', 'postV2ConversationSend'],
    );
    for (const l of ladders) assert.ok(withinRate(l.analysis.estimatedLimit), `${l.operation}: ≈ ${l.analysis.estimatedLimit}/s\n${run.output}`);
    assert.deepEqual(checkPages(run), ['rate-limit.json']);
  });

  for (const runners of [2, 4]) {
    test(`rate-limit split into ${runners} k6 processes as k6-operator splits it: every runner and the merge within 15%`, { skip }, async (t) => {
      const run = await load(['rate-limit', '--split', String(runners)], splitLadder(runners));
      assert.equal(run.code, 0, run.output);
      const merged = report<MergedReport>(run, 'rate-limit');
      assert.ok(withinRate(laddersOf(merged)[0]!.analysis.estimatedLimit), run.output);
      const splitDir = join(run.dir, 'split', 'rate-limit');
      const own = readdirSync(splitDir)
        .filter((f) => /^rate-limit\.runner-\d-of-\d\.json$/.test(f))
        .map((f) => JSON.parse(readFileSync(join(splitDir, f), 'utf8')) as LoadReport);
      assert.equal(own.length, runners);
      t.diagnostic(
        `merged ≈ ${laddersOf(merged)[0]!.analysis.estimatedLimit}/s; ${own.map((r) => `${r.segment.text} ≈ ${laddersOf(r)[0]!.analysis.estimatedLimit}/s`).join(', ')} (hidden ${RATE}/s)`,
      );
      for (const r of own)
        assert.ok(withinRate(laddersOf(r)[0]!.analysis.estimatedLimit), `${r.segment.text}: ≈ ${laddersOf(r)[0]!.analysis.estimatedLimit}/s\n${run.output}`);
      assert.deepEqual(merged.disagreements, [], run.output);
      assert.deepEqual(checkPages(run), [
        'rate-limit.json',
        ...Array.from({ length: runners }, (_, i) => `split/rate-limit/rate-limit.runner-${i + 1}-of-${runners}.json`),
      ]);
    });
  }
});
