import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { findSecrets, unzip } from './secret-scan.ts';
import { startSimulator } from '../simulator/server.ts';
import { parseConfig, secretsOf } from './config.ts';
import { freePort, simulatorTargetEnv } from '../scripts/suite-run.ts';

/** A one-entry deflated zip, as Playwright embeds its report data. */
function zipOf(name: string, content: string): Buffer {
  const data = deflateRawSync(Buffer.from(content));
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const body = Buffer.concat([local, nameBytes, data]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(body.length, 16);
  return Buffer.concat([body, central, nameBytes, end]);
}

test('the scan finds secrets in plain files and inside the HTML report embedded zip, and names no clean file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
  mkdirSync(join(dir, 'html'));
  writeFileSync(join(dir, 'clean.txt'), 'nothing to see');
  writeFileSync(join(dir, 'plain.log'), 'password=hunter2-secret');
  writeFileSync(join(dir, 'header.txt'), '"authorization": "Basic cWEtY29udHJhY3Q6eHg="');
  const zipped = zipOf('data.json', JSON.stringify({ error: 'token tok-123456 leaked' }));
  assert.equal(unzip(zipped)[0]!.toString(), '{"error":"token tok-123456 leaked"}');
  writeFileSync(join(dir, 'html', 'index.html'), `<template id="playwrightReportBase64">data:application/zip;base64,${zipped.toString('base64')}</template>`);
  const leaks = findSecrets([dir], ['hunter2-secret', 'tok-123456']).map((l) => `${l.file.slice(dir.length + 1)} ${l.kind}`).sort();
  assert.deepEqual(leaks, ['header.txt Authorization header', 'html/index.html configured secret', 'plain.log configured secret']);
});

test('a failing run against a drifted target writes no password, Basic header or token into its reports', async () => {
  const reports = mkdtempSync(join(tmpdir(), 'secret-run-'));
  const callbackPort = await freePort();
  // Drifts that make tests fail with evidence: requests with and without credentials, bodies with tokens.
  const sim = await startSimulator({ port: 0, callbackUrl: `http://127.0.0.1:${callbackPort}/callback`, drifts: ['vertex-token-ignored', 'wrong-password-403'], log: () => {} });
  try {
    const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
    const env = { ...simulatorTargetEnv(sim.url, callbackPort), REPORTS_DIR: reports };
    const secrets = secretsOf(parseConfig(env));
    // Asynchronously: the simulator answers from this very process.
    const child = spawn(process.execPath, [cli, 'test', '--project', 'vertex', '--project', 'v1', '-g', 'token|password'], {
      env,
    });
    const run = { stdout: '', stderr: '', status: null as number | null };
    child.stdout.on('data', (c: Buffer) => (run.stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (run.stderr += c.toString()));
    run.status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.notEqual(run.status, 0, 'the drifted target must fail the run');
    assert.match(run.stdout, /failed/);
    assert.doesNotMatch(run.stderr + run.stdout, /secret-guard:/, 'the guard found a leak');
    assert.deepEqual(findSecrets([reports], secrets), []);
    assert.ok(secrets.every((secret) => !(run.stdout + run.stderr).includes(secret)), 'the console shows a secret');
  } finally {
    await sim.close();
  }
});
