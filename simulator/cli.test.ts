// The command line: the ready line, clean stop on SIGTERM, --list-drifts, and exit 2 with one line for bad input.
// One real process proves the wiring (signals, exit codes); the rest runs runCli() in-process, which is faster.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, UsageError } from './cli.ts';
import { DRIFTS } from './drifts/index.ts';
import { listProfiles, loadProfile, profileConfig } from './profiles.ts';
import { suiteEnvFor } from './suite-env.ts';
import { BASIC, basicAuth } from './test-support.ts';

const MAIN = new URL('./main.ts', import.meta.url).pathname;

async function printed(argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  const sim = await runCli(argv, {}, (line) => lines.push(line));
  await sim?.close();
  return lines;
}

describe('simulator CLI', () => {
  it('prints one ready line, serves, exits 0 on SIGTERM, and exits 2 with one line on bad flags', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--seed', '3', '--dialogs', '10', '--drift', 'meta-missing']);
    // Everything up to the last setting it prints: the output may arrive in pieces.
    let out = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (c) => {
        out += String(c);
        if (/CALLBACK_PUBLIC_URL=.*\n/.test(out)) resolve();
      }),
    );
    const [line = '', ...settings] = out.trimEnd().split('\n');
    const m = /^simulator listening on (http:\/\/127\.0\.0\.1:\d+) \(profile default, seed 3, 10 dialogs, drifts: meta-missing\)$/.exec(line);
    assert.ok(m, line);
    assert.ok(settings.includes(`  API_BASE_URL=${m[1]}`), out);
    const res = await fetch(`${m[1]}/api/v2/conversations`, { headers: { authorization: BASIC } });
    assert.equal(res.status, 200);
    assert.equal('meta' in (await res.json()), false);
    child.kill('SIGTERM');
    assert.deepEqual(await once(child, 'exit'), [0, null]);

    const bad = spawn(process.execPath, ['--import', 'tsx', MAIN, '--bogus']);
    let stderr = '';
    bad.stderr.on('data', (c) => (stderr += c));
    assert.deepEqual(await once(bad, 'exit'), [2, null]);
    assert.equal(stderr, 'simulator: unknown option --bogus; see npm run simulator -- --help\n');

    const unknown = spawn(process.execPath, ['--import', 'tsx', MAIN, '--profile', 'nope']);
    let unknownErr = '';
    unknown.stderr.on('data', (c) => (unknownErr += c));
    assert.deepEqual(await once(unknown, 'exit'), [2, null]);
    assert.equal(unknownErr, `simulator: unknown profile "nope"; known: ${listProfiles().join(', ')} (--list-profiles)\n`);
  });

  it('runs a profile with --profile NAME, naming it in the ready line', async () => {
    const lines: string[] = [];
    const sim = await runCli(['--port', '0', '--dialogs', '20', '--profile', 'form-text-acme'], {}, (line) => lines.push(line));
    try {
      assert.match(lines[0]!, /^simulator listening on http:\/\/127\.0\.0\.1:\d+ \(profile form-text-acme, seed 1, 20 dialogs, drifts: none\)$/);
      const config = profileConfig('form-text-acme');
      assert.deepEqual(sim!.config, config);
      const own = await fetch(`${sim!.url}/api/v2/conversations`, { headers: { authorization: basicAuth(config) } });
      assert.equal(own.status, 200);
      assert.equal((await fetch(`${sim!.url}/api/v2/conversations`, { headers: { authorization: BASIC } })).status, 401);
    } finally {
      await sim?.close();
    }
  });

  it('runs the live stream with --live RATE, naming it in the ready line', async () => {
    const lines: string[] = [];
    const sim = await runCli(['--port', '0', '--dialogs', '5', '--live', '0.5'], {}, (line) => lines.push(line));
    try {
      assert.match(lines[0]!, /^simulator listening on http:\/\/127\.0\.0\.1:\d+ \(profile default, seed 1, 5 dialogs, drifts: none, live 0\.5\/s\)$/);
      assert.equal(sim!.live!.step(3).length, 3);
      assert.equal(sim!.live!.changes(), 3);
    } finally {
      await sim?.close();
    }
  });

  it('lists the profiles as a table and as JSON', async () => {
    const table = await printed(['--list-profiles']);
    assert.deepEqual(
      table.map((line) => line.split(' ')[0]),
      listProfiles(),
    );
    assert.match(table.find((line) => line.startsWith('default '))!, /^default +The simulator's built-in choices/);
    assert.deepEqual(
      JSON.parse((await printed(['--list-profiles', '--json'])).join('\n')),
      listProfiles().map((name) => ({ name, description: loadProfile(name).description })),
    );
  });

  it('lists the drifts as a table and as JSON', async () => {
    const table = await printed(['--list-drifts']);
    assert.equal(table.length, DRIFTS.length);
    assert.match(table[0]!, /^v2-source-removed +breaking +§2\.1 /);
    assert.deepEqual(
      JSON.parse((await printed(['--list-drifts', '--json'])).join('\n')),
      DRIFTS.map(({ name, kind, clause, description, breaks, reports }) => JSON.parse(JSON.stringify({ name, kind, clause, description, breaks, reports }))),
    );
  });

  it('prints the settings a suite run against it needs: address, credentials, bots and the custom block URL', async () => {
    const lines: string[] = [];
    const sim = await runCli(['--port', '0', '--dialogs', '1', '--profile', 'form-text-acme'], {}, (line) => lines.push(line));
    try {
      const config = profileConfig('form-text-acme');
      const settings: Record<string, string> = Object.fromEntries(lines.slice(2).map((l) => l.trim().split('=') as [string, string]));
      assert.match(lines[1]!, /^for a suite against it \(\.env or the environment;/);
      assert.equal(settings.API_LOGIN, config.auth.login);
      assert.equal(settings.API_PASSWORD, config.auth.password);
      assert.deepEqual(settings, {
        API_BASE_URL: sim!.url,
        ...suiteEnvFor(config),
        CALLBACK_PORT: '4011',
        CALLBACK_PUBLIC_URL: 'http://127.0.0.1:4011/callback',
      });
    } finally {
      await sim?.close();
    }
  });

  it('calls the custom block back on the chosen callback port: --callback-port, else CALLBACK_PORT; --callback-url wins', async () => {
    const blockUrl = async (argv: string[], env: NodeJS.ProcessEnv) => {
      const lines: string[] = [];
      const sim = await runCli(['--port', '0', '--dialogs', '1', ...argv], env, (line) => lines.push(line));
      await sim!.close();
      const url = sim!.config.bots.find((b) => b.customBlockUrl !== null)!.customBlockUrl;
      assert.ok(lines.includes(`  CALLBACK_PUBLIC_URL=${url}`), lines.join('\n'));
      return url;
    };
    assert.equal(await blockUrl(['--callback-port', '5011'], {}), 'http://127.0.0.1:5011/callback');
    assert.equal(await blockUrl([], { CALLBACK_PORT: '5012' }), 'http://127.0.0.1:5012/callback');
    assert.equal(await blockUrl(['--callback-port', '5011'], { CALLBACK_PORT: '5012' }), 'http://127.0.0.1:5011/callback');
    assert.equal(await blockUrl(['--callback-url', 'http://runner.internal:7000/cb', '--callback-port', '5011'], {}), 'http://runner.internal:7000/cb');
    assert.equal(await blockUrl([], {}), 'http://127.0.0.1:4011/callback');
  });

  it('answers --help with its flags and starts nothing', async () => {
    const help = await printed(['--help']);
    assert.equal(help.length, 1);
    assert.match(help[0]!, /^usage: npm run simulator -- /);
    for (const flag of ['--port N', '--callback-port N', '--callback-url URL', '--profile NAME', '--list-drifts', 'SIMULATOR_PORT', 'CALLBACK_PORT'])
      assert.ok(help[0]!.includes(flag), flag);
  });

  it('takes the port from SIMULATOR_PORT when --port is absent', async () => {
    const sim = await runCli([], { SIMULATOR_PORT: '0' }, () => {});
    assert.ok(sim && sim.port > 0);
    await sim.close();
  });

  it('refuses bad input with a UsageError saying what to fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cli-'));
    writeFileSync(join(dir, 'broken.json'), '{ nope');
    writeFileSync(join(dir, 'typo.json'), '{"lists":{"defaultPageCount":"40"}}');
    const busy = await runCli(['--port', '0', '--dialogs', '1'], {}, () => {});
    try {
      const cases: Array<[string[], RegExp]> = [
        [['--port', 'abc'], /--port must be an integer >= 0, got "abc"/],
        [['--port', '70000'], /--port must be at most 65535/],
        [['--callback-url', 'nowhere'], /--callback-url must be an absolute URL/],
        [['--drift', 'no-such-drift'], /unknown drift "no-such-drift"; run with --list-drifts/],
        [['--profile', 'no-such-profile'], /^unknown profile "no-such-profile"; known: .*default.* \(--list-profiles\)$/],
        [['--profile', 'form-text-acme', '--config', join(dir, 'typo.json')], /config\.lists\.defaultPageCount must be an integer >= 1/],
        [['--config', join(dir, 'broken.json')], /broken\.json: not valid JSON/],
        [['--config', join(dir, 'missing.json')], /missing\.json: cannot read it \(ENOENT\)/],
        [['--config', join(dir, 'typo.json')], /config\.lists\.defaultPageCount must be an integer >= 1, got "40"/],
        [['--port', String(busy!.port)], new RegExp(`port ${busy!.port} is in use; .*--port 0`)],
        [['--live', 'often'], /^--live must be a positive number of changes per second, like 2 or 0\.5, got "often"$/],
        [['--live', '0'], /--live must be a positive number .*got "0"$/],
        [['--live=-1'], /--live must be a positive number .*got "-1"$/],
        [['--live', '1e3'], /--live must be a positive number .*got "1e3"$/],
        [['--live', '-1'], /^--live takes a value that starts with "-" only as --live=RATE; see npm run simulator -- --help$/],
        [['--live'], /^--live needs a value \(RATE\); see npm run simulator -- --help$/],
        [['--callback-port', '0'], /--callback-port must be an integer >= 1, got "0"/],
        [['--list-drifts', '--json=yes'], /^--json takes no value; /],
      ];
      for (const [argv, message] of cases) {
        await assert.rejects(printed(argv), (err: Error) => err instanceof UsageError && message.test(err.message) && !err.message.includes('\n'));
      }
    } finally {
      await busy!.close();
    }
  });
});
