import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { findSecrets, unzip } from './secret-scan.ts';
import { callFields } from '../http/callback-request.ts';
import { startSimulator } from '../simulator/server.ts';
import { parseSuiteConfig, secretsOf } from '../config/suite-config.ts';
import { freePort } from '../scripts/free-port.ts';
import { simulatorTargetEnv } from '../scripts/suite-run.ts';

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

/**
 * Stands between the simulator's custom block and the suite's listener: keeps every value of each call (the test
 * must know the tokens to look for them) and hands the call on unchanged.
 */
async function relay(inboxPort: number): Promise<{ url: string; values: Set<string>; close(): Promise<void> }> {
  const values = new Set<string>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    for (const field of await callFields({ method: req.method ?? 'POST', url: req.url ?? '/', headers, body })) values.add(field.value);
    const { host: _host, 'content-length': _length, ...forwarded } = headers;
    const answer = await fetch(`http://127.0.0.1:${inboxPort}${req.url}`, { method: req.method, headers: forwarded, body: body.length ? body : undefined });
    res.writeHead(answer.status).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, values, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// The token as JSON, as form fields and in a header; the drifts make tests fail after the token was used, and make
// send_message echo it back in the very answers the failures quote.
const DELIVERIES = [
  { how: 'a JSON body', callback: {} },
  { how: 'form fields', callback: { encoding: 'form' } },
  { how: 'an X-Integration-Token header', callback: { tokenHeader: 'X-Integration-Token' } },
] as const;

for (const { how, callback } of DELIVERIES) {
  test(`a failing run writes no password, Basic header or integration token (delivered in ${how}) into any artifact`, async () => {
    const reports = mkdtempSync(join(tmpdir(), 'secret-run-'));
    const inboxPort = await freePort();
    const calls = await relay(inboxPort);
    const drifts = ['created-at-milliseconds', 'send-message-echoes-token', 'wrong-password-403'];
    const sim = await startSimulator({ port: 0, callbackUrl: calls.url, config: { callback }, drifts, log: () => {} });
    try {
      const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
      const env = { ...simulatorTargetEnv(sim.url, inboxPort), REPORTS_DIR: reports };
      // Asynchronously: the simulator and the relay answer from this very process.
      const child = spawn(process.execPath, [cli, 'test', '--output', join(reports, 'test-results'), 'contract/v1/', 'contract/vertex/', '--project', 'api', '-g', 'token|password'], { env });
      const run = { output: '', status: null as number | null };
      child.stdout.on('data', (c: Buffer) => (run.output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (run.output += c.toString()));
      run.status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      const tokens = [...calls.values].filter((v) => v.length >= 16 && !/^[0-9a-f-]{36}$/i.test(v));
      assert.ok(tokens.length > 0, `the custom block delivered no token in ${how}`);
      assert.notEqual(run.status, 0, 'the drifted target must fail the run');
      assert.match(run.output, /failed/);
      assert.doesNotMatch(run.output, /secret-guard:/, 'the guard found a leak');
      const secrets = [...secretsOf(parseSuiteConfig(env)), ...tokens];
      assert.ok(existsSync(join(reports, 'exchanges.har')), 'the HAR of every request and answer is among the artifacts scanned');
      assert.deepEqual(findSecrets([reports], secrets), [], 'a report holds a secret');
      assert.ok(secrets.every((secret) => !run.output.includes(secret)), 'the console shows a secret');
    } finally {
      await sim.close();
      await calls.close();
    }
  });
}
