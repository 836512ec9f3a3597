// Runs the whole contract suite against a simulator started on its own ports, exactly as a user points the suite
// at staging (API_BASE_URL), and reads Playwright's JSON report. Shared by the mutation run and the Prism check.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../simulator/config.ts';
import { firstLine, type SuiteRun } from '../lib/mutation-score.ts';

const require = createRequire(import.meta.url);
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface JsonSuite {
  title: string;
  file?: string;
  specs?: Array<{ title: string; file: string; tests: Array<{ projectName: string; status: string; results: Array<{ errors?: Array<{ message?: string }> }> }> }>;
  suites?: JsonSuite[];
}

/** Failed tests and the first failure line from Playwright's JSON report. */
export function readJsonReport(file: string): Omit<SuiteRun, 'seconds'> {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: JsonSuite[]; errors?: Array<{ message?: string }> };
  const failed: string[] = [];
  let passed = 0;
  let skipped = 0;
  let firstMessage: string | undefined;
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status === 'skipped') skipped++;
        else if (t.status === 'expected') passed++;
        else {
          failed.push(`[${t.projectName}] ${spec.file} › ${spec.title}`);
          firstMessage ??= firstLine(t.results.flatMap((r) => r.errors ?? [])[0]?.message);
        }
      }
    }
    suite.suites?.forEach(walk);
  };
  report.suites.forEach(walk);
  const globalError = firstLine(report.errors?.[0]?.message);
  return { failed, passed, skipped, ...(firstMessage ? { firstMessage } : {}), ...(globalError && !failed.length ? { error: globalError } : {}) };
}

/** The environment of a run against a simulator started elsewhere: its defaults stand in for a user's .env. */
export function simulatorTargetEnv(baseUrl: string, callbackPort: number): NodeJS.ProcessEnv {
  const bots = DEFAULT_CONFIG.bots;
  return {
    ...process.env,
    API_BASE_URL: baseUrl,
    API_LOGIN: DEFAULT_CONFIG.auth.login,
    API_PASSWORD: DEFAULT_CONFIG.auth.password,
    BOT_ID: String(bots[0]!.id),
    GOTO_BOT_ID: String(bots[1]!.id),
    CUSTOM_BLOCK_BOT_ID: String(bots.find((b) => b.customBlockUrl)!.id),
    BLOCKED_BOT_ID: String(bots.find((b) => b.blocked)!.id),
    FILE_ID: '',
    CALLBACK_PORT: String(callbackPort),
    CALLBACK_PUBLIC_URL: `http://127.0.0.1:${callbackPort}/callback`,
    FORCE_COLOR: '0',
  };
}

export interface SuiteRunOptions {
  /** Base URL of the target, without /api. */
  baseUrl: string;
  callbackPort: number;
  reportsDir: string;
  workers: number;
  /** A fingerprint file the run's drift report compares with (BASELINE); none by default. */
  baseline?: string;
  extraArgs?: string[];
}

/** The suite against an external target; the simulator's defaults stand in for a user's .env. */
export async function runSuite(options: SuiteRunOptions): Promise<SuiteRun> {
  rmSync(options.reportsDir, { recursive: true, force: true });
  mkdirSync(options.reportsDir, { recursive: true });
  const jsonFile = join(options.reportsDir, 'results.json');
  const env: NodeJS.ProcessEnv = {
    ...simulatorTargetEnv(options.baseUrl, options.callbackPort),
    REPORTS_DIR: options.reportsDir,
    PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile,
    PW_WORKERS: String(options.workers),
    BASELINE: options.baseline ?? '',
  };
  const started = Date.now();
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', '--reporter=json', ...(options.extraArgs ?? [])], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const seconds = (Date.now() - started) / 1000;
  try {
    return { ...readJsonReport(jsonFile), seconds };
  } catch {
    return { failed: [], passed: 0, skipped: 0, error: `no Playwright report: ${stderr.trim().split('\n')[0] ?? 'no output'}`, seconds };
  }
}
