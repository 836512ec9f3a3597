// Looks for secrets in every file under some folders (reports, test results). Reading is the only I/O here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export interface Leak {
  file: string;
  kind: 'configured secret' | 'Authorization header';
}

function* files(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Entries of a zip archive (stored or deflated), read through its central directory. */
export function unzip(zip: Buffer): Buffer[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return [];
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: Buffer[] = [];
  for (let i = 0; i < count && zip.readUInt32LE(at) === 0x02014b50; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(data, data + size);
    out.push(method === 8 ? inflateRawSync(raw) : raw);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

/** What a file says, including the zipped report data Playwright's HTML report embeds as base64. */
export function readableContent(bytes: Buffer): Buffer {
  const marker = 'data:application/zip;base64,';
  const text = bytes.toString('latin1');
  const parts = [bytes];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    const base64 = /^[A-Za-z0-9+/=]*/.exec(text.slice(at + marker.length))![0];
    parts.push(...unzip(Buffer.from(base64, 'base64')));
  }
  return Buffer.concat(parts);
}

export function findSecrets(dirs: string[], secrets: string[]): Leak[] {
  const needles = secrets.filter((s) => s.length >= 4).map((s) => Buffer.from(s));
  const leaks: Leak[] = [];
  for (const dir of dirs) {
    for (const file of files(dir)) {
      const bytes = readableContent(readFileSync(file));
      if (needles.some((n) => bytes.includes(n))) leaks.push({ file, kind: 'configured secret' });
      else if (/authorization["']?\s*[:=]\s*["']?basic\s+[A-Za-z0-9+/]{8,}/i.test(bytes.toString('latin1'))) leaks.push({ file, kind: 'Authorization header' });
    }
  }
  return leaks;
}
