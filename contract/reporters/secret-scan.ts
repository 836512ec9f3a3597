// Looks for secrets in every file under some folders (reports, test results), as http/secret-match.ts matches each
// (a random one anywhere, one that reads as words only where a value is written), and for any Basic credential.
// Reading is the only I/O here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { guardSecret, secretWritten, type GuardedSecret } from '../../http/secret-match.ts';

export interface Leak {
  file: string;
  kind: 'configured secret' | 'Authorization header';
  /** Which secret (its name, never its value); none for a Basic credential found by its form. */
  secret?: string;
}

/** Files under dir, those last written at or after `since` (ms) when given. */
function* files(dir: string, since = 0): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) yield* files(path, since);
    else if (stat.mtimeMs >= since) yield path;
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

/**
 * What a file says: its own text, and the zipped report data Playwright's HTML report embeds as base64. `shell` is
 * false when the file only carries such data, so the rest of it (Playwright's own page script) is not the run's.
 */
export function readableContent(bytes: Buffer): { text: string; data: string[]; shell: boolean } {
  const marker = 'data:application/zip;base64,';
  const text = bytes.toString('utf8');
  const data: string[] = [];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    const base64 = /^[A-Za-z0-9+/=]*/.exec(text.slice(at + marker.length))![0];
    data.push(...unzip(Buffer.from(base64, 'base64')).map((b) => b.toString('utf8')));
  }
  return { text, data, shell: data.length === 0 };
}

// A Basic credential in a header line or a HAR header, and one anywhere whose base64 reads "user:password".
const HEADER_BASIC = /authorization["']?\s*[:=]\s*["']?basic\s+[A-Za-z0-9+/]{8,}/i;
const ANY_BASIC = /\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/g;

function holdsBasicCredential(text: string): boolean {
  if (HEADER_BASIC.test(text)) return true;
  for (const m of text.matchAll(ANY_BASIC)) if (/^[\x20-\x7e]+:[\x20-\x7e]*$/.test(Buffer.from(m[1]!, 'base64').toString('latin1'))) return true;
  return false;
}

/** A plain string is a configured secret of no particular name, guarded as its form allows. */
const guarded = (secret: string | GuardedSecret): GuardedSecret => (typeof secret === 'string' ? guardSecret('a configured secret', secret) : secret);

/**
 * Every file under `dirs` holding a secret or a Basic credential; with `since` (ms), only files written since then:
 * what one run wrote, not what other commands left in the same folder (reports/mutation/, reports/profiles/).
 */
export function findSecrets(dirs: string[], secrets: ReadonlyArray<string | GuardedSecret>, since?: number): Leak[] {
  const guards = secrets.map(guarded);
  const leaks: Leak[] = [];
  for (const dir of dirs) {
    for (const file of files(dir, since)) {
      const { text, data, shell } = readableContent(readFileSync(file));
      // A secret that reads as words is looked for in the run's data only, not in the page script around it.
      const found = guards.find((g) => data.some((d) => secretWritten(d, g)) || ((shell || g.match === 'anywhere') && secretWritten(text, g)));
      if (found) leaks.push({ file, kind: 'configured secret', secret: found.name });
      else if ([text, ...data].some(holdsBasicCredential)) leaks.push({ file, kind: 'Authorization header' });
    }
  }
  return leaks;
}

/** "reports/x contains API_PASSWORD": a leak as a line names it (never the value). */
export function leakLine(leak: Leak, root = process.cwd()): string {
  const file = relative(root, leak.file).startsWith('..') ? leak.file : relative(root, leak.file);
  return `${file} contains ${leak.kind === 'Authorization header' ? 'a Basic credential (an Authorization header)' : (leak.secret ?? 'a configured secret')}`;
}
