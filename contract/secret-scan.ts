// Looks for secrets in every file under some folders (reports, test results). Reading is the only I/O here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

export function findSecrets(dirs: string[], secrets: string[]): Leak[] {
  const needles = secrets.filter((s) => s.length >= 4).map((s) => Buffer.from(s));
  const leaks: Leak[] = [];
  for (const dir of dirs) {
    for (const file of files(dir)) {
      const bytes = readFileSync(file);
      if (needles.some((n) => bytes.includes(n))) leaks.push({ file, kind: 'configured secret' });
      else if (/authorization["']?\s*[:=]\s*["']?basic\s+[A-Za-z0-9+/]{8,}/i.test(bytes.toString('latin1'))) leaks.push({ file, kind: 'Authorization header' });
    }
  }
  return leaks;
}
