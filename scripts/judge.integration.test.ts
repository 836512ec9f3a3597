// npm run judge on traffic recorded by a proxy that is not the suite's (scripts/recording-proxy.ts), as QA records
// staging: the suite's run against the conforming simulator, recorded, is judged with no failure and exit 0, and the
// run itself judged every check on at least the exchanges the judge of its own HAR judges (one engine); runs
// against drifted simulators, recorded the same way, are judged exit 1 at the drifted item, for drifts that show in a
// recording's exchanges; and no credential or token of the recording reaches a report.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { basicAuthorization } from '../config/suite-config.ts';
import { namesLocation } from '../power/mutation-score.ts';
import { resolveDrifts } from '../simulator/drifts/index.ts';
import { judgeRecording, recordedSecrets, type HarLog } from '../checks/recording.ts';
import { CheckRegistry } from '../checks/check.ts';
import { BUILT_IN } from '../checks/registry.ts';
import { contractValidators } from '../openapi/validators.ts';
import { EXCHANGES_HAR } from '../contract/core/run-report-files.ts';
import { runEntry } from './package-scripts.ts';
import { startRecordingProxy } from './recording-proxy.ts';
import { runSuites, startRunSimulator } from './suite-run.ts';

/** One drift a recording shows, for each kind of evidence the judge reads. */
const SHOWN = [
  'duration-string', // one exchange against the document
  'start-200-with-body', // a status the document does not list for the operation
  'auth-ignored', // a request without Authorization served
  'ip-location-swapped', // what §2.1's words rule out of one list item
  'name-without-city', // a record's name
  'created-at-milliseconds', // the time a message was sent
  'updated-hour-early', // a dialog's reads against its recorded create
  'start-keeps-status', // a write and the read after it
  'stop-keeps-status',
  'v1-get-create-starts',
  'create-response-false-ignored', // a create asked for no identifiers
  'pages-overlap', // the pages of one query
  'list-total-off-by-one',
  'v2-create-repeats-uuid', // series: creates, messages, downloads
  'message-id-repeated',
  'file-bytes-vary',
  // Across calls, with nothing the suite's own recorder adds:
  'v1-status-differs', // a V1 read against a V2 read of one dialog
  'record-updated-stale', // a record against its list item
  'create-ids-mismatch', // the identifiers a create answers, then the reads of that dialog
  'command-ignored', // a write and the reads after it: where a goto leaves its dialog
  'moved-dialog-not-found', // a trigger on a moved dialog against one never moved
  'post-create-not-started', // one dialog's status across the reads after its writes
];

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));

test('a recorded conforming run is judged with no failure; a recorded drifted one fails at the drifted item; no secret reaches a report', async () => {
  const base = mkdtempSync(join(tmpdir(), 'judge-'));
  const names = [undefined, ...SHOWN];
  const targets = await Promise.all(
    names.map(async (drift) => {
      const { sim, callbackPort } = await startRunSimulator({ drifts: drift ? [drift] : [] });
      return { drift, sim, callbackPort, proxy: await startRecordingProxy(sim.url) };
    }),
  );
  try {
    await runSuites(
      targets.map((t) => ({
        name: t.drift ?? 'conforming',
        baseUrl: t.proxy.url,
        callbackPort: t.callbackPort,
        simulator: t.sim.config,
        reportsDir: join(base, 'runs', t.drift ?? 'conforming'),
      })),
      { lanes: 3, workers: 1 },
      join(base, 'invocation'),
    );
    const problems: string[] = [];
    for (const t of targets) {
      const name = t.drift ?? 'conforming';
      const har = t.proxy.har() as HarLog;
      const file = join(base, `${name}.har`);
      writeFileSync(file, JSON.stringify(har));
      const reportsDir = join(base, 'judged', name);
      const judged = await runEntry('scripts/judge.ts', [file], { ...process.env, REPORTS_DIR: reportsDir, FORCE_COLOR: '0' });
      const failures = JSON.parse(readFileSync(join(reportsDir, 'judge', 'failures.json'), 'utf8')).failures as Array<{
        id: string;
        operationId: never;
        pointer: string;
      }>;
      if (t.drift === undefined) {
        if (judged.code !== 0 || failures.length) problems.push(`conforming: exit ${judged.code}, ${failures.map((f) => f.id).join('; ')}`);
        // One judge: the live run judged every check on at least the exchanges npm run judge judges in its own HAR.
        const runDir = join(base, 'runs', name);
        const own = judgeRecording(
          JSON.parse(readFileSync(join(runDir, EXCHANGES_HAR), 'utf8')),
          contractValidators(),
          new CheckRegistry(BUILT_IN),
          'own',
          10_000,
        );
        const rows = (JSON.parse(readFileSync(join(runDir, 'coverage.json'), 'utf8')) as { checks: Array<{ name: string; judged: number }> }).checks;
        for (const [check, { judged: n }] of Object.entries(own.judged)) {
          const live = rows.find((r) => r.name === check)?.judged ?? 0;
          if (live < n) problems.push(`conforming: ${check} judged ${live} times in the run, ${n} by npm run judge on its HAR`);
        }
        if (Object.keys(own.judged).length < 40) problems.push(`conforming: the judge of the run's HAR made only ${Object.keys(own.judged).length} checks`);
      } else {
        const [drift] = resolveDrifts([t.drift]);
        const atItem = failures.find((f) => drift!.breaks!.some((location) => namesLocation(f, location)));
        if (judged.code !== 1 || !atItem)
          problems.push(`${name}: exit ${judged.code}, not at its item; judged ${failures.map((f) => f.id).join('; ') || 'nothing'}`);
      }
      // The recording carries the Basic credentials (and the password in them) and the custom block's tokens.
      const { login, password } = t.sim.config.auth;
      const secrets = [...recordedSecrets(har), password, basicAuthorization(login, password).slice('Basic '.length)];
      assert.ok(secrets.length >= 3, `${name}: the recording carries credentials and tokens`);
      for (const report of files(reportsDir)) {
        const text = readFileSync(report, 'utf8');
        for (const secret of secrets) if (text.includes(secret)) problems.push(`${name}: ${report} holds a secret of the recording`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await Promise.all(targets.map(async (t) => [await t.proxy.close(), await t.sim.close()]));
  }
});
